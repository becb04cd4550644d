import { request } from './client';
import { encodePath } from './resources';

/** One match, relative to the folder searched (no leading slash). */
export interface SearchHit {
  dir: boolean;
  path: string;
}

function parseLine(line: string): SearchHit | null {
  if (!line.trim()) return null;
  try {
    const v = JSON.parse(line) as Partial<SearchHit>;
    return typeof v.path === 'string' ? { dir: !!v.dir, path: v.path } : null;
  } catch {
    return null;
  }
}

/**
 * GET /api/search{base}?query=: newline-delimited JSON read as it streams in; `onHits` gets each batch as it
 * arrives. Resolves when the server has finished; rejects with an AbortError when `signal` aborts.
 */
export async function streamSearch(base: string, query: string, signal: AbortSignal, onHits: (hits: SearchHit[]) => void): Promise<void> {
  const res = await request(`/search${encodePath(base)}?query=${encodeURIComponent(query)}`, { signal });
  if (!res.body) {
    onHits((await res.text()).split('\n').flatMap((l) => parseLine(l) ?? []));
    return;
  }
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let rest = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      rest += decoder.decode(value, { stream: true });
      const cut = rest.lastIndexOf('\n');
      if (cut < 0) continue;
      const batch = rest.slice(0, cut).split('\n').flatMap((l) => parseLine(l) ?? []);
      rest = rest.slice(cut + 1);
      if (batch.length) onHits(batch);
    }
    const last = parseLine(rest + decoder.decode());
    if (last) onHits([last]);
  } finally {
    reader.releaseLock();
  }
}
