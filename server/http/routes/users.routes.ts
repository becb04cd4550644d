import { Elysia } from 'elysia';
import { invalid, notFound } from '../../core/errors';
import type { Services } from '../../services/services';
import { json, readJsonObject } from '../body';
import type { AuthPlugin } from '../plugins/auth.plugin';
import { textResponse } from '../plugins/error.plugin';

function userId(raw: string): number {
  if (!/^\d{1,12}$/.test(raw)) throw notFound();
  return Number(raw);
}

/** Users API (spec §7, reference §10): admins manage everyone; a user reads and edits their own preferences. */
export function usersRoutes(s: Services, auth: AuthPlugin) {
  return new Elysia()
    .use(auth)
    .get('/api/users', async () => json(await s.users.list()), { auth: 'admin' })
    .get('/api/users/:id', async ({ params, actor }) => json(await s.users.get(actor, userId(params.id))), { auth: 'user' })
    .post('/api/users', async ({ request, actor }) => {
      const body = await readJsonObject(request);
      if (body.what !== 'user') throw invalid('invalid data type');
      if (Array.isArray(body.which) && body.which.length > 0) throw invalid('which must be empty when creating a user');
      if (!body.data || typeof body.data !== 'object' || Array.isArray(body.data)) throw invalid('data must be a user object');
      await s.users.checkCurrentPassword(actor, body.current_password);
      const data = body.data as Record<string, unknown>;
      const created = await s.users.create(data, { createHome: data.createUserDir === true, by: actor });
      return textResponse(201, undefined, { Location: `/settings/users/${created.id}` });
    }, { auth: 'admin', parse: 'none' })
    .put('/api/users/:id', async ({ request, params, actor }) => {
      const id = userId(params.id);
      const body = await readJsonObject(request);
      if (body.what !== undefined && body.what !== 'user') throw invalid('invalid data type');
      const which = body.which ?? [];
      const names = Array.isArray(which) ? which.map((w) => String(w).toLowerCase()) : [];
      const sensitive = names.length === 0 || names.some((w) => ['all', 'username', 'password', 'scope', 'lockpassword', 'commands', 'perm', 'rules'].includes(w));
      if (sensitive) await s.users.checkCurrentPassword(actor, body.current_password);
      await s.users.update(actor, id, which, body.data);
      return textResponse(200);
    }, { auth: 'user', parse: 'none' })
    .delete('/api/users/:id', async ({ request, params, actor }) => {
      const id = userId(params.id);
      const body = request.headers.get('content-length') === '0' || !request.body ? {} : await readJsonObject(request);
      await s.users.checkCurrentPassword(actor, body.current_password);
      // Their trash is deleted with them unless ?trashTo=<admin id> hands it to that admin.
      const to = new URL(request.url).searchParams.get('trashTo');
      if (to !== null && !/^\d{1,12}$/.test(to)) throw invalid('trashTo must be a user id');
      await s.users.delete(actor, id, to === null ? {} : { trashTo: Number(to) });
      return textResponse(200);
    }, { auth: 'user', parse: 'none' });
}
