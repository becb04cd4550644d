import { request } from './client';
import { encodePath } from './resources';

/**
 * Counts the entries under a folder from GET /api/tree/{path}, reading the stream only until `cap` is passed, then
 * aborting it: a huge tree costs the server a few hundred entries, never the whole walk. Each entry is one object with
 * a "path" key, so counting that key is counting entries (a name holding the text is JSON-escaped and cannot match).
 */
export async function countTree(path: string, cap: number): Promise<number> {
  const controller = new AbortController();
  const res = await request(`/tree${encodePath(path.replace(/\/$/, '') || '/')}`, { signal: controller.signal });
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let count = 0;
  let tail = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return count;
      // Keep the last few characters so a key split across two chunks is still counted once.
      const text = tail + value;
      count += text.split('{"path":').length - 1;
      tail = text.slice(-7);
      if (count > cap) return count;
    }
  } finally {
    controller.abort();
    reader.releaseLock();
  }
}
