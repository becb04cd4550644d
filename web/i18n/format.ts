// The one home for numbers, sizes, rates, durations and dates on screen: everything goes through Intl for the
// language in use, so digits, decimal marks, unit names and their order follow the locale (issue 16 item 7).

import { isRtl } from './locales';

const UNITS = ['byte', 'kilobyte', 'megabyte', 'gigabyte', 'terabyte', 'petabyte'] as const;

/**
 * First-strong isolation (U+2068 … U+2069) in right-to-left languages: "1.2 MB" keeps its own order inside Arabic,
 * Hebrew or Persian text instead of reading "MB 1.2". Left-to-right text needs none, so none is added there.
 */
const isolate = (s: string, lng: string) => (isRtl(lng) ? `\u2068${s}\u2069` : s);

/** Letters of the right-to-left scripts (Hebrew, Arabic, Syriac, Thaana, N'Ko…, and their presentation forms). */
const RTL_LETTER = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]/;

/**
 * A name, path or other text put into a translated sentence ("In {{path}}"), isolated so its own letters decide
 * its direction: "2024 Holiday.jpg" never reads "Holiday.jpg 2024" in an Arabic sentence, nor does an Arabic or
 * Hebrew name break up an English one. A left-to-right text in a left-to-right language cannot be reordered, so it
 * is left as it is (no invisible characters where they change nothing). i18next sends every string value through
 * here (the formatter in i18n.ts): that is the one place; names shown on their own use `<bdi>` or bidi.css.
 */
export function isolateText(text: string, lng: string): string {
  if (!text || text.startsWith('\u2068') || !(isRtl(lng) || RTL_LETTER.test(text))) return text;
  return `\u2068${text}\u2069`;
}

/**
 * Intl formatters, one per language and kind, built once: building one reads the language's data (measured in
 * Chromium: formatExact and formatRelative building theirs for each listing row took ~60 ms of a 10,000-item
 * folder's first screen), using one is cheap. `key` names the options (fixed per key), so no call serialises them.
 */
const formatters = new Map<string, unknown>();
function cached<T>(lng: string, key: string, make: () => T): T {
  const k = `${lng}|${key}`;
  let f = formatters.get(k) as T | undefined;
  if (f === undefined) {
    f = make();
    formatters.set(k, f);
  }
  return f;
}
const numberFormat = (lng: string, key: string, opts: () => Intl.NumberFormatOptions) => cached(lng, key, () => new Intl.NumberFormat(lng, opts()));

function scaled(bytes: number): [number, number] {
  let value = Math.max(0, bytes);
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  return [value, unit];
}

/**
 * A byte count in the largest unit that keeps the number at least 1 (1024-based). Intl writes number and unit in
 * the language's order and script; the result is isolated so that in Arabic, Hebrew or Persian text it is never
 * split into "MB 1.2".
 */
export function formatSize(bytes: number, lng: string): string {
  const [value, unit] = scaled(bytes);
  // Plain bytes are spelled out ("16 bytes", "16 octets"): Intl's short form of that unit reads "16 byte" in English.
  return isolate(numberFormat(lng, `size${unit}`, () => ({ style: 'unit', unit: UNITS[unit], unitDisplay: unit === 0 ? 'long' : 'short', maximumFractionDigits: unit === 0 ? 0 : 1 })).format(value), lng);
}

/** A transfer rate ("3.4 MB/s"), same units and isolation as formatSize. */
export function formatRate(bytesPerSecond: number, lng: string): string {
  const [value, unit] = scaled(bytesPerSecond);
  return isolate(numberFormat(lng, `rate${unit}`, () => ({ style: 'unit', unit: `${UNITS[unit]}-per-second`, unitDisplay: 'short', maximumFractionDigits: unit === 0 ? 0 : 1 })).format(value), lng);
}

/**
 * A plain number ("1,234" / "١٬٢٣٤") in the language's digits, grouped as the language groups (Spanish or Polish
 * leave four digits ungrouped). Also used by i18next for every number put into a translated sentence (i18n.ts),
 * which keeps the number itself for plural selection.
 */
export function formatCount(n: number, lng: string): string {
  return numberFormat(lng, 'count', () => ({ maximumFractionDigits: 2 })).format(n);
}

/** A percentage from 0–100 ("42 %", "٪٤٢"), as the language writes it. */
export function formatPercent(percent: number, lng: string): string {
  return isolate(numberFormat(lng, 'percent', () => ({ style: 'percent', maximumFractionDigits: 0 })).format(percent / 100), lng);
}

/** A time span such as "1 min, 5 sec" or "45 sec" (time left), rounded to whole seconds. */
export function formatDuration(seconds: number, lng: string): string {
  const s = Math.max(0, Math.round(seconds));
  const parts: string[] = [];
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  const unit = (u: string, v: number) => numberFormat(lng, `span-${u}`, () => ({ style: 'unit', unit: u, unitDisplay: 'short' })).format(v);
  if (h) parts.push(unit('hour', h));
  if (m) parts.push(unit('minute', m));
  if (!h && (sec || !m)) parts.push(unit('second', sec));
  return isolate(cached(lng, 'span-list', () => new Intl.ListFormat(lng, { style: 'narrow', type: 'unit' })).format(parts), lng);
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
  const rtf = cached(lng, 'relative', () => new Intl.RelativeTimeFormat(lng, { numeric: 'auto' }));
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
  return cached(lng, 'exact', () => new Intl.DateTimeFormat(lng, { dateStyle: 'medium', timeStyle: 'short' })).format(d);
}

/**
 * Loads the language data of the formatters a listing shows (sizes, relative and exact dates) on another thread: the
 * data is shared by the page's threads, so the main thread's first formatters are then built in 1-5 ms instead of
 * 40-70 (measured in Chromium), and the loading overlaps with the app's script being parsed and run. Only warms: the
 * worker's own formatters are thrown away. Self-contained, as its text is the worker's code.
 */
function loadIntlData(lng: string): void {
  new Intl.NumberFormat(lng, { style: 'unit', unit: 'kilobyte', unitDisplay: 'short', maximumFractionDigits: 1 }).format(1.5);
  new Intl.NumberFormat(lng).format(1234);
  new Intl.RelativeTimeFormat(lng, { numeric: 'auto' }).format(-3, 'minute');
  new Intl.DateTimeFormat(lng, { dateStyle: 'medium', timeStyle: 'short' }).format(0);
  new Intl.PluralRules(lng).select(2);
}

/** Starts loadIntlData in a worker of its own (the start-up script, web/early.ts). Never fails the page. */
export function warmFormattersOffThread(lng: string): void {
  try {
    const url = URL.createObjectURL(new Blob([`(${loadIntlData.toString()})(${JSON.stringify(lng)});close();`], { type: 'text/javascript' }));
    new Worker(url);
    setTimeout(() => URL.revokeObjectURL(url), 30_000); // not at once: the worker fetches its code after this returns
  } catch {
    // No workers (or none from blob: URLs): the formatters load their data when first built, as they would anyway.
  }
}

/**
 * Builds the formatters a listing's first screen uses (sizes, relative and exact dates) for `lng` ahead of time.
 * Start-up calls it before the first render (and, renewing first, while that renewal is on the network); once the
 * start-up script's worker has loaded the data (warmFormattersOffThread) it takes a few ms.
 */
export function warmFormatters(lng: string): void {
  const now = Date.now();
  formatSize(1024, lng);
  formatRelative(now - 60_000, lng, now);
  formatExact(now, lng);
}
