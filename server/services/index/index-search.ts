import { below as belowPath, type NameIndexStore, type StoredRow } from '../../db/name-index.store';
import { indexPath } from '../../fs/index-walk';
import { joinVirtual } from '../../fs/virtual-path';
import { invalid } from '../../core/errors';
import type { Actor } from '../actor';
import { authorizePath, visible } from '../policy/file-policy';
import { nameMatches, parseQuery, search, typeMatches, type SearchHit, type SearchQuery } from '../search/search.service';
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
  if (index?.ready()) {
    authorizePath(actor, 'read', base);
    const { stats, real } = await actor.fs.stat(base); // 404 before anything is streamed
    if (!stats.isDirectory()) throw invalid('search needs a folder');
    const at = indexPath(index.root, real);
    if (at !== null) return { hits: fromIndex(index.reader(), actor, base, at, parseQuery(raw), signal, actor.fs.realPathOf(base, real)), source: 'index' };
  }
  const st = index?.status();
  return { hits: search(actor, base, raw, signal), source: 'walk', percent: st?.state === 'building' ? st.percent : undefined };
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
  const shown = (rel: string) => !(hideDot && rel.split('/').some((c) => c.startsWith('.'))) && visible(actor, joinVirtual(base, rel), baseAt === undefined ? undefined : joinVirtual(baseAt, rel));
  const top = at === '/' ? 0 : at.split('/').length - 1;
  const deepest = store.maxDepth();
  const hit = (r: StoredRow): SearchHit | null => {
    const rel = r.path.slice(cut);
    return nameMatches(q, r.name) && shown(rel) && typeMatches(r.name, r.isDir, q.types) ? { dir: r.isDir, path: rel } : null;
  };
  // The terms a depth's candidates are asked with: none for a small depth (every entry there is a candidate; hit()
  // and below() test the names exactly, as they test every candidate).
  const termsAt = (depth: number) => (store.depthSize(depth, SMALL_DEPTH) <= SMALL_DEPTH ? [] : q.terms);
  // Few matches (the usual case): one query, ranked here. Many: depth by depth, a page at a time.
  const few = store.candidates({ terms: q.terms, types: q.types, lo, hi, afterId: 0, limit: FEW + 1 });
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
      for (const d of dirs) {
        after = d.id;
        yield* below(d);
      }
      if (dirs.length < PAGE) break;
      await tick();
    }
  }
}
