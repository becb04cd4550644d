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

function compareKeys(a: [number, number, number], b: [number, number, number]): number {
  return a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
}

/** Sorts hits best first; ties keep natural name order so the list is stable as more results arrive. */
export function rankHits<T extends { path: string }>(hits: T[], q: QueryTerms): T[] {
  const keyed = hits.map((h) => ({ h, k: rankKey(h.path, q) }));
  keyed.sort((a, b) => compareKeys(a.k, b.k) || a.h.path.localeCompare(b.h.path, undefined, { numeric: true }));
  return keyed.map((x) => x.h);
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
