import { t } from 'elysia';
import { ErrorText, Token } from '../../contract/api/schemas';
import { json, media, type RouteDocs } from '../openapi/route-doc';

const SsoCode = t.Object({ code: t.String({ description: 'the one-time code from /login?sso=…' }) });
const text = (example: string) => media('text/plain', ErrorText, example);

/** OpenAPI descriptions of sso.routes.ts. */
export const ssoApi: RouteDocs = {
  'GET /api/auth/oidc/login': {
    summary: 'Start an OpenID Connect sign-in (browser navigation)',
    tags: ['auth'],
    auth: 'none',
    query: { redirect: 'where the web app goes after the sign-in (a path; anything else: /files/)' },
    description: 'Redirects to the provider with state, nonce and a PKCE S256 challenge (kept server-side for 10 minutes). When SSO is off or the provider is unreachable, redirects to /login?ssoError=disabled|unavailable|limited.',
    responses: { 302: { description: 'to the provider, or back to the login page with ssoError' } },
  },
  'GET /api/auth/oidc/callback': {
    summary: "The provider's redirect back",
    tags: ['auth'],
    auth: 'none',
    description: 'Checks the state (once), exchanges the code with the PKCE verifier, checks the nonce, reads the username and groups (ID token, else userinfo), then links, creates or refuses the account and re-applies its groups. Redirects to /login?sso=<one-time code>&redirect=… or /login?ssoError=<state|provider|token|claims|denied|unavailable|limited|disabled>.',
    responses: { 302: { description: 'to the login page with a one-time code or an error code' } },
  },
  'POST /api/login/sso': {
    summary: 'Exchange the one-time sign-in code for a token',
    tags: ['auth'],
    auth: 'none',
    description: 'The code works once, for 60 seconds. Rate-limited per address.',
    body: json(SsoCode, { code: 'q3V0ZXhhbXBsZWNvZGU' }),
    responses: { 200: { description: 'the token', ...media('text/plain', Token, 'eyJhbGciOiJIUzI1NiJ9.e30.c2ln') }, 400: { description: 'no code', ...text('400 Bad Request') }, 403: { description: 'unknown, used or expired code', ...text('403 Forbidden') }, 429: { description: 'too many attempts', ...text('429 Too Many Requests') } },
  },
};
