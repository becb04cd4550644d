import { Elysia } from 'elysia';
import { forbidden } from '../../core/errors';
import type { Services } from '../../services/services';
import { json, readJsonObject } from '../body';
import type { ClientIp } from '../client-ip';
import type { AuthPlugin } from '../plugins/auth.plugin';
import { textResponse } from '../plugins/error.plugin';
import { tokenFrom } from '../plugins/auth.plugin';
import type { LoginMethod } from '../../contract/accounts';
import { deviceOf } from '../device';
import { rpOf } from '../webauthn-rp';
import { publicOrigin } from '../public-origin';

/** Login and signup bodies: far above any credentials that fit their caps (auth.service.ts cappedCredentials), 413 past it. */
const LOGIN_LIMIT = 64 * 1024;

function tokenResponse(token: string, headers: Record<string, string> = {}): Response {
  return new Response(token, { headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-cache, no-store, must-revalidate', ...headers } });
}

/** Login, renew, signup and logout. Login answers the raw token as text, as the web app expects. */
export function authRoutes(s: Services, auth: AuthPlugin, ip: ClientIp) {
  return new Elysia()
    .use(auth)
    .post('/api/login', async ({ request, server, issueToken }) => {
      const clientAddress = ip.client(request, server);
      const method = s.settings.get().authMethod;
      const device = deviceOf(request.headers.get('user-agent'));
      let user;
      let how: LoginMethod = 'password';
      if (method === 'noauth') {
        user = await s.auth.loginNoAuth();
        how = 'noauth';
      } else if (method === 'proxy') {
        // The header is only believed when the TCP peer is a configured trusted proxy.
        if (!ip.fromTrustedProxy(request, server)) throw forbidden();
        user = await s.auth.loginProxy(request.headers.get(s.settings.get().authHeader), clientAddress);
        how = 'proxy';
      } else {
        const body = await readJsonObject(request, LOGIN_LIMIT);
        user = await s.auth.loginWithPassword(body.username, body.password, clientAddress);
        how = s.auth.methodOf(user);
      }
      // A password (or directory) login of an account with a second factor, or one that must enrol: no token yet,
      // a 401 with a ticket for the second step (decision 0044).
      if (how === 'password' || how === 'ldap') {
        const step = await s.factors.secondStep(user, clientAddress, how);
        if (step) return json(step, 401);
      }
      return tokenResponse(await issueToken(user, await s.auth.startSession(user, { method: how, address: clientAddress, device })));
    }, { parse: 'none' })
    .post('/api/login/second-factor', async ({ request, server, issueToken }) => {
      const address = ip.client(request, server);
      const body = await readJsonObject(request, LOGIN_LIMIT);
      const done = await s.factors.secondFactor(body.ticket, body.method, body.code, address);
      const session = await s.auth.startSession(done.user, { method: done.method, address, device: deviceOf(request.headers.get('user-agent')) });
      // An enrolment confirmed at login made the recovery codes: shown this once, beside the token.
      return tokenResponse(await issueToken(done.user, session), done.recoveryCodes ? { 'X-Recovery-Codes': done.recoveryCodes.join(',') } : {});
    }, { parse: 'none' })
    .post('/api/login/totp-enrol', async ({ request, server }) => {
      const body = await readJsonObject(request, LOGIN_LIMIT);
      return json(await s.factors.enrolAtLogin(body.ticket, ip.client(request, server)));
    }, { parse: 'none' })
    .post('/api/login/passkey/options', async ({ request, server }) => {
      // No body (or an empty one) asks for passwordless options.
      const body: Record<string, unknown> = !request.body || request.headers.get('content-length') === '0' ? {} : await readJsonObject(request, LOGIN_LIMIT).catch((e) => (String(e?.detail).includes('empty') ? {} : Promise.reject(e)));
      return json(await s.factors.passkeyOptions(body.ticket, rpOf(s, request, server, ip), ip.client(request, server)));
    }, { parse: 'none' })
    .post('/api/login/passkey', async ({ request, server, issueToken }) => {
      const address = ip.client(request, server);
      const body = await readJsonObject(request, LOGIN_LIMIT);
      const done = await s.factors.passkeyLogin(body.challengeId, body.response, body.ticket, address);
      return tokenResponse(await issueToken(done.user, await s.auth.startSession(done.user, { method: done.method, address, device: deviceOf(request.headers.get('user-agent')) })));
    }, { parse: 'none' })
    .post('/api/renew', async ({ request, issueToken, verifyToken }) => {
      const { user, sid } = await verifyToken(tokenFrom(request));
      return tokenResponse(await issueToken(user, await s.auth.renewSession(user, sid)), { 'X-Renew-Token': 'false' });
    }, { parse: 'none' })
    .post('/api/signup', async ({ request, server }) => {
      const body = await readJsonObject(request, LOGIN_LIMIT);
      await s.auth.signup(body.username, body.password, ip.client(request, server));
      return textResponse(200);
    }, { parse: 'none' })
    .post('/api/logout', async ({ request, server, sessionId, actor }) => {
      // Read before the session ends: an OIDC session's kept ID token is found by its family (decision 0046).
      const atProvider = await s.oidc.logoutRedirect(sessionId, publicOrigin(request, server, ip), s.config.baseURL);
      await s.auth.logout(sessionId, actor);
      return textResponse(200, undefined, atProvider ? { 'X-Logout-Redirect': atProvider } : {});
    }, { auth: 'user', parse: 'none' });
}
