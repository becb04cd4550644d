import { Elysia } from 'elysia';
import type { Services } from '../../app';
import { decodeOnce, toVirtualPath } from '../../fs/virtual-path';
import { json } from '../body';
import type { AuthPlugin } from '../plugins/auth.plugin';

/** The user path after a route prefix, decoded exactly once from the raw URL and canonicalised. */
export function pathAfter(request: Request, prefix: string) {
  const pathname = new URL(request.url).pathname;
  const i = pathname.indexOf(prefix);
  return toVirtualPath(decodeOnce(i < 0 ? '/' : pathname.slice(i + prefix.length) || '/'));
}

/** Resources API. Reading is here; writes, uploads and the rest arrive with the files issue. */
export function resourcesRoutes(s: Services, auth: AuthPlugin) {
  return new Elysia()
    .use(auth)
    .get('/api/resources', async ({ actor }) => json(await s.files.get(actor, '/')), { auth: 'user' })
    .get('/api/resources/*', async ({ request, actor }) => json(await s.files.get(actor, pathAfter(request, '/api/resources').path)), { auth: 'user' });
}
