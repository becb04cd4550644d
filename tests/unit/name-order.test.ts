import { describe, expect, test } from 'bun:test';
import { naturalKey } from '../../server/services/files/natural-key';
import { nameOrder } from '../../server/services/files/name-order';

// A big listing's name order (issue 15): the radix of name-order.ts against the plain string order of the keys
// it replaces ("kind + naturalKey + NUL + name"), the order tests/api/listings.test.ts checks against sortItems.
function oracle(names: string[], dirs: Uint8Array): number[] {
  const keys = names.map((n, i) => `${dirs[i] ? '0' : '1'}${naturalKey(n)}\0${n}`);
  return names.map((_, i) => i).sort((a, b) => (keys[a]! < keys[b]! ? -1 : keys[a]! > keys[b]! ? 1 : 0));
}

/** mulberry32: a seeded generator whose low bits are as random as its high ones. */
function generator(seed: number) {
  return (n: number) => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) % n;
  };
}

const PARTS = ['a', 'B', 'file', 'File', '0', '007', '7', '10', '2', ' ', '-', '.', 'é', 'Ä', 'İ', 'ß', 'z', '99999999999999999999999', '_', '中', '\uffff', 'ÿ', '~', 'IMG_', '2024-01-', 'x'.repeat(40), '😀'];

describe('nameOrder', () => {
  test('equals the string order of the one-string keys on random folders (sizes 1 to 5,000, shared prefixes, any script)', () => {
    const rnd = generator(15);
    for (let trial = 0; trial < 120; trial++) {
      const n = [1, 2, 5, 25, 30, 100, 1000, 5000][rnd(8)]!;
      const prefix = rnd(3) === 0 ? 'common-prefix-'.repeat(1 + rnd(5)) : '';
      const made = new Set<string>();
      while (made.size < n) made.add(prefix + Array.from({ length: 1 + rnd(6) }, () => PARTS[rnd(PARTS.length)]).join('') + (rnd(2) ? rnd(100_000) : ''));
      const names = [...made];
      const dirs = Uint8Array.from(names, () => (rnd(4) === 0 ? 1 : 0));
      expect({ trial, order: Array.from(nameOrder(names, dirs)) }).toEqual({ trial, order: oracle(names, dirs) });
    }
  });

  test('equal natural keys are ordered by name; numbers naturally; folders first; every index once', () => {
    const names = ['file10', 'File2', 'file2', 'file02', 'a', 'A', 'dir', 'file1', ...Array.from({ length: 40 }, (_, i) => `n${i}`)];
    const dirs = Uint8Array.from(names, (n) => (n === 'dir' ? 1 : 0));
    const got = Array.from(nameOrder(names, dirs)).map((i) => names[i]);
    expect(got.slice(0, 7)).toEqual(['dir', 'A', 'a', 'file1', 'File2', 'file02', 'file2']);
    expect(got.indexOf('file10')).toBe(7);
    expect(new Set(got).size).toBe(names.length);
  });

  test('a big folder of look-alike names (a camera folder) keeps the natural order', () => {
    const names = Array.from({ length: 20_000 }, (_, i) => `IMG_${2000 + (i % 25)}${String(i % 12).padStart(2, '0')}_${String((i * 7919) % 20_000).padStart(5, '0')}.JPG`);
    const unique = [...new Set(names)];
    const dirs = new Uint8Array(unique.length);
    expect(Array.from(nameOrder(unique, dirs))).toEqual(oracle(unique, dirs));
  });
});
