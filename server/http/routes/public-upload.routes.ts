import { Elysia } from 'elysia';
import type { Services } from '../../services/services';
import { json } from '../body';
import type { AuthPlugin } from '../plugins/auth.plugin';
import type { ClientIp } from '../client-ip';
import { hashAndPath, openShare, visitOf } from '../share-request';

const TUS = { 'Tus-Resumable': '1.0.0' };
const encode = (path: string) => path.split('/').map(encodeURIComponent).join('/');
const uploadKeyOf = (request: Request) => new URL(request.url).searchParams.get('upload');

/** A declared body length: a whole number, or null when the body is chunked (then limits apply as bytes arrive). */
function declaredLength(request: Request): number | null {
  const h = request.headers.get('content-length');
  return h !== null && /^\d{1,16}$/.test(h.trim()) ? Number(h.trim()) : null;
}

/**
 * File requests (decision 0051): visitors of an `upload`/`upload-view` link send files without an account, by a
 * plain POST or resumably (tus 1.0). The link is opened by `SharesService.open` (its actor may only `create`
 * inside the shared folder); `ShareUploads` applies the link's limits and stores through the owner's write path.
 */
export function publicUploadRoutes(s: Services, auth: AuthPlugin, ip: ClientIp) {
  const base = s.config.baseURL;
  const tusPrefix = '/api/public/tus';
  /** The link's name as the visitor wrote it (hash or slug), for the Location of a created upload. */
  const linkName = (request: Request) => hashAndPath(new URL(request.url), `${base}${tusPrefix}`).hash;
  const head = async ({ request, server }: { request: Request; server: unknown }) => {
    const ps = await openShare(s, request, tusPrefix, ip.client(request, server));
    const { offset, length } = await s.shareUploads.tusOffset(ps, ps.path, uploadKeyOf(request));
    return new Response(null, { headers: { ...TUS, 'Upload-Offset': String(offset), 'Upload-Length': String(length), 'Cache-Control': 'no-store' } });
  };
  return new Elysia()
    .use(auth)
    .post('/api/public/upload/*', async ({ request, server }) => {
      const visit = visitOf(request, server, ip);
      const ps = await openShare(s, request, '/api/public/upload', visit.address);
      const path = await s.shareUploads.upload(ps, ps.path, declaredLength(request), request.body, visit);
      return json({ path }, 201);
    }, { parse: 'none' })
    .options('/api/public/tus/*', () => new Response(null, { status: 204, headers: { ...TUS, 'Tus-Version': '1.0.0', 'Tus-Extension': 'creation,termination' } }))
    .post('/api/public/tus/*', async ({ request, server }) => {
      const visit = visitOf(request, server, ip);
      const ps = await openShare(s, request, tusPrefix, visit.address);
      const { path, key } = await s.shareUploads.tusCreate(ps, ps.path, request.headers.get('upload-length'), visit);
      // The key makes the upload the sender's own (HEAD, PATCH and DELETE find it by the key; without it, 404); the
      // path is the one the visitor may be told (an upload-only link's visitor never learns the stored name).
      const location = `${base}${tusPrefix}/${encodeURIComponent(linkName(request))}${encode(path)}${key ? `?upload=${key}` : ''}`;
      return new Response(null, { status: 201, headers: { ...TUS, Location: location, 'Access-Control-Expose-Headers': 'Location' } });
    }, { parse: 'none' })
    .head('/api/public/tus/*', head)
    .get('/api/public/tus/*', head)
    .patch('/api/public/tus/*', async ({ request, server }) => {
      const visit = visitOf(request, server, ip);
      const ps = await openShare(s, request, tusPrefix, visit.address);
      const offset = await s.shareUploads.tusAppend(ps, ps.path, uploadKeyOf(request), request.headers.get('upload-offset'), request.headers.get('content-type'), request.body, visit);
      return new Response(null, { status: 204, headers: { ...TUS, 'Upload-Offset': String(offset) } });
    }, { parse: 'none' })
    .delete('/api/public/tus/*', async ({ request, server }) => {
      const ps = await openShare(s, request, tusPrefix, ip.client(request, server));
      await s.shareUploads.tusCancel(ps, ps.path, uploadKeyOf(request));
      return new Response(null, { status: 204, headers: TUS });
    }, { parse: 'none' });
}
