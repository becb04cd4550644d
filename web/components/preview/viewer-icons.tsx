// The viewers draw with the one shared icon set.
export { Icon as ViewerIcon, type IconName as ViewerIconName } from '../ui/icon';
