import { Elysia } from 'elysia';
import type { Services } from '../../services/services';
import type { Actor } from '../../services/actor';
import type { AuthPlugin } from '../plugins/auth.plugin';
import { textResponse } from '../plugins/error.plugin';
import { pathAfter } from '../request-path';

const TUS = { 'Tus-Resumable': '1.0.0' };
type Ctx = { request: Request; actor: Actor };

/** tus 1.0 resumable uploads at /api/tus/{path} (creation, HEAD, PATCH, termination). */
export function tusRoutes(s: Services, auth: AuthPlugin) {
  const base = s.config.baseURL;
  const P = `${base}/api/tus`;
  const encode = (path: string) => path.split('/').map(encodeURIComponent).join('/');
  const head = async ({ request, actor }: Ctx) => {
    const { offset, length } = await s.tus.offset(actor, pathAfter(request, P).path);
    return new Response(null, { headers: { ...TUS, 'Upload-Offset': String(offset), 'Upload-Length': String(length), 'Cache-Control': 'no-store' } });
  };
  return new Elysia()
    .use(auth)
    .options('/api/tus/*', () => new Response(null, { status: 204, headers: { ...TUS, 'Tus-Version': '1.0.0', 'Tus-Extension': 'creation,termination' } }))
    .post('/api/tus/*', async ({ request, actor }: Ctx) => {
      const path = pathAfter(request, P).path;
      await s.tus.create(actor, path, request.headers.get('upload-length'), new URL(request.url).searchParams.get('override') === 'true');
      return textResponse(201, undefined, { ...TUS, Location: `${P}${encode(path)}` });
    }, { auth: 'user', parse: 'none' })
    .head('/api/tus/*', head, { auth: 'user' })
    .get('/api/tus/*', head, { auth: 'user' })
    .patch('/api/tus/*', async ({ request, actor }: Ctx) => {
      const offset = await s.tus.append(actor, pathAfter(request, P).path, request.headers.get('upload-offset'), request.headers.get('content-type'), request.body);
      return new Response(null, { status: 204, headers: { ...TUS, 'Upload-Offset': String(offset) } });
    }, { auth: 'user', parse: 'none' })
    .delete('/api/tus/*', async ({ request, actor }: Ctx) => {
      await s.tus.cancel(actor, pathAfter(request, P).path);
      return new Response(null, { status: 204, headers: TUS });
    }, { auth: 'user', parse: 'none' });
}
