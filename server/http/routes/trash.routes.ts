import { Elysia } from 'elysia';
import type { RestoreConflict } from '../../contract/trash';
import { invalid } from '../../core/errors';
import { parseDuration } from '../../core/duration';
import type { Actor } from '../../services/actor';
import type { Services } from '../../services/services';
import { json } from '../body';
import type { AuthPlugin } from '../plugins/auth.plugin';

type Ctx = { request: Request; actor: Actor };
type IdCtx = Ctx & { params: { id: string } };

/** The trash: list (with the settings that apply to the caller), restore, delete forever, empty. */
export function trashRoutes(s: Services, auth: AuthPlugin) {
  const query = (request: Request) => new URL(request.url).searchParams;
  /** `?user=` (id or name) for admins; others may name only themselves (the service decides). */
  const userOf = async (request: Request) => {
    const ref = query(request).get('user');
    return ref ? s.trash.userRef(ref) : undefined;
  };
  return new Elysia()
    .use(auth)
    .get('/api/trash', async ({ request, actor }: Ctx) => json({ settings: s.trash.settingsFor(actor), items: await s.trash.list(actor, await userOf(request)) }), { auth: 'user' })
    .post('/api/trash/:id/restore', async ({ request, actor, params }: IdCtx) => {
      const conflict = (query(request).get('conflict') || 'fail') as RestoreConflict;
      return json({ path: await s.trash.restore(actor, params.id, conflict) });
    }, { auth: 'user', parse: 'none' })
    .delete('/api/trash/:id', async ({ actor, params }: IdCtx) => {
      await s.trash.remove(actor, params.id);
      return new Response(null, { status: 204 });
    }, { auth: 'user', parse: 'none' })
    .delete('/api/trash', async ({ request, actor }: Ctx) => {
      const raw = query(request).get('olderThan');
      const olderThanMs = raw ? parseDuration(raw) : undefined;
      if (olderThanMs === null) throw invalid('olderThan must be a duration such as 7d or 12h');
      return json({ deleted: await s.trash.empty(actor, { userId: await userOf(request), olderThanMs }) });
    }, { auth: 'user', parse: 'none' });
}
