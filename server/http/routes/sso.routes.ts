import { Elysia } from 'elysia';
import { AppError } from '../../core/errors';
import type { Services } from '../../services/services';
import { readJsonObject } from '../body';
import type { ClientIp } from '../client-ip';
import { deviceOf } from '../device';
import type { AuthPlugin } from '../plugins/auth.plugin';
import { publicOrigin } from '../public-origin';

const SSO_BODY_LIMIT = 16 * 1024;

const redirect = (to: string) => new Response(null, { status: 302, headers: { Location: to, 'Cache-Control': 'no-store' } });

/** Failures of the login start, as the login page's short codes. */
const START_ERRORS: Record<string, string> = { NOT_FOUND: 'disabled', UNAVAILABLE: 'unavailable', RATE_LIMITED: 'limited' };

/** OpenID Connect: the start and the provider's callback (browser navigations, answered with redirects) and the code's exchange. */
export function ssoRoutes(s: Services, auth: AuthPlugin, ip: ClientIp) {
  const base = s.config.baseURL;
  const loginPage = (params: Record<string, string>) => `${base}/login?${new URLSearchParams(params)}`;
  return new Elysia()
    .use(auth)
    .get('/api/auth/oidc/login', async ({ request, server }) => {
      const q = new URL(request.url).searchParams;
      try {
        return redirect(await s.oidc.start(publicOrigin(request, server, ip), base, q.get('redirect'), ip.client(request, server)));
      } catch (e) {
        const code = e instanceof AppError ? START_ERRORS[e.code] : undefined;
        if (!code) throw e;
        return redirect(loginPage({ ssoError: code }));
      }
    })
    .get('/api/auth/oidc/callback', async ({ request, server }) => {
      const q = new URL(request.url).searchParams;
      const r = await s.oidc.callback(publicOrigin(request, server, ip), base, q, ip.client(request, server));
      return redirect(r.ok ? loginPage({ sso: r.code, redirect: r.redirect }) : loginPage({ ssoError: r.error }));
    })
    .post('/api/login/sso', async ({ request, server, issueToken }) => {
      const body = await readJsonObject(request, SSO_BODY_LIMIT);
      const address = ip.client(request, server);
      const { user, session } = await s.oidc.signIn(body.code, { method: 'oidc', address, device: deviceOf(request.headers.get('user-agent')) });
      return new Response(await issueToken(user, session), { headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-cache, no-store, must-revalidate' } });
    }, { parse: 'none' });
}
