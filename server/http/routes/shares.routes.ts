import { Elysia } from 'elysia';
import type { Services } from '../../services/services';
import type { Actor } from '../../services/actor';
import { json, readJsonObject } from '../body';
import type { AuthPlugin } from '../plugins/auth.plugin';
import { textResponse } from '../plugins/error.plugin';
import { pathAfter } from '../request-path';

type Ctx = { request: Request; actor: Actor };

/** Authenticated share management: list, shares of a path, create, change, regenerate, access log, delete. */
export function sharesRoutes(s: Services, auth: AuthPlugin) {
  const P = `${s.config.baseURL}/api/share`;
  const forPath = async ({ request, actor }: Ctx) => json(await s.shares.forPath(actor, pathAfter(request, P).path));
  const create = async ({ request, actor }: Ctx) => {
    const hasBody = request.headers.get('content-length') !== '0' && request.body !== null;
    const body = hasBody ? await readJsonObject(request, 64 * 1024).catch((e) => (String(e?.detail).includes('empty') ? {} : Promise.reject(e))) : {};
    return json(await s.shares.create(actor, pathAfter(request, P).path, body));
  };
  return new Elysia()
    .use(auth)
    .get('/api/shares', async ({ actor }: Ctx) => json(await s.shares.list(actor)), { auth: 'user' })
    .get('/api/share', forPath, { auth: 'user' })
    .get('/api/share/*', forPath, { auth: 'user' })
    .post('/api/share', create, { auth: 'user', parse: 'none' })
    .post('/api/share/*', create, { auth: 'user', parse: 'none' })
    .patch('/api/share/:hash', async ({ request, actor, params }: Ctx & { params: { hash: string } }) => json(await s.shares.change(actor, params.hash, await readJsonObject(request, 64 * 1024))), { auth: 'user', parse: 'none' })
    // These two name a link; a folder named like a link's hash holding "regenerate" or "log" is still reached by
    // the reference's path routes when no such link exists.
    .post('/api/share/:hash/regenerate', async (c: Ctx & { params: { hash: string } }) =>
      (await s.shares.exists(c.params.hash)) ? json(await s.shares.regenerate(c.actor, c.params.hash)) : create(c), { auth: 'user', parse: 'none' })
    .get('/api/share/:hash/log', async (c: Ctx & { params: { hash: string } }) => {
      if (!(await s.shares.exists(c.params.hash))) return forPath(c);
      const q = new URL(c.request.url).searchParams;
      return json(await s.shares.log(c.actor, c.params.hash, { limit: q.get('limit'), before: q.get('before') }));
    }, { auth: 'user' })
    .delete('/api/share/:hash', async ({ actor, params }: Ctx & { params: { hash: string } }) => {
      await s.shares.remove(actor, params.hash);
      return textResponse(200);
    }, { auth: 'user', parse: 'none' });
}
