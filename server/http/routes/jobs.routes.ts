import { Elysia } from 'elysia';
import type { Job } from '../../contract/job';
import type { Actor } from '../../services/actor';
import type { Services } from '../../services/services';
import { invalid } from '../../core/errors';
import { json, readJsonObject } from '../body';
import type { AuthPlugin } from '../plugins/auth.plugin';

type Ctx = { request: Request; actor: Actor };
type IdCtx = Ctx & { params: { id: string } };

/** An events stream lives this long, then ends: the browser's EventSource reconnects, and the session is checked again. */
const STREAM_MS = 15 * 60_000;
const KEEPALIVE_MS = 15_000;

/**
 * Server-sent events of the caller's jobs: first every job as it is now, then each change (progress at most four
 * times a second). The web app's `auth` cookie authenticates it (EventSource sends no headers).
 */
function events(s: Services, request: Request, actor: Actor): Response {
  const enc = new TextEncoder();
  const mine = (j: Job) => j.owner === actor.user?.id;
  let stop = () => {};
  const stream = new ReadableStream<Uint8Array>({
    async start(c) {
      const send = (text: string) => {
        try {
          c.enqueue(enc.encode(text));
        } catch {
          stop();
        }
      };
      // Changes that happen while the first list is read wait for it: sent before it, a job's end could be
      // overwritten by an older snapshot that still says "running", and the panel would never see it end.
      let early: string[] | null = [];
      const unsubscribe = s.jobs.subscribe((j) => {
        if (!mine(j)) return;
        const text = `event: job\ndata: ${JSON.stringify(j)}\n\n`;
        if (early) early.push(text);
        else send(text);
      });
      const keepalive = setInterval(() => send(': keep-alive\n\n'), KEEPALIVE_MS);
      const end = setTimeout(() => stop(), STREAM_MS);
      stop = () => {
        unsubscribe();
        clearInterval(keepalive);
        clearTimeout(end);
        try {
          c.close();
        } catch {
          // already closed
        }
      };
      request.signal.addEventListener('abort', () => stop(), { once: true });
      send(`retry: 3000\nevent: jobs\ndata: ${JSON.stringify(await s.jobs.list(actor))}\n\n`);
      const waiting = early;
      early = null;
      for (const text of waiting) send(text);
    },
    cancel: () => stop(),
  });
  return new Response(stream, { headers: { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-cache, no-store', 'X-Accel-Buffering': 'no' } });
}

/** A page of GET /api/jobs when no limit is asked for (what the list always answered), and the most one page holds. */
const PAGE = 100;
const MAX_PAGE = 500;

/**
 * GET /api/jobs: the caller's jobs (everyone's for an admin with all=true), newest first, a page at a time:
 * `limit` (1-500, default 100) and `cursor` (the X-Next-Cursor of the page before, present while more may follow).
 * Long jobs show their first items with their count (itemCount), never every item.
 */
async function jobsPage(s: Services, request: Request, actor: Actor): Promise<Response> {
  const q = new URL(request.url).searchParams;
  const whole = (name: string, max: number) => {
    const v = q.get(name);
    if (v === null) return undefined;
    if (!/^\d{1,12}$/.test(v) || Number(v) < 1 || Number(v) > max) throw invalid(`${name} must be a whole number from 1 to ${max}`);
    return Number(v);
  };
  const limit = whole('limit', MAX_PAGE) ?? PAGE;
  const list = await s.jobs.list(actor, { all: q.get('all') === 'true', limit, before: whole('cursor', Number.MAX_SAFE_INTEGER) });
  return json(list, 200, list.length === limit ? { 'X-Next-Cursor': String(list.at(-1)!.id) } : {});
}

/** Background jobs: start, list, follow (SSE), cancel. */
export function jobsRoutes(s: Services, auth: AuthPlugin) {
  return new Elysia()
    .use(auth)
    .get('/api/jobs', ({ request, actor }: Ctx) => jobsPage(s, request, actor), { auth: 'user' })
    .get('/api/jobs/events', ({ request, actor }: Ctx) => events(s, request, actor), { auth: 'user' })
    .get('/api/jobs/:id', async ({ actor, params }: IdCtx) => json(await s.jobs.get(actor, Number(params.id))), { auth: 'user' })
    .post('/api/jobs', async ({ request, actor }: Ctx) => json(await s.jobs.start(actor, await readJsonObject(request, 4 * 1024 * 1024)), 202), { auth: 'user', parse: 'none' })
    .delete('/api/jobs/:id', async ({ actor, params }: IdCtx) => json(await s.jobs.cancel(actor, Number(params.id))), { auth: 'user', parse: 'none' });
}
