import { Elysia } from 'elysia';
import type { Services } from '../../app';
import { forbidden } from '../../core/errors';
import type { Actor } from '../../services/actor';
import { json, readJsonObject } from '../body';
import type { AuthPlugin } from '../plugins/auth.plugin';
import { textResponse } from '../plugins/error.plugin';
import { pathAfter } from './resources.routes';

type Ctx = { request: Request; actor: Actor };

/** Share and download are both needed to manage links (a share is a download for someone else). */
function needShare(actor: Actor): void {
  if (!actor.can('share') || !actor.can('download')) throw forbidden();
}

/** Authenticated share management: list, shares of a path, create, delete. */
export function sharesRoutes(s: Services, auth: AuthPlugin) {
  const P = `${s.config.baseURL}/api/share`;
  const forPath = ({ request, actor }: Ctx) => {
    needShare(actor);
    return json(s.shares.forPath(actor, pathAfter(request, P).path));
  };
  const create = async ({ request, actor }: Ctx) => {
    needShare(actor);
    const hasBody = request.headers.get('content-length') !== '0' && request.body !== null;
    const body = hasBody ? await readJsonObject(request, 64 * 1024).catch((e) => (String(e?.detail).includes('empty') ? {} : Promise.reject(e))) : {};
    return json(await s.shares.create(actor, pathAfter(request, P).path, body));
  };
  return new Elysia()
    .use(auth)
    .get('/api/shares', ({ actor }: Ctx) => {
      needShare(actor);
      return json(s.shares.list(actor));
    }, { auth: 'user' })
    .get('/api/share', forPath, { auth: 'user' })
    .get('/api/share/*', forPath, { auth: 'user' })
    .post('/api/share', create, { auth: 'user', parse: 'none' })
    .post('/api/share/*', create, { auth: 'user', parse: 'none' })
    .delete('/api/share/:hash', ({ actor, params }: Ctx & { params: { hash: string } }) => {
      needShare(actor);
      s.shares.remove(actor, params.hash);
      return textResponse(200);
    }, { auth: 'user', parse: 'none' });
}
