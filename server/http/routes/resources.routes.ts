import { Elysia } from 'elysia';
import type { Services } from '../../services/services';
import { copyOrMove, etagOf, save, upload } from '../../services/files/files-write';
import type { Actor } from '../../services/actor';
import { json } from '../body';
import type { AuthPlugin } from '../plugins/auth.plugin';
import { jsonArrayStream } from '../json-stream';
import { listingResponse } from '../listing-json';
import { parsePage } from '../../services/files/folder-listing';
import { decodeDestination, pathAfter } from '../request-path';
import { textResponse } from '../plugins/error.plugin';
import { download } from '../download';

const flag = (v: string | null) => v === 'true' || v === '1';
/** What a URL without "?" holds (read, never changed). */
const NO_QUERY: Pick<URLSearchParams, 'get'> = new URLSearchParams();

type Ctx = { request: Request; actor: Actor };

/** Resources API (spec §7, reference §4): read, upload, save, delete, copy and move. */
export function resourcesRoutes(s: Services, auth: AuthPlugin) {
  const base = s.config.baseURL;
  const P = `${base}/api/resources`;

  const tree = (request: Request, actor: Actor, prefix: string) => {
    const path = pathAfter(request, prefix).path;
    const gen = s.files.recursive(actor, path, request.signal);
    // Pull the first entry before answering, so a missing or non-folder path is a proper 404/400.
    return gen.next().then((first) => {
      async function* all() {
        if (!first.done) yield first.value;
        yield* gen;
      }
      return new Response(jsonArrayStream(all(), (e) => ({ path: e.path, name: e.name, isDir: e.isDir })), {
        headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-cache, no-store, must-revalidate' },
      });
    });
  };
  /**
   * The reference's `/api/resources/recursive/{path}` tree route shadows a folder named `recursive` at the scope
   * root. Here the folder wins when the caller can see one (a normal listing, as for any other name); otherwise the
   * route keeps the reference's meaning for its client. Our web app asks `/api/tree/{path}`, which shadows nothing.
   */
  const recursiveOrFolder = async (ctx: Ctx) => {
    if (ctx.actor.allows('/recursive') && (await ctx.actor.fs.stat('/recursive').then(() => true, () => false))) return get(ctx);
    return tree(ctx.request, ctx.actor, `${P}/recursive`);
  };
  /**
   * `X-Encoding: true` is the reference client's CSV viewer: a text file answers with its raw bytes, for the client
   * to decode in the charset the user picks; folders and other files keep the JSON. The bytes go out through
   * download(), so the download decision stays with the file policy.
   */
  const get = async ({ request, actor }: Ctx) => {
    const q = request.url.includes('?') ? new URL(request.url).searchParams : NO_QUERY;
    const checksum = q.get('checksum') ?? undefined;
    const { path, dir } = pathAfter(request, P);
    const bytes = checksum === undefined && request.headers.get('x-encoding') === 'true';
    const page = parsePage(q.get('offset'), q.get('limit'));
    // Clients ask folders with a trailing slash: without one, the path is taken for a file first (a folder still lists).
    // The abort signal only serves a checksum (hashing stops when the client leaves); asking a Request for it costs.
    const signal = checksum === undefined ? undefined : request.signal;
    const { res, listing } = await s.files.open(actor, path, { checksum, content: !bytes, signal, folder: dir });
    // Folders stream (no whole listing in memory); without offset/limit the reference's client gets every item.
    if (listing) return listingResponse(res, listing, page);
    if (bytes && (res.type === 'text' || res.type === 'textImmutable')) return download(request, actor, path);
    return json(res);
  };
  const post = async ({ request, actor }: Ctx) => {
    const { path, dir } = pathAfter(request, P);
    const st = await upload(s.files, actor, path, dir, request.body, flag(new URL(request.url).searchParams.get('override')));
    return textResponse(200, undefined, st ? { ETag: etagOf(st) } : {});
  };
  const put = async ({ request, actor }: Ctx) => {
    const { path, dir } = pathAfter(request, P);
    const st = await save(s.files, actor, path, dir, request.body);
    return textResponse(200, undefined, { ETag: etagOf(st) });
  };
  /** Into the trash when it is on for the user (the answer names the item, for an undo); `?permanent=true` or `X-Permanent: true` deletes for good. */
  const del = async ({ request, actor }: Ctx) => {
    const permanent = flag(new URL(request.url).searchParams.get('permanent')) || flag(request.headers.get('x-permanent'));
    const item = await s.trash.delete(actor, pathAfter(request, P).path, { permanent });
    return new Response(null, { status: 204, headers: item ? { 'X-Trash-Id': item.id } : {} });
  };
  const patch = async ({ request, actor }: Ctx) => {
    const q = new URL(request.url).searchParams;
    const src = pathAfter(request, P).path;
    const dst = decodeDestination(q.get('destination'));
    await copyOrMove(s.files, actor, q.get('action') ?? '', src, dst, { override: flag(q.get('override')), rename: flag(q.get('rename')) });
    return textResponse(200);
  };
  const usage = async ({ request, actor }: Ctx) => json(await s.files.usage(actor, pathAfter(request, `${base}/api/usage`).path));

  return new Elysia()
    .use(auth)
    .get('/api/resources/recursive', recursiveOrFolder, { auth: 'user' })
    .get('/api/resources/recursive/*', recursiveOrFolder, { auth: 'user' })
    .get('/api/tree', ({ request, actor }: Ctx) => tree(request, actor, `${base}/api/tree`), { auth: 'user' })
    .get('/api/tree/*', ({ request, actor }: Ctx) => tree(request, actor, `${base}/api/tree`), { auth: 'user' })
    .get('/api/resources', get, { auth: 'user' })
    .get('/api/resources/*', get, { auth: 'user' })
    .post('/api/resources/*', post, { auth: 'user', parse: 'none' })
    .put('/api/resources/*', put, { auth: 'user', parse: 'none' })
    .delete('/api/resources/*', del, { auth: 'user', parse: 'none' })
    .patch('/api/resources/*', patch, { auth: 'user', parse: 'none' })
    .get('/api/usage', usage, { auth: 'user' })
    .get('/api/usage/*', usage, { auth: 'user' });
}
