import { Elysia } from 'elysia';
import type { Services } from '../../services/services';
import type { Actor } from '../../services/actor';
import type { AuthPlugin } from '../plugins/auth.plugin';
import { previewResponse } from '../preview-response';
import { pathAfter } from '../request-path';

/** GET /api/preview/{thumb|big}/{path}: resized images (cached), or the original where resizing does not apply. */
export function previewRoutes(s: Services, auth: AuthPlugin) {
  const base = s.config.baseURL;
  return new Elysia().use(auth).get('/api/preview/:size/*', async ({ request, actor, params }: { request: Request; actor: Actor; params: { size: string } }) => {
    const path = pathAfter(request, `${base}/api/preview/${params.size}`).path;
    return previewResponse(s, request, actor, params.size, path);
  }, { auth: 'user' });
}
