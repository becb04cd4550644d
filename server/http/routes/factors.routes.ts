import { Elysia } from 'elysia';
import { notFound } from '../../core/errors';
import type { Actor } from '../../services/actor';
import type { Services } from '../../services/services';
import { json, readJsonObject } from '../body';
import type { ClientIp } from '../client-ip';
import type { AuthPlugin } from '../plugins/auth.plugin';
import { rpOf } from '../webauthn-rp';

/** Factor bodies are small; a WebAuthn answer is a few KiB. */
const LIMIT = 64 * 1024;

function userId(raw: string): number {
  if (!/^\d{1,12}$/.test(raw)) throw notFound();
  return Number(raw);
}

function passkeyId(raw: string): string {
  if (!/^[A-Za-z0-9_-]{1,1400}$/.test(raw)) throw notFound('no such passkey');
  return raw;
}

type Ctx = { request: Request; actor: Actor; server: unknown };
const noContent = () => new Response(null, { status: 204 });

/**
 * The signed-in user's second factors (/api/account/factors, totp, recovery-codes, passkeys) and the admin's view
 * of a user's (/api/users/{id}/factors). Each handler calls one service; API tokens are refused by the service.
 */
export function factorsRoutes(s: Services, auth: AuthPlugin, ip: ClientIp) {
  const account = s.factors.account;
  return new Elysia()
    .use(auth)
    .get('/api/account/factors', async ({ actor }: Ctx) => json(await s.factors.accountStatus(actor)), { auth: 'user' })
    .post('/api/account/totp', async ({ actor }: Ctx) => json(await account.beginTotp(actor)), { auth: 'user', parse: 'none' })
    .post('/api/account/totp/confirm', async ({ request, actor }: Ctx) => {
      const body = await readJsonObject(request, LIMIT);
      return json(await account.confirmTotp(actor, body.code));
    }, { auth: 'user', parse: 'none' })
    .delete('/api/account/totp', async ({ request, actor }: Ctx) => {
      const body = await readJsonObject(request, LIMIT);
      await account.disableTotp(actor, body.code);
      return noContent();
    }, { auth: 'user', parse: 'none' })
    .post('/api/account/recovery-codes', async ({ request, actor }: Ctx) => {
      const body = await readJsonObject(request, LIMIT);
      return json(await account.regenerateRecoveryCodes(actor, body.code));
    }, { auth: 'user', parse: 'none' })
    .post('/api/account/passkeys/options', async ({ request, server, actor }: Ctx) => json(await account.passkeyOptions(actor, rpOf(s, request, server, ip))), { auth: 'user', parse: 'none' })
    .post('/api/account/passkeys', async ({ request, actor }: Ctx) => {
      const body = await readJsonObject(request, LIMIT);
      return json(await account.addPasskey(actor, body.challengeId, body.response, body.name), 201);
    }, { auth: 'user', parse: 'none' })
    .patch('/api/account/passkeys/:id', async ({ request, actor, params }: Ctx & { params: { id: string } }) => {
      const body = await readJsonObject(request, LIMIT);
      await account.renamePasskey(actor, passkeyId(params.id), body.name);
      return noContent();
    }, { auth: 'user', parse: 'none' })
    .delete('/api/account/passkeys/:id', async ({ actor, params }: Ctx & { params: { id: string } }) => {
      await account.removePasskey(actor, passkeyId(params.id));
      return noContent();
    }, { auth: 'user', parse: 'none' })
    .get('/api/users/:id/factors', async ({ params }: { params: { id: string } }) => json(await s.factors.statusOf(userId(params.id))), { auth: 'admin' })
    .put('/api/users/:id/factors', async ({ request, actor, params }: Ctx & { params: { id: string } }) => {
      const body = await readJsonObject(request, LIMIT);
      await s.factors.setRequired(actor, userId(params.id), body.required);
      return noContent();
    }, { auth: 'admin', parse: 'none' })
    .delete('/api/users/:id/factors', async ({ actor, params }: Ctx & { params: { id: string } }) => {
      await s.factors.reset(actor, userId(params.id));
      return noContent();
    }, { auth: 'admin', parse: 'none' });
}
