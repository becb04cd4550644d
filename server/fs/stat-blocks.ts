/**
 * The shared-memory protocol of a big listing's stats (stat-ahead.ts on the main thread, stat.worker.ts on the stat
 * worker): the listing's names in blocks of BLOCK, claimed one at a time by whichever thread comes first, through
 * one counter. Both threads use these functions, so a block is stat-ed by exactly one of them.
 */

/** Names per block: ~100 µs of statx, the longest the main thread stats for the worker before it reads on. */
export const BLOCK = 32;
/** Slots of the control array: the lowest unclaimed block, and whether the worker is claiming or stat-ing. */
export const NEXT = 0;
export const BUSY = 1;

/**
 * Claims the lowest unclaimed block below `limit` (compare-and-swap on ctl[NEXT]): its number, or -1 when every
 * block below `limit` is claimed (or the listing ended: close() sets NEXT past the last block).
 */
export function claim(ctl: Int32Array, limit: number): number {
  for (;;) {
    const c = Atomics.load(ctl, NEXT);
    if (c >= limit) return -1;
    if (Atomics.compareExchange(ctl, NEXT, c, c + 1) === c) return c;
  }
}

/**
 * Stats the names of block `b` (of `count` names in all) with `statOne(j)`, which writes the three numbers of name
 * `j` into `nums` and says whether it could; a name that could not be stat-ed gets NaN as its mode. Then marks the
 * block done (the numbers are visible to the other thread once it reads the mark). Returns how many names it held.
 */
export function statBlock(b: number, count: number, nums: Float64Array, done: Int32Array, statOne: (j: number) => boolean): number {
  const end = Math.min(count, (b + 1) * BLOCK);
  for (let j = b * BLOCK; j < end; j++) if (!statOne(j)) nums[j * 3] = NaN;
  Atomics.store(done, b, 1);
  return end - b * BLOCK;
}
