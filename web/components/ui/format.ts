const UNITS = ['B', 'KB', 'MB', 'GB', 'TB', 'PB'] as const;

/** A byte count in the largest unit that keeps the number at least 1 (1024-based), localised by Intl. */
export function formatSize(bytes: number, lng: string): string {
  let value = Math.max(0, bytes);
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  // Unit symbols are international; the number follows the language's digits and decimal mark.
  return `${new Intl.NumberFormat(lng, { maximumFractionDigits: unit === 0 ? 0 : 1 }).format(value)}\u00a0${UNITS[unit]}`;
}

const STEPS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['second', 60],
  ['minute', 60],
  ['hour', 24],
  ['day', 30],
  ['month', 12],
  ['year', Infinity],
];

/** "3 hours ago", "in 2 days": a time relative to now, in the given language. */
export function formatRelative(date: Date | string | number, lng: string, now = Date.now()): string {
  const ms = new Date(date).getTime();
  if (Number.isNaN(ms)) return '';
  let value = (ms - now) / 1000;
  const rtf = new Intl.RelativeTimeFormat(lng, { numeric: 'auto' });
  for (const [unit, size] of STEPS) {
    if (Math.abs(value) < size) return rtf.format(Math.round(value), unit);
    value /= size;
  }
  return rtf.format(Math.round(value), 'year');
}

/** The full date and time, in the given language. */
export function formatExact(date: Date | string | number, lng: string): string {
  const d = new Date(date);
  if (Number.isNaN(d.getTime())) return '';
  return new Intl.DateTimeFormat(lng, { dateStyle: 'medium', timeStyle: 'short' }).format(d);
}
