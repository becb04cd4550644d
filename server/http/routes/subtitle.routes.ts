import { Elysia } from 'elysia';
import type { Services } from '../../services/services';
import type { Actor } from '../../services/actor';
import { openSubtitle } from '../../services/files/subtitles';
import type { AuthPlugin } from '../plugins/auth.plugin';
import { pathAfter } from '../request-path';
import { subtitleResponse } from '../subtitle-response';

type Ctx = { request: Request; actor: Actor };

/** GET /api/subtitle/{path}: a subtitle file as WebVTT (SRT and ASS converted), for the previewer's <track>s. */
export function subtitleRoutes(s: Services, auth: AuthPlugin) {
  const P = `${s.config.baseURL}/api/subtitle`;
  const get = async ({ request, actor }: Ctx) => subtitleResponse(request, await openSubtitle(actor, pathAfter(request, P).path, request.signal));
  return new Elysia().use(auth).get('/api/subtitle', get, { auth: 'user' }).get('/api/subtitle/*', get, { auth: 'user' });
}
