// The share page draws with the one shared icon set.
export { Icon as ExtraIcon, type IconName as ExtraIconName } from '../ui/icon';
