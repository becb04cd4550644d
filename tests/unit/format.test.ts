import { describe, expect, test } from 'bun:test';
import { formatCount, formatDuration, formatExact, formatPercent, formatRate, formatRelative, formatSize } from '../../web/i18n/format';

// The formatters are built once per language and kind (web/i18n/format.ts): every answer must still be the one a
// formatter built for that very call gives, whatever was formatted before, in which language and unit.
const LANGS = ['en', 'de', 'ar', 'ja', 'he', 'fr'];
const iso = (s: string, lng: string) => (['ar', 'he', 'fa'].includes(lng) ? `\u2068${s}\u2069` : s);
const UNITS = ['byte', 'kilobyte', 'megabyte', 'gigabyte', 'terabyte', 'petabyte'];

describe('formatters built once per language and kind', () => {
  test('sizes and rates in every unit, languages interleaved, match a fresh formatter', () => {
    const cases = [0, 16, 1023, 1024, 1536, 10 * 1024 ** 2 + 5, 3.25 * 1024 ** 3, 2 * 1024 ** 4, 7 * 1024 ** 5];
    for (let round = 0; round < 2; round++)
      for (const bytes of cases)
        for (const lng of LANGS) {
          let unit = 0;
          let v = bytes;
          while (v >= 1024 && unit < UNITS.length - 1) {
            v /= 1024;
            unit++;
          }
          const size = new Intl.NumberFormat(lng, { style: 'unit', unit: UNITS[unit], unitDisplay: unit === 0 ? 'long' : 'short', maximumFractionDigits: unit === 0 ? 0 : 1 }).format(v);
          expect(formatSize(bytes, lng)).toBe(iso(size, lng));
          const rate = new Intl.NumberFormat(lng, { style: 'unit', unit: `${UNITS[unit]}-per-second`, unitDisplay: 'short', maximumFractionDigits: unit === 0 ? 0 : 1 }).format(v);
          expect(formatRate(bytes, lng)).toBe(iso(rate, lng));
        }
  });

  test('counts, percentages and durations', () => {
    for (const lng of LANGS) {
      expect(formatCount(1234567.891, lng)).toBe(new Intl.NumberFormat(lng, { maximumFractionDigits: 2 }).format(1234567.891));
      expect(formatPercent(42, lng)).toBe(iso(new Intl.NumberFormat(lng, { style: 'percent', maximumFractionDigits: 0 }).format(0.42), lng));
      const unit = (u: string, n: number) => new Intl.NumberFormat(lng, { style: 'unit', unit: u, unitDisplay: 'short' }).format(n);
      const list = new Intl.ListFormat(lng, { style: 'narrow', type: 'unit' });
      expect(formatDuration(3725, lng)).toBe(iso(list.format([unit('hour', 1), unit('minute', 2)]), lng));
      expect(formatDuration(65, lng)).toBe(iso(list.format([unit('minute', 1), unit('second', 5)]), lng));
      expect(formatDuration(0, lng)).toBe(iso(list.format([unit('second', 0)]), lng));
    }
  });

  test('relative and exact dates', () => {
    const now = Date.UTC(2026, 10, 28, 12, 0, 0);
    for (const lng of LANGS) {
      const rtf = new Intl.RelativeTimeFormat(lng, { numeric: 'auto' });
      expect(formatRelative(now - 30_000, lng, now)).toBe(rtf.format(-30, 'second'));
      expect(formatRelative(now - 3 * 3600_000, lng, now)).toBe(rtf.format(-3, 'hour'));
      expect(formatRelative(now + 2 * 86_400_000, lng, now)).toBe(rtf.format(2, 'day'));
      expect(formatRelative('not a date', lng, now)).toBe('');
      const d = new Date(now - 86_400_000);
      expect(formatExact(d, lng)).toBe(new Intl.DateTimeFormat(lng, { dateStyle: 'medium', timeStyle: 'short' }).format(d));
      expect(formatExact(d.toISOString(), lng)).toBe(formatExact(d, lng));
    }
  });
});
