import { below as belowPath, type NameIndexStore, type StoredRow } from '../../db/name-index.store';
import { isStatePath } from '../../fs/state-paths';
import { indexPath } from '../../fs/index-walk';
import { joinVirtual } from '../../fs/virtual-path';
import { invalid } from '../../core/errors';
import type { Actor } from '../actor';
import { authorizePath, visible } from '../policy/file-policy';
import { nameMatches, parseQuery, search, SEARCH_TIME_LIMIT_MS, typeMatches, type SearchHit, type SearchQuery } from '../search/search.service';
import type { FairSlots } from '../work/fair-slots';
import { searchSlots } from '../work/work-limits';
import type { NameIndex } from './name-index.service';

/** Candidates read per query: small enough that one query never holds the event loop long. */
const PAGE = 500;
/** Up to this many candidates are read in one query and ranked in memory. */
const FEW = 2000;
/**
 * A depth holding at most this many entries (in the whole tree) is read whole, a page at a time, and its names
 * tested here, rather than through the trigram index: finding the few names of a shallow depth there meant reading
 * every match of the query (a query matching 45,000 names: ~70 ms per depth, before the first result).
 */
const SMALL_DEPTH = 20_000;
/**
 * A folder searched that holds at most this many entries (all depths) is read whole by its path range and matched
 * here: a user with a few files under a root of 300,000 pays for those few, not for every name of the index that
 * matches the query. Past it, the reads so far are dropped and the trigram plan below runs.
 */
const SMALL_SUBTREE = 5_000;

/** The gate's slots of each server (its name index stands for it): one set per process in production, per test app in tests. */
const gates = new WeakMap<NameIndex, FairSlots>();
export function searchGate(index: NameIndex | null): FairSlots {
  if (!index) return searchSlots();
  let g = gates.get(index);
  if (!g) gates.set(index, (g = searchSlots(true)));
  return g;
}

/** Index rows read by searches since start (tests assert on it: what a search costs, not how long it took). */
let rowsRead = 0;
export const searchCounters = () => ({ rowsRead });

const tick = () => new Promise<void>((r) => setImmediate(r));

export interface SearchRun {
  hits: AsyncGenerator<SearchHit>;
  /** Where the results come from: the index, or a walk of the folder while the index is building (or off). */
  source: 'index' | 'walk';
  /** While building: how far, 0–100. */
  percent?: number;
}

/**
 * A search, from the name index when it is ready, else by today's walk (search.service.ts). Either way the same
 * policy applies to every result: the SQL is confined to the real location of the folder searched (inside the
 * user's scope), and each hit passes `visible` (rules, dotfiles) exactly as the walk's hits do, so one index
 * serves every user without leaking names across scopes or rules.
 */
export async function searchAny(index: NameIndex | null, actor: Actor, base: string, raw: string, signal?: AbortSignal): Promise<SearchRun> {
  const user = String(actor.user?.id ?? 'public');
  if (index?.ready()) {
    authorizePath(actor, 'read', base);
    const { stats, real } = await actor.fs.stat(base); // 404 before anything is streamed
    if (!stats.isDirectory()) throw invalid('search needs a folder');
    const at = indexPath(index.root, real);
    if (at !== null) {
      const baseAt = actor.fs.realPathOf(base, real);
      return { hits: gated(searchGate(index), user, signal, (s) => fromIndex(index.reader(), actor, base, at, parseQuery(raw), s, baseAt)), source: 'index' };
    }
  }
  const st = index?.status();
  return { hits: gated(searchGate(index), user, signal, (s) => search(actor, base, raw, s)), source: 'walk', percent: st?.state === 'building' ? st.percent : undefined };
}

/**
 * A search under the heavy-work gate (work-limits.ts searchSlots: global and per-user slots, a bounded wait ending
 * in a 429 at the first result asked for, before any response). The slot is held until the search ends, its
 * client goes away, or SEARCH_TIME_LIMIT_MS passed (then it stops at its next chunk), whichever is first.
 */
async function* gated(slots: FairSlots, user: string, signal: AbortSignal | undefined, run: (signal: AbortSignal) => AsyncGenerator<SearchHit>): AsyncGenerator<SearchHit> {
  const release = await slots.acquire(user, signal);
  const stop = new AbortController();
  const end = () => {
    stop.abort();
    release();
  };
  const timer = setTimeout(end, SEARCH_TIME_LIMIT_MS);
  if (signal?.aborted) end();
  signal?.addEventListener('abort', end, { once: true });
  try {
    yield* run(stop.signal);
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', end);
    release();
  }
}

/**
 * Ranked: names that match, shallower first (depth by depth, each depth in index order), then entries below
 * folders whose name matched (folder by folder, shallower folders first), each reported once.
 */
async function* fromIndex(store: NameIndexStore, actor: Actor, base: string, at: string, q: SearchQuery, signal?: AbortSignal, baseAt?: string): AsyncGenerator<SearchHit> {
  const [lo, hi] = belowPath(at);
  const cut = at === '/' ? 1 : at.length + 1;
  const hideDot = !!actor.user?.hideDotfiles;
  // The walk never enters hidden folders, so below the folder searched no component may be hidden.
  // `baseAt`: where the folder searched really is, when reached through a link (the rules hold there too).
  // The server's state files (a database or cache inside the root) are no one's: fs/state-paths.ts.
  const shown = (rel: string) => !(hideDot && rel.split('/').some((c) => c.startsWith('.'))) && visible(actor, joinVirtual(base, rel), baseAt === undefined ? undefined : joinVirtual(baseAt, rel)) && !isStatePath(actor.fs.root + joinVirtual(base, rel));
  const top = at === '/' ? 0 : at.split('/').length - 1;
  const deepest = store.maxDepth();
  const hit = (r: StoredRow): SearchHit | null => {
    const rel = r.path.slice(cut);
    return nameMatches(q, r.name) && shown(rel) && typeMatches(r.name, r.isDir, q.types) ? { dir: r.isDir, path: rel } : null;
  };
  // A small subtree: read whole, a page at a time, and ranked here (see SMALL_SUBTREE).
  const rows: StoredRow[] = [];
  for (let last = ''; rows.length <= SMALL_SUBTREE; ) {
    if (signal?.aborted) return;
    const page = store.subtree(lo, hi, last, PAGE);
    rowsRead += page.length;
    rows.push(...page);
    if (page.length < PAGE) {
      yield* rankSubtree(rows, q, hit, (r) => shown(r.path.slice(cut)) && typeMatches(r.name, r.isDir, q.types), cut);
      return;
    }
    last = page[page.length - 1]!.path;
    await tick();
  }
  rows.length = 0;
  // The terms a depth's candidates are asked with: none for a small depth (every entry there is a candidate; hit()
  // and below() test the names exactly, as they test every candidate).
  const termsAt = (depth: number) => (store.depthSize(depth, SMALL_DEPTH) <= SMALL_DEPTH ? [] : q.terms);
  // Few matches (the usual case): one query, ranked here. Many: depth by depth, a page at a time.
  const few = store.candidates({ terms: q.terms, types: q.types, lo, hi, afterId: 0, limit: FEW + 1 });
  rowsRead += few.length;
  let matchedDirs: StoredRow[] | null = null;
  if (few.length <= FEW) {
    few.sort((a, b) => a.depth - b.depth || a.id - b.id);
    for (const r of few) {
      const h = hit(r);
      if (h) yield h;
    }
    if (!q.types.length) matchedDirs = few.filter((r) => r.isDir);
  } else
    for (let depth = top + 1; depth <= deepest; depth++) {
      const terms = termsAt(depth);
      for (let after = 0; ; ) {
        if (signal?.aborted) return;
        const page = store.candidates({ terms, types: q.types, lo, hi, depth, afterId: after, limit: PAGE });
        rowsRead += page.length;
        for (const r of page) {
          after = r.id;
          const h = hit(r);
          if (h) yield h;
        }
        if (page.length < PAGE) break;
        await tick();
      }
    }
  if (!q.terms.length) return;
  // Path matches: what lies below a folder whose name matched (not already reported as a name match).
  const done: string[] = [];
  async function* below(d: StoredRow): AsyncGenerator<SearchHit> {
    if (!nameMatches(q, d.name) || done.some((p) => d.path.startsWith(`${p}/`))) return;
    done.push(d.path);
    const [dlo, dhi] = belowPath(d.path);
    for (let last = ''; ; ) {
      if (signal?.aborted) return;
      const rows = store.subtree(dlo, dhi, last, PAGE);
      rowsRead += rows.length;
      for (const r of rows) {
        last = r.path;
        if (nameMatches(q, r.name)) continue; // reported (or refused) above
        const rel = r.path.slice(cut);
        if (shown(rel) && typeMatches(r.name, r.isDir, q.types)) yield { dir: r.isDir, path: rel };
      }
      if (rows.length < PAGE) break;
      await tick();
    }
  }
  if (matchedDirs) {
    for (const d of matchedDirs) yield* below(d);
    return;
  }
  for (let depth = top + 1; depth < deepest; depth++) {
    const terms = termsAt(depth);
    for (let after = 0; ; ) {
      if (signal?.aborted) return;
      const dirs = store.candidates({ terms, types: [], lo, hi, depth, afterId: after, limit: PAGE, dirsOnly: true });
      rowsRead += dirs.length;
      for (const d of dirs) {
        after = d.id;
        yield* below(d);
      }
      if (dirs.length < PAGE) break;
      await tick();
    }
  }
}

/**
 * The ranking of fromIndex over a subtree read whole (`rows`, in path order): names that match, shallower first
 * (in path order within a depth), then the entries below each folder whose name matched, folder by folder
 * (shallower first), each entry under the outermost such folder only, and never one already reported by name.
 */
function* rankSubtree(rows: StoredRow[], q: SearchQuery, hit: (r: StoredRow) => SearchHit | null, shownEntry: (r: StoredRow) => boolean, cut: number): Generator<SearchHit> {
  const named = rows.filter((r) => nameMatches(q, r.name));
  // A stable sort: path order is kept within a depth.
  for (const r of [...named].sort((a, b) => a.depth - b.depth)) {
    const h = hit(r);
    if (h) yield h;
  }
  if (!q.terms.length) return;
  const folders = new Set(named.filter((r) => r.isDir).map((r) => r.path));
  if (!folders.size) return;
  // Each entry below a matching folder, by its outermost matching ancestor inside the folder searched.
  const byOwner = new Map<string, StoredRow[]>();
  for (const r of rows) {
    if (nameMatches(q, r.name)) continue;
    for (let i = r.path.indexOf('/', cut); i > 0; i = r.path.indexOf('/', i + 1)) {
      const owner = r.path.slice(0, i);
      if (!folders.has(owner)) continue;
      if (shownEntry(r)) {
        const list = byOwner.get(owner);
        if (list) list.push(r);
        else byOwner.set(owner, [r]);
      }
      break;
    }
  }
  const owners = [...byOwner.keys()].sort((a, b) => a.split('/').length - b.split('/').length || (a < b ? -1 : a > b ? 1 : 0));
  for (const o of owners) for (const r of byOwner.get(o)!) yield { dir: r.isDir, path: r.path.slice(cut) };
}
