import { Elysia } from 'elysia';
import { forbidden, notFound } from '../../core/errors';
import type { Actor } from '../../services/actor';
import type { Services } from '../../services/services';
import { json, readJsonObject } from '../body';
import type { AuthPlugin } from '../plugins/auth.plugin';

/** A token creation body is a name, a few permissions and a path. */
const LIMIT = 16 * 1024;

type Ctx = { request: Request; actor: Actor };
type IdCtx = Ctx & { params: { id: string } };
const noContent = () => new Response(null, { status: 204 });

/** Public session ids and token ids are short base64url texts; anything else names nothing. */
function publicId(raw: string, what: string): string {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(raw)) throw notFound(`no such ${what}`);
  return raw;
}

const me = (actor: Actor): number => {
  if (!actor.user) throw forbidden();
  return actor.user.id;
};

/**
 * The signed-in user's sessions and API tokens (decision 0044; second factors are factors.routes.ts). The auth
 * plugin refuses every /api/account/ request made with an API token (but /api/account/usage); the services refuse
 * it again.
 */
export function accountRoutes(s: Services, auth: AuthPlugin) {
  return new Elysia()
    .use(auth)
    .get('/api/account/sessions', async ({ actor }: Ctx) => json(await s.accountSessions.list(actor, me(actor))), { auth: 'user' })
    .post('/api/account/sessions/end-others', async ({ actor }: Ctx) => json({ count: await s.accountSessions.endOthers(actor) }), { auth: 'user', parse: 'none' })
    .delete('/api/account/sessions/:id', async ({ actor, params }: IdCtx) => {
      await s.accountSessions.end(actor, me(actor), publicId(params.id, 'session'));
      return noContent();
    }, { auth: 'user', parse: 'none' })
    // What the caller's scope holds against their quota (issue 35; the sidebar's bar). API tokens may read it.
    .get('/api/account/usage', async ({ actor }: Ctx) => {
      me(actor);
      return json(await s.quota.usage(actor.user!));
    }, { auth: 'user' })
    .get('/api/account/tokens', async ({ actor }: Ctx) => json(await s.tokens.list(actor, me(actor))), { auth: 'user' })
    .post('/api/account/tokens', async ({ actor, request }: Ctx) => json(await s.tokens.create(actor, actor.user!, await readJsonObject(request, LIMIT)), 201), { auth: 'user', parse: 'none' })
    .delete('/api/account/tokens/:id', async ({ actor, params }: IdCtx) => {
      await s.tokens.revoke(actor, me(actor), publicId(params.id, 'token'));
      return noContent();
    }, { auth: 'user', parse: 'none' });
}
