// Ranking and highlighting of search results on the client: the server streams hits in walk (or index) order,
// the overlay shows the best match first. Pure functions, so they are unit-tested without a browser.

/** What the client needs of a query: the words matched against names (`type:`/`case:` filters removed). */
export interface QueryTerms {
  terms: string[];
  caseSensitive: boolean;
}

/** Same syntax as the server's parseQuery (search.service.ts): a "quoted phrase" is one term, else words. */
export function queryTerms(raw: string): QueryTerms {
  const caseSensitive = /(^|\s)case:sensitive(\s|$)/.test(raw);
  let text = raw.replace(/(^|\s)case:(in)?sensitive(?=\s|$)/g, ' ').replace(/(^|\s)type:\S+/g, ' ').trim();
  if (!caseSensitive) text = text.toLowerCase();
  const terms = text.length >= 2 && text.startsWith('"') && text.endsWith('"') ? [text.slice(1, -1)] : text.split(/\s+/).filter(Boolean);
  return { terms, caseSensitive };
}

const baseName = (path: string) => path.slice(path.lastIndexOf('/') + 1);

/**
 * A hit's rank key, smaller is better: how the name matches (exact name, then name starting with a term, then
 * containing one, then a match only in a folder of its path), then depth (shallower first), then name length.
 */
export function rankKey(path: string, q: QueryTerms): [number, number, number] {
  const raw = baseName(path);
  const name = q.caseSensitive ? raw : raw.toLowerCase();
  const stem = name.replace(/\.[^.]*$/, '');
  let tier = 4;
  for (const t of q.terms) {
    if (name === t || stem === t) tier = Math.min(tier, 0);
    else if (name.startsWith(t)) tier = Math.min(tier, 1);
    else if (name.includes(t)) tier = Math.min(tier, 2);
    else tier = Math.min(tier, 3);
  }
  if (!q.terms.length) tier = 0;
  return [tier, path.split('/').length, raw.length];
}

/**
 * A path's natural key, the listings' name order: lower case, each digit run without its leading zeros and padded
 * to 20 digits, so plain string order is natural order ("f9" before "f10"). Ties of rank are ordered by it: a
 * collator's compare (localeCompare with `numeric`) took most of the time of ranking 250,000 hits.
 */
export function naturalKey(path: string): string {
  return path.toLowerCase().replace(/\d+/g, (run) => run.replace(/^0+(?=\d)/, '').padStart(20, '0'));
}

/** A hit with its rank key (as one number: rankNumber) and natural key, computed once when it arrives. */
export interface RankedHit<T> {
  hit: T;
  rank: number;
  natural: string;
}

/** rankKey's three parts as one number in the same order (each part below 2^20: a path or name is far shorter). */
const rankNumber = ([tier, depth, length]: [number, number, number]) => tier * 2 ** 40 + Math.min(depth, 2 ** 20 - 1) * 2 ** 20 + Math.min(length, 2 ** 20 - 1);

function compareRanked<T extends { path: string }>(a: RankedHit<T>, b: RankedHit<T>): number {
  return a.rank - b.rank || (a.natural < b.natural ? -1 : a.natural > b.natural ? 1 : a.hit.path < b.hit.path ? -1 : a.hit.path > b.hit.path ? 1 : 0);
}

/** Hits with their keys, best first; ties in natural path order, so the list is stable as more results arrive. */
export function rankedHits<T extends { path: string }>(hits: T[], q: QueryTerms): RankedHit<T>[] {
  return hits.map((hit) => ({ hit, rank: rankNumber(rankKey(hit.path, q)), natural: naturalKey(hit.path) })).sort(compareRanked);
}

/** A merge of two runs done in steps: `out[0, k)` holds the best of both so far, `a[i…]` and `b[j…]` the rest. */
interface PendingMerge<T> {
  a: RankedHit<T>[];
  b: RankedHit<T>[];
  out: RankedHit<T>[];
  i: number;
  j: number;
  k: number;
}

const startMerge = <T>(a: RankedHit<T>[], b: RankedHit<T>[]): PendingMerge<T> => ({ a, b, out: new Array<RankedHit<T>>(a.length + b.length), i: 0, j: 0, k: 0 });

/** Up to `steps` more steps of a merge (on ties `a` first); whether it is complete. */
function stepMerge<T extends { path: string }>(m: PendingMerge<T>, steps: number): boolean {
  const { a, b, out } = m;
  let { i, j, k } = m;
  const stop = Math.min(out.length, k + steps);
  while (k < stop && i < a.length && j < b.length) out[k++] = compareRanked(b[j]!, a[i]!) < 0 ? b[j++]! : a[i++]!;
  while (k < stop && i < a.length) out[k++] = a[i++]!;
  while (k < stop && j < b.length) out[k++] = b[j++]!;
  Object.assign(m, { i, j, k });
  return k === out.length;
}

/** Two ranked lists as one, in one pass. */
export function mergeRanked<T extends { path: string }>(a: RankedHit<T>[], b: RankedHit<T>[]): RankedHit<T>[] {
  if (!a.length) return b;
  if (!b.length) return a;
  const m = startMerge(a, b);
  stepMerge(m, m.out.length);
  return m.out;
}

/** A merge of at most this many hits is done at once (~2 ms); a bigger one is spread over the batches that follow. */
const MERGE_AT_ONCE = 8_192;
/**
 * Merge steps done per added batch (~1,500 hits) for a merge in progress (~3 ms). Fewer than ~log2(n) merges of each
 * hit need at 250,000 hits: the merges then lag and more runs are kept, which only costs reading the best (a
 * comparison per run for each hit shown).
 */
const MERGE_STEPS = 12_288;

/**
 * A search's hits ranked as they stream in. Each batch is ranked alone, as a run; runs are merged pairwise when the
 * newer one has grown to half the older one's size, so there are never more than ~log2(n) of them and each hit is
 * merged ~log2(n) times in all. A big merge (more than MERGE_AT_ONCE hits) advances by MERGE_STEPS per batch, so
 * no batch holds the page for long (merging 32,768 hits at once took ~40 ms in Chromium; at 250,000 the last merges
 * were the page's longest tasks). The best
 * `n` are read by merging the heads of the runs, a merge in progress counting as its three sorted parts. Re-sorting
 * everything received on every batch froze the page for 2.5 s at a time with 83,590 hits.
 */
export class RankedRuns<T extends { path: string }> {
  /** Longest first. */
  private runs: RankedHit<T>[][] = [];
  private pending: PendingMerge<T> | null = null;
  private count = 0;

  /** `limits` are for tests: merges of at most `atOnce` hits are done at once, others advance `steps` per batch. */
  constructor(
    private readonly q: QueryTerms,
    private readonly limits = { atOnce: MERGE_AT_ONCE, steps: MERGE_STEPS },
  ) {}

  get size(): number {
    return this.count;
  }

  add(hits: T[]): void {
    if (!hits.length) return;
    this.count += hits.length;
    this.place(rankedHits(hits, this.q));
    this.advance(this.limits.steps);
  }

  /** Adds a run where its length belongs, merging it with the run before while that one is at most twice as long. */
  private place(run: RankedHit<T>[]): void {
    const r = this.runs;
    let at = r.length;
    while (at > 0 && r[at - 1]!.length < run.length) at--;
    r.splice(at, 0, run);
    for (let k = r.length - 1; k > 0; k--) {
      if (r[k - 1]!.length > 2 * r[k]!.length) continue;
      if (r[k - 1]!.length + r[k]!.length <= this.limits.atOnce) {
        const [a, b] = r.splice(k - 1, 2);
        return this.place(mergeRanked(a!, b!));
      }
      if (!this.pending) {
        const [a, b] = r.splice(k - 1, 2);
        this.pending = startMerge(a!, b!);
        return;
      }
    }
  }

  /** Up to `steps` steps of the merge in progress; a finished merge takes its place among the runs. */
  private advance(steps: number): void {
    const m = this.pending;
    if (!m || !stepMerge(m, steps)) return;
    this.pending = null;
    this.place(m.out);
  }

  /** The best `n` hits, best first. */
  head(n: number): T[] {
    const m = this.pending;
    // Each part is [items, next, end]: the runs, and a merge in progress as what it has merged and both remainders.
    const parts: [RankedHit<T>[], number, number][] = this.runs.map((r) => [r, 0, r.length]);
    if (m) parts.push([m.out, 0, m.k], [m.a, m.i, m.a.length], [m.b, m.j, m.b.length]);
    const out: T[] = [];
    while (out.length < n) {
      let best: [RankedHit<T>[], number, number] | null = null;
      for (const p of parts) if (p[1] < p[2] && (!best || compareRanked(p[0][p[1]]!, best[0][best[1]]!) < 0)) best = p;
      if (!best) break;
      out.push(best[0][best[1]++]!.hit);
    }
    return out;
  }
}

/** Sorts hits best first (rankedHits without the keys). */
export function rankHits<T extends { path: string }>(hits: T[], q: QueryTerms): T[] {
  return rankedHits(hits, q).map((r) => r.hit);
}

/** One piece of a highlighted text: `mark` pieces matched a term. */
export interface TextPart {
  text: string;
  mark: boolean;
}

/** Lower case, unit by unit, keeping the length (so match offsets are offsets in the original text). */
function foldSameLength(text: string): string {
  const lower = text.toLowerCase();
  if (lower.length === text.length) return lower;
  let out = '';
  for (const c of text.split('')) {
    const l = c.toLowerCase();
    out += l.length === 1 ? l : c;
  }
  return out;
}

/** Splits `text` into matched and unmatched parts (every occurrence of every term; overlaps merged). */
export function highlightParts(text: string, q: QueryTerms): TextPart[] {
  const hay = q.caseSensitive ? text : foldSameLength(text);
  const marked = new Array<boolean>(text.length).fill(false);
  for (const t of q.terms) {
    if (!t) continue;
    for (let i = hay.indexOf(t); i >= 0; i = hay.indexOf(t, i + 1)) marked.fill(true, i, i + t.length);
  }
  const parts: TextPart[] = [];
  for (let i = 0; i < text.length; ) {
    let j = i;
    while (j < text.length && marked[j] === marked[i]) j++;
    parts.push({ text: text.slice(i, j), mark: marked[i] ?? false });
    i = j;
  }
  return parts;
}
