/** Which rendered view a file gets before (or instead of) the editor; the name decides. */
export type DocumentKind = 'markdown' | 'delimited' | 'json';

/** Rendered views for text files: Markdown, CSV/TSV and JSON; anything else is the read-only code view. */
export function documentKind(name: string): DocumentKind | null {
  if (/\.(md|markdown|mdown|mkd)$/i.test(name)) return 'markdown';
  if (/\.(csv|tsv|tab)$/i.test(name)) return 'delimited';
  if (/\.(json|geojson|webmanifest)$/i.test(name)) return 'json';
  return null;
}

export const isEpub = (name: string) => /\.epub$/i.test(name);
export const isDelimited = (name: string) => documentKind(name) === 'delimited';
/** TSV (and .tab) are split on tabs; CSV on what papaparse detects (comma, semicolon...). */
export const delimiterFor = (name: string) => (/\.(tsv|tab)$/i.test(name) ? '\t' : '');
