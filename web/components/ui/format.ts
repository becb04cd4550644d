// Components keep importing formatters from here; the one implementation lives with the language code (i18n/format.ts).
export { formatCount, formatDuration, formatExact, formatPercent, formatRate, formatRelative, formatSize } from '../../i18n/format';
