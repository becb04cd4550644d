import { Elysia } from 'elysia';
import type { Services } from '../../services/services';
import type { Actor } from '../../services/actor';
import { search } from '../../services/search/search.service';
import type { AuthPlugin } from '../plugins/auth.plugin';
import { pathAfter } from '../request-path';

/**
 * GET /api/search/{path}?query=: newline-delimited JSON, one {"dir","path"} per line, sent as found. The walk
 * stops when the client goes away.
 */
export function searchRoutes(s: Services, auth: AuthPlugin) {
  const P = `${s.config.baseURL}/api/search`;
  const handler = async ({ request, actor }: { request: Request; actor: Actor }) => {
    const path = pathAfter(request, P).path;
    const query = new URL(request.url).searchParams.get('query') ?? '';
    const ac = new AbortController();
    request.signal.addEventListener('abort', () => ac.abort());
    const hits = search(actor, path, query, ac.signal);
    const first = await hits.next(); // a bad path fails here, before the 200
    const enc = new TextEncoder();
    let pending = first.done ? null : first.value;
    let done = !!first.done;
    const stream = new ReadableStream<Uint8Array>({
      async pull(c) {
        if (done && !pending) return c.close();
        let out = '';
        const until = performance.now() + 50;
        if (pending) out += JSON.stringify(pending) + '\n';
        pending = null;
        while (!done && out.length < 65536 && performance.now() < until) {
          const r = await hits.next();
          if (r.done) done = true;
          else out += JSON.stringify(r.value) + '\n';
        }
        if (out) c.enqueue(enc.encode(out));
        if (done) c.close();
      },
      cancel() {
        ac.abort();
      },
    });
    return new Response(stream, { headers: { 'Content-Type': 'application/x-ndjson; charset=utf-8', 'Cache-Control': 'no-cache, no-store, must-revalidate', 'X-Content-Type-Options': 'nosniff' } });
  };
  return new Elysia().use(auth).get('/api/search', handler, { auth: 'user' }).get('/api/search/*', handler, { auth: 'user' });
}
