import type { VersionSettings } from '../../contract/versions';

/** What retention needs of a version (a row of the versions table, or a test's made-up one). */
export interface Kept {
  id: string;
  /** The file it belongs to (versions are thinned per file). */
  path: string;
  replacedAt: number;
  size: number;
}

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const WEEK = 7 * DAY;

/**
 * The staggered schedule: up to each age, one version per slot of this width is kept (the newest in the slot).
 * Slots are whole multiples of their width since the epoch, so they nest (a minute holds whole 5-second slots, an
 * hour whole minutes...) and a version kept once is still the newest of its wider slot later on: thinning never
 * keeps a version it will drop at the next step while dropping one it would have kept.
 */
export const STAGGER: readonly { upTo: number; slot: number }[] = [
  { upTo: MINUTE, slot: 5 * SECOND },
  { upTo: HOUR, slot: MINUTE },
  { upTo: DAY, slot: HOUR },
  { upTo: 30 * DAY, slot: DAY },
  { upTo: Infinity, slot: WEEK },
];

const slotWidth = (age: number) => STAGGER.find((s) => age < s.upTo)!.slot;

/**
 * One file's versions after the staggered thinning, `maxAgeDays` and `maxPerFile`: the ids to delete. Pure: the
 * caller gives the clock (`now`), so tests can replay a week in a moment.
 */
export function thinFile(versions: readonly Kept[], now: number, s: Pick<VersionSettings, 'maxAgeDays' | 'maxPerFile'>): Set<string> {
  const drop = new Set<string>();
  const newestFirst = [...versions].sort((a, b) => b.replacedAt - a.replacedAt || (a.id < b.id ? 1 : -1));
  const seen = new Set<string>();
  let kept = 0;
  for (const v of newestFirst) {
    const age = Math.max(0, now - v.replacedAt);
    if (s.maxAgeDays > 0 && age > s.maxAgeDays * DAY) {
      drop.add(v.id);
      continue;
    }
    const width = slotWidth(age);
    const slot = `${width}:${Math.floor(v.replacedAt / width)}`;
    if (seen.has(slot) || (s.maxPerFile > 0 && kept >= s.maxPerFile)) {
      drop.add(v.id);
      continue;
    }
    seen.add(slot);
    kept++;
  }
  return drop;
}

/** The oldest versions past a byte budget: what must go so the rest fits (`budget` < 0: no budget). */
export function overBudget(versions: readonly Kept[], budget: number): Set<string> {
  const drop = new Set<string>();
  if (budget < 0) return drop;
  let total = versions.reduce((n, v) => n + v.size, 0);
  for (const v of [...versions].sort((a, b) => a.replacedAt - b.replacedAt)) {
    if (total <= budget) break;
    drop.add(v.id);
    total -= v.size;
  }
  return drop;
}

/** What every settled version is judged by: the settings of the user whose scope holds it, and the free space. */
export interface RetentionPlan {
  now: number;
  /** The settings that apply to a file's versions (the owner's override over the global ones). */
  settingsFor(path: string): VersionSettings;
  /** Whose scope holds a path (the innermost scope), or null (no user's). */
  ownerOf(path: string): number | null;
  /** Free bytes of the disk now (with what versions hold counted as free: they could be dropped). */
  freeBytes: number;
  /** The global share of the free space versions may hold (percent). */
  maxFreeSharePercent: number;
}

/**
 * Every rule at once over all versions: per file the staggered thinning, age and count; per owner `maxBytesPerUser`
 * (oldest first); over all, `maxFreeSharePercent` of the free space (oldest first). Returns the ids to delete.
 */
export function retention(all: readonly Kept[], plan: RetentionPlan): Set<string> {
  const drop = new Set<string>();
  const byFile = groupBy(all, (v) => v.path);
  for (const [path, vs] of byFile) for (const id of thinFile(vs, plan.now, plan.settingsFor(path))) drop.add(id);
  let left = all.filter((v) => !drop.has(v.id));
  const byOwner = groupBy(left, (v) => String(plan.ownerOf(v.path) ?? ''));
  for (const [owner, vs] of byOwner) {
    if (!owner) continue;
    const cap = plan.settingsFor(vs[0]!.path).maxBytesPerUser;
    if (cap > 0) for (const id of overBudget(vs, cap)) drop.add(id);
  }
  left = left.filter((v) => !drop.has(v.id));
  const share = Math.min(100, Math.max(1, plan.maxFreeSharePercent));
  for (const id of overBudget(left, Math.floor((plan.freeBytes * share) / 100))) drop.add(id);
  return drop;
}

function groupBy<T>(xs: readonly T[], key: (x: T) => string): Map<string, T[]> {
  const m = new Map<string, T[]>();
  for (const x of xs) {
    const k = key(x);
    const list = m.get(k);
    if (list) list.push(x);
    else m.set(k, [x]);
  }
  return m;
}
