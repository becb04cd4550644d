import { expect, test } from 'bun:test';
import { isoTime } from '../../server/services/files/describe';

test('isoTime is exactly Date.toISOString for every kind of time, fractional and odd ones included', () => {
  const edges = [0, 1, 999, 1000, 59_999, 60_000, 3_599_999, 3_600_000, 1.5, 0.9, -0.5, -1, -1.5, -86_400_000, 1_700_000_000_123.987, 253402300799999, 253402300800000, 8.64e15, -8.64e15, 951_782_400_000];
  for (const ms of edges) expect(isoTime(ms)).toBe(new Date(ms).toISOString());
  for (let i = 0; i < 20_000; i++) {
    const ms = Math.random() < 0.5 ? Math.random() * 2_000_000_000_000 : (Math.random() - 0.5) * 1e15;
    expect(isoTime(ms)).toBe(new Date(ms).toISOString());
  }
  expect(() => isoTime(Number.NaN)).toThrow(RangeError);
});
