import { Elysia } from 'elysia';
import type { Services } from '../../services/services';
import type { Actor } from '../../services/actor';
import { json, readJson } from '../body';
import type { AuthPlugin } from '../plugins/auth.plugin';

type Ctx = { request: Request; actor: Actor };

/** The signed-in user's in-app notifications (files arrived through their file requests). */
export function notificationsRoutes(s: Services, auth: AuthPlugin) {
  return new Elysia()
    .use(auth)
    .get('/api/notifications', async ({ actor }: Ctx) => json(await s.notifications.list(actor)), { auth: 'user' })
    .post('/api/notifications/read', async ({ request, actor }: Ctx) => {
      // No body (or an empty one) marks everything read.
      const body = request.body === null ? {} : await readJson(request, 64 * 1024).catch((e) => (String(e?.detail).includes('empty') ? {} : Promise.reject(e)));
      await s.notifications.markRead(actor, body);
      return new Response(null, { status: 204 });
    }, { auth: 'user', parse: 'none' });
}
