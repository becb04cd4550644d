import { Elysia } from 'elysia';
import { notFound } from '../../core/errors';
import type { Actor } from '../../services/actor';
import type { Services } from '../../services/services';
import { json } from '../body';
import type { AuthPlugin } from '../plugins/auth.plugin';

type Ctx = { actor: Actor; params: { id: string; sid?: string; tid?: string } };
const noContent = () => new Response(null, { status: 204 });

function userId(raw: string): number {
  if (!/^\d{1,12}$/.test(raw)) throw notFound();
  return Number(raw);
}

function publicId(raw: string | undefined, what: string): string {
  if (!raw || !/^[A-Za-z0-9_-]{1,64}$/.test(raw)) throw notFound(`no such ${what}`);
  return raw;
}

/** Admins' view of a user's ways in (decision 0044): their sessions and API tokens, to list and to end. */
export function userAccessRoutes(s: Services, auth: AuthPlugin) {
  return new Elysia()
    .use(auth)
    .get('/api/users/:id/sessions', async ({ actor, params }: Ctx) => json(await s.accountSessions.list(actor, userId(params.id))), { auth: 'admin' })
    .delete('/api/users/:id/sessions', async ({ actor, params }: Ctx) => json({ count: await s.accountSessions.endAll(actor, userId(params.id)) }), { auth: 'admin', parse: 'none' })
    .delete('/api/users/:id/sessions/:sid', async ({ actor, params }: Ctx) => {
      await s.accountSessions.end(actor, userId(params.id), publicId(params.sid, 'session'));
      return noContent();
    }, { auth: 'admin', parse: 'none' })
    .get('/api/users/:id/tokens', async ({ actor, params }: Ctx) => json(await s.tokens.list(actor, userId(params.id))), { auth: 'admin' })
    .delete('/api/users/:id/tokens/:tid', async ({ actor, params }: Ctx) => {
      await s.tokens.revoke(actor, userId(params.id), publicId(params.tid, 'token'));
      return noContent();
    }, { auth: 'admin', parse: 'none' });
}
