import { describe, expect, test } from 'bun:test';
import { overBudget, retention, thinFile, type Kept } from '../../server/services/versions/retention';

// Retention of versions (issue 35) with a controllable clock: the staggered thinning replayed over a simulated week.
const S = 1000;
const DAY = 86_400 * S;
const WEEK = 7 * DAY;
const T0 = 2900 * WEEK; // a week boundary, so the slots below are easy to count
const keep = { maxAgeDays: 0, maxPerFile: 0 };
const v = (i: number, at: number, path = '/f', size = 1): Kept => ({ id: `v${i}`, path, replacedAt: at, size });

describe('staggered thinning', () => {
  test('a week of saves every 10 s, thinned after each save: exactly the newest of each slot survives', () => {
    const saves = 7 * 24 * 360; // 60,480
    let kept: Kept[] = [];
    for (let k = 0; k < saves; k++) {
      kept.push(v(k, T0 + k * 10 * S));
      const drop = thinFile(kept, T0 + k * 10 * S, keep);
      kept = kept.filter((x) => !drop.has(x.id));
    }
    const now = T0 + (saves - 1) * 10 * S;
    const ages = kept.map((x) => (now - x.replacedAt) / S).sort((a, b) => a - b);
    // The last minute: every save (10 s apart, each in its own 5 s slot).
    expect(ages.filter((a) => a < 60)).toEqual([0, 10, 20, 30, 40, 50]);
    // Then one per minute up to an hour (59 minute slots), one per hour up to a day (23), one per day after (6).
    const minute = ages.filter((a) => a >= 60 && a < 3600);
    const hour = ages.filter((a) => a >= 3600 && a < 86_400);
    const day = ages.filter((a) => a >= 86_400);
    expect([minute.length, hour.length, day.length]).toEqual([59, 23, 6]);
    expect(kept).toHaveLength(94);
    // Each survivor is the newest save of its slot: the last save of each minute / hour / day.
    for (const a of minute) expect((now - a * S) % (60 * S)).toBe(50 * S);
    for (const a of hour) expect((now - a * S) % (3600 * S)).toBe(3590 * S);
    for (const a of day) expect((now - a * S) % DAY).toBe(DAY - 10 * S);
    // Thinning once at the end keeps the very same versions (slots nest: no order effect).
    const all = Array.from({ length: saves }, (_, k) => v(k, T0 + k * 10 * S));
    const once = thinFile(all, now, keep);
    expect(all.filter((x) => !once.has(x.id)).map((x) => x.id).sort()).toEqual(kept.map((x) => x.id).sort());
  }, 30_000); // 60,480 saves, each thinned: 1.6 s alone, 6 s on a loaded machine

  test('a month later the week keeps one per week; maxAgeDays drops what is older; maxPerFile keeps the newest', () => {
    const all = Array.from({ length: 7 * 24 * 6 }, (_, k) => v(k, T0 + k * 600 * S)); // every 10 minutes for a week
    const later = T0 + 40 * DAY;
    const left = all.filter((x) => !thinFile(all, later, keep).has(x.id));
    expect(left).toHaveLength(1); // the whole week is one week slot: its newest
    expect(left[0]!.id).toBe(`v${all.length - 1}`);
    expect(thinFile(all, later, { maxAgeDays: 30, maxPerFile: 0 }).size).toBe(all.length);
    const recent = [v(1, T0), v(2, T0 + 3600 * S), v(3, T0 + 7200 * S)];
    expect([...thinFile(recent, T0 + 7200 * S, { maxAgeDays: 0, maxPerFile: 2 })]).toEqual(['v1']);
  });
});

describe('space', () => {
  test('over a byte budget the oldest go first', () => {
    const xs = [v(1, 1, '/a', 10), v(2, 2, '/b', 10), v(3, 3, '/a', 10)];
    expect([...overBudget(xs, 15)].sort()).toEqual(['v1', 'v2']);
    expect(overBudget(xs, 30).size).toBe(0);
  });

  test('per-user cap by the innermost scope, then the share of free space, after the thinning', () => {
    const now = T0;
    const xs = [v(1, now - 3 * DAY, 'bob/a', 40), v(2, now - 2 * DAY, 'bob/b', 40), v(3, now - DAY, 'carol/a', 40), v(4, now - 2 * DAY, 'carol/b', 40)];
    const settings = { enabled: true, maxAgeDays: 0, maxPerFile: 0, maxBytesPerUser: 50, maxFreeSharePercent: 100 };
    const plan = { now, settingsFor: (p: string) => (p.startsWith('bob') ? settings : { ...settings, maxBytesPerUser: 0 }), ownerOf: (p: string) => (p.startsWith('bob') ? 1 : 2), freeBytes: 1000, maxFreeSharePercent: 100 };
    expect([...retention(xs, plan)]).toEqual(['v1']);
    // 10% of 1000 bytes free: only 100 bytes of versions may stay; of the 120 left the oldest goes (v2, before v4).
    expect([...retention(xs, { ...plan, maxFreeSharePercent: 10 })].sort()).toEqual(['v1', 'v2']);
    expect([...retention(xs, { ...plan, maxFreeSharePercent: 5 })].sort()).toEqual(['v1', 'v2', 'v4']);
  });
});
