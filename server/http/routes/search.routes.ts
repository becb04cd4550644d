import { Elysia } from 'elysia';
import type { Services } from '../../services/services';
import type { Actor } from '../../services/actor';
import { searchAny } from '../../services/index/index-search';
import type { AuthPlugin } from '../plugins/auth.plugin';
import { pathAfter } from '../request-path';

/**
 * GET /api/search/{path}?query=: newline-delimited JSON, one {"dir","path"} per line, sent as found (ranked when
 * from the name index). `X-Search-Source` says where results come from: `index`, or `walk` (with `; building=N`
 * while the index is being built, N in percent). The search stops when the client goes away.
 */
export function searchRoutes(s: Services, auth: AuthPlugin) {
  const P = `${s.config.baseURL}/api/search`;
  const handler = async ({ request, actor }: { request: Request; actor: Actor }) => {
    const path = pathAfter(request, P).path;
    const query = new URL(request.url).searchParams.get('query') ?? '';
    const ac = new AbortController();
    request.signal.addEventListener('abort', () => ac.abort());
    // From the name index when it is ready; else today's walk, and the header says the index is building.
    const run = await searchAny(s.index, actor, path, query, ac.signal);
    const hits = run.hits;
    const first = await hits.next(); // a bad path fails here, before the 200
    const enc = new TextEncoder();
    let pending = first.done ? null : first.value;
    let done = !!first.done;
    // Lines go out in chunks of up to 64 KB or 50 ms of searching; the first chunk stops at 16 KB (a screenful of
    // results, ~250 lines, within a connection's first TCP window), so a broad query shows its first page as soon
    // as it is found instead of when 64 KB are.
    let size = 16384;
    const stream = new ReadableStream<Uint8Array>({
      async pull(c) {
        if (done && !pending) return c.close();
        let out = '';
        const until = performance.now() + 50;
        if (pending) out += JSON.stringify(pending) + '\n';
        pending = null;
        const max = size;
        size = 65536;
        while (!done && out.length < max && performance.now() < until) {
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
    const source = run.source === 'index' ? 'index' : run.percent !== undefined ? `walk; building=${run.percent}` : 'walk';
    return new Response(stream, { headers: { 'X-Search-Source': source, 'Content-Type': 'application/x-ndjson; charset=utf-8', 'Cache-Control': 'no-cache, no-store, must-revalidate', 'X-Content-Type-Options': 'nosniff' } });
  };
  return new Elysia().use(auth).get('/api/search', handler, { auth: 'user' }).get('/api/search/*', handler, { auth: 'user' });
}
