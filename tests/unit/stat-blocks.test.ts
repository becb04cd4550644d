import { describe, expect, test } from 'bun:test';
import { BLOCK, NEXT, claim, statBlock } from '../../server/fs/stat-blocks';

// The shared-memory protocol of a big listing's stats (server/fs/stat-blocks.ts): every block is claimed once, and
// claiming stops at the limit and once the listing ended (NEXT set past the last block).
describe('stat blocks', () => {
  test('claims are handed out once each, in order, up to the limit', () => {
    const ctl = new Int32Array(new SharedArrayBuffer(8));
    expect([claim(ctl, 3), claim(ctl, 3), claim(ctl, 3), claim(ctl, 3)]).toEqual([0, 1, 2, -1]);
    expect(claim(ctl, 5)).toBe(3); // a higher limit (more names arrived) lets claiming go on
    Atomics.store(ctl, NEXT, 5); // the listing ended
    expect(claim(ctl, 5)).toBe(-1);
  });

  test('a block writes the numbers of its names only, NaN for a name that failed, then its done mark', () => {
    const count = BLOCK + 5;
    const nums = new Float64Array(new SharedArrayBuffer(count * 24)).fill(-1);
    const done = new Int32Array(new SharedArrayBuffer(8));
    const seen: number[] = [];
    statBlock(1, count, nums, done, (j) => {
      seen.push(j);
      nums.set([j, j * 10, j * 100], j * 3);
      return j !== BLOCK + 2;
    });
    expect(seen).toEqual([BLOCK, BLOCK + 1, BLOCK + 2, BLOCK + 3, BLOCK + 4]); // the short last block
    expect([...done]).toEqual([0, 1]);
    expect(nums[0]).toBe(-1); // block 0 untouched
    expect(nums[BLOCK * 3 + 1]).toBe(BLOCK * 10);
    expect(Number.isNaN(nums[(BLOCK + 2) * 3]!)).toBe(true);
  });
});
