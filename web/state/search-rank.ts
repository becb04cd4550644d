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

/** A hit with its rank key and natural key, computed once when it arrives. */
export interface RankedHit<T> {
  hit: T;
  key: [number, number, number];
  natural: string;
}

function compareRanked<T extends { path: string }>(a: RankedHit<T>, b: RankedHit<T>): number {
  return (
    a.key[0] - b.key[0] ||
    a.key[1] - b.key[1] ||
    a.key[2] - b.key[2] ||
    (a.natural < b.natural ? -1 : a.natural > b.natural ? 1 : a.hit.path < b.hit.path ? -1 : a.hit.path > b.hit.path ? 1 : 0)
  );
}

/** Hits with their keys, best first; ties in natural path order, so the list is stable as more results arrive. */
export function rankedHits<T extends { path: string }>(hits: T[], q: QueryTerms): RankedHit<T>[] {
  return hits.map((hit) => ({ hit, key: rankKey(hit.path, q), natural: naturalKey(hit.path) })).sort(compareRanked);
}

/** Two ranked lists as one, in one pass. */
export function mergeRanked<T extends { path: string }>(a: RankedHit<T>[], b: RankedHit<T>[]): RankedHit<T>[] {
  if (!a.length) return b;
  if (!b.length) return a;
  const out = new Array<RankedHit<T>>(a.length + b.length);
  let i = 0;
  let j = 0;
  let k = 0;
  while (i < a.length && j < b.length) out[k++] = compareRanked(b[j]!, a[i]!) < 0 ? b[j++]! : a[i++]!;
  while (i < a.length) out[k++] = a[i++]!;
  while (j < b.length) out[k++] = b[j++]!;
  return out;
}

/**
 * A search's hits ranked as they stream in. Each batch is ranked alone, as a run; runs are merged pairwise when the
 * newer one has grown to half the older one's size, so there are never more than ~log2(n) of them and each hit is
 * merged ~log2(n) times in all. The best `n` are read by merging the runs' heads only. Re-sorting everything
 * received on every batch froze the page for 2.5 s at a time with 83,590 hits; a merge of everything per batch
 * still took half a second at 250,000.
 */
export class RankedRuns<T extends { path: string }> {
  private runs: RankedHit<T>[][] = [];
  private count = 0;

  constructor(private readonly q: QueryTerms) {}

  get size(): number {
    return this.count;
  }

  add(hits: T[]): void {
    if (!hits.length) return;
    this.runs.push(rankedHits(hits, this.q));
    this.count += hits.length;
    const r = this.runs;
    while (r.length > 1 && r[r.length - 2]!.length <= 2 * r[r.length - 1]!.length) {
      const b = r.pop()!;
      r.push(mergeRanked(r.pop()!, b));
    }
  }

  /** The best `n` hits, best first. */
  head(n: number): T[] {
    const at = this.runs.map(() => 0);
    const out: T[] = [];
    while (out.length < n) {
      let best = -1;
      for (let i = 0; i < this.runs.length; i++) {
        const x = this.runs[i]![at[i]!];
        if (x && (best < 0 || compareRanked(x, this.runs[best]![at[best]!]!) < 0)) best = i;
      }
      if (best < 0) break;
      out.push(this.runs[best]![at[best]!++]!.hit);
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
