import { Elysia } from 'elysia';
import type { Services } from '../../services/services';
import type { Actor } from '../../services/actor';
import { download } from '../download';
import type { AuthPlugin } from '../plugins/auth.plugin';
import { pathAfter } from '../request-path';

type Ctx = { request: Request; actor: Actor };

/** GET /api/raw/{path}: downloads (Range, inline/attachment) and streamed archives. */
export function rawRoutes(s: Services, auth: AuthPlugin) {
  const P = `${s.config.baseURL}/api/raw`;
  const raw = ({ request, actor }: Ctx) => download(request, actor, pathAfter(request, P).path);
  return new Elysia().use(auth).get('/api/raw', raw, { auth: 'user' }).get('/api/raw/*', raw, { auth: 'user' });
}
