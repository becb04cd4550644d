import { request } from './client';
import { pageConfig } from './page-config';
import { encodePath } from './resources';
import { timeSlices } from './yield-to-browser';

/** Text parsed and ranked at most in one go (characters): some 1,500 results. */
const PIECE = 64 * 1024;

/** The thumbnail of a found image (decoded absolute path); the session's auth cookie authorises the GET. */
export function hitThumbUrl(path: string): string {
  return `${pageConfig.BaseURL}/api/preview/thumb${encodePath(path)}?inline=true`;
}

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
 * How far the server's name index is built, in percent, when the answer says it is still building
 * (`X-Search-Source: walk; building=N`); null otherwise (index ready, or no index).
 */
export function indexBuilding(res: Response): number | null {
  const m = /(?:^|;)\s*building=(\d{1,3})\b/.exec(res.headers.get('X-Search-Source') ?? '');
  return m ? Math.min(100, Number(m[1])) : null;
}

/**
 * GET /api/search{base}?query=: newline-delimited JSON read as it streams in; `onHits` gets each batch as it
 * arrives, `onStart` the answer's headers first. Resolves when the server has finished; rejects with an
 * AbortError when `signal` aborts.
 */
export async function streamSearch(base: string, query: string, signal: AbortSignal, onHits: (hits: SearchHit[]) => void, onStart?: (res: Response) => void): Promise<void> {
  const res = await request(`/search${encodePath(base)}?query=${encodeURIComponent(query)}`, { signal });
  onStart?.(res);
  if (!res.body) {
    onHits((await res.text()).split('\n').flatMap((l) => parseLine(l) ?? []));
    return;
  }
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let rest = '';
  const slice = timeSlices();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      // Chunks already received resolve the next read at once: without a yield, a fast stream of a broad query
      // (250,000 results) was parsed and ranked in one task of 300+ ms. A piece at a time, with a yield to the
      // browser whenever a slice of work is used up.
      const text = decoder.decode(value, { stream: true });
      for (let at = 0; at < text.length; at += PIECE) {
        // A newer search aborts this one: the rest of what was received is not parsed (a chunk can hold megabytes,
        // whose parsing held up the newer search's first results).
        signal.throwIfAborted();
        rest += text.slice(at, at + PIECE);
        const cut = rest.lastIndexOf('\n');
        if (cut < 0) continue;
        const batch = rest.slice(0, cut).split('\n').flatMap((l) => parseLine(l) ?? []);
        rest = rest.slice(cut + 1);
        if (batch.length) onHits(batch);
        await slice();
      }
    }
    const last = parseLine(rest + decoder.decode());
    if (last) onHits([last]);
  } finally {
    reader.releaseLock();
  }
}
