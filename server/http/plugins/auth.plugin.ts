import { Elysia } from 'elysia';
import { jwt } from '@elysiajs/jwt';
import type { PermName } from '../../contract/user';
import { forbidden, unauthorized } from '../../core/errors';
import type { StoredUser } from '../../contract/user';
import { actorFor, compileRules, type Actor } from '../../services/actor';
import type { RuleSet } from '../../services/rules/rules';
import type { Rule } from '../../contract/user';
import { tokenUser } from '../../services/auth/auth.service';
import type { Services } from '../../services/services';
import type { ClientIp } from '../client-ip';
import { noteUser } from '../observe/request-record';
import { looksLikeApiToken } from '../../services/tokens/token-secret';

const ISSUER = 'Filedeck';
const RENEW_WINDOW_MS = 60 * 60 * 1000;
/** GET routes whose URLs the web app builds for <img>, downloads and the shell socket: ?auth= is read there. */
const QUERY_TOKEN_PATHS = /\/api\/(raw|preview|command|subtitle|tus)(\/|$)/;

/** Three dot-separated parts (exactly two dots), without splitting the text (this runs for every request). */
const looksLikeJwt = (t: string | null | undefined): t is string => {
  if (!t) return false;
  const a = t.indexOf('.');
  const b = a < 0 ? -1 : t.indexOf('.', a + 1);
  return b > 0 && t.indexOf('.', b + 1) < 0;
};

function cookieValue(header: string | null, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(';')) {
    const i = part.indexOf('=');
    if (i > 0 && part.slice(0, i).trim() === name) return decodeURIComponent(part.slice(i + 1).trim());
  }
  return null;
}

/** A plain read: GET or HEAD, no WebSocket upgrade. */
const readsOnly = (request: Request) => (request.method === 'GET' || request.method === 'HEAD') && !request.headers.has('upgrade');

/** The username and password of `Authorization: Basic`, or null. */
export function basicCredentials(header: string | null): { username: string; password: string } | null {
  if (!header || header.length > 4096 || !/^basic /i.test(header)) return null;
  const text = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8');
  const i = text.indexOf(':');
  return i < 0 ? null : { username: text.slice(0, i), password: text.slice(i + 1) };
}

/**
 * Where a token may come from: X-Auth always (a session's JWT or an API token); `Authorization: Bearer` (either)
 * and `Authorization: Basic` whose password is an API token; the `auth` cookie and, on the web app's
 * raw/preview/command URLs, the `auth` query value, only for GET and only a session's (a cross-site form cannot
 * change anything with them).
 */
export function tokenFrom(request: Request): string | null {
  const h = request.headers.get('x-auth');
  if (looksLikeJwt(h) || looksLikeApiToken(h)) return h;
  const authz = request.headers.get('authorization');
  if (authz) {
    if (/^bearer /i.test(authz)) {
      const t = authz.slice(7).trim();
      if (looksLikeJwt(t) || looksLikeApiToken(t)) return t;
    } else {
      const basic = basicCredentials(authz);
      if (looksLikeApiToken(basic?.password)) return basic.password;
    }
  }
  if (request.method !== 'GET' && request.method !== 'HEAD') return null;
  const c = cookieValue(request.headers.get('cookie'), 'auth');
  if (looksLikeJwt(c)) return c;
  const url = new URL(request.url);
  if (QUERY_TOKEN_PATHS.test(url.pathname)) {
    const q = url.searchParams.get('auth');
    if (looksLikeJwt(q)) return q;
  }
  return null;
}

/**
 * Authentication as a named plugin. Routes declare `{ auth: 'user' }` or `{ auth: '<permission>' }` and get
 * `actor`; the permission check lives here, not in handlers. Also decorates `issueToken` for login/renew.
 */
export function authPlugin(s: Services, ip: ClientIp, key: CryptoKey) {
  // Tokens are signed and checked by @elysiajs/jwt, given the imported key (a CryptoKey: never re-imported).
  const signer = jwt({ name: 'jwt', secret: key, alg: 'HS256', iss: ISSUER });
  const tokens = signer.decorator.jwt;
  /** A claim value as the plugin types it (plain JSON; our interfaces carry no index signature). */
  const claim = (v: object) => v as Parameters<typeof tokens.sign>[0][string];
  // A signature check is a pure function of the token text, so its verified claims are remembered by the exact
  // token until it expires (bounded; ~100 µs saved per request). The session row and the user are still looked up
  // on every request: revocation stays immediate.
  const verified = new Map<string, Record<string, unknown>>();
  const remember = (token: string, claims: Record<string, unknown>) => {
    if (verified.has(token)) return;
    if (verified.size >= 10_000) verified.delete(verified.keys().next().value!);
    verified.set(token, claims);
  };
  /** Remembered claims come back without a promise (every request takes this path); an expired one is forgotten. */
  const verify = (token: string): Record<string, unknown> | null | Promise<Record<string, unknown> | null> => {
    const hit = verified.get(token);
    if (hit) {
      if ((hit.exp as number) * 1000 > Date.now()) return hit;
      verified.delete(token);
      return null;
    }
    return tokens.verify(token, { algorithms: ['HS256'], issuer: ISSUER, requiredClaims: ['exp', 'iat'] }).then((c) => (c ? (c as Record<string, unknown>) : null));
  };
  // The plugin stamps each token with the time it signs it (iat), so one session is signed once and its token
  // remembered: concurrent renews that end on the same successor answer with the same token.
  const signed = new Map<string, { expiresAt: number; token: Promise<string> }>();
  const signOnce = (user: StoredUser, session: { sid: string; expiresAt: number }) => {
    const hit = signed.get(session.sid);
    if (hit && hit.expiresAt === session.expiresAt) return hit.token;
    if (signed.size >= 10_000) signed.delete(signed.keys().next().value!);
    const token = tokens.sign({ user: claim(tokenUser(user)), sid: session.sid, exp: Math.floor(session.expiresAt / 1000) });
    signed.set(session.sid, { expiresAt: session.expiresAt, token });
    token.catch(() => signed.delete(session.sid));
    return token;
  };
  // Compiled rules per user, reused while the global rules (same loaded revision: same array) and the user's own
  // rules (compared by their text, so no edit can be missed) are unchanged. The user row itself is read every time.
  // The user object held by authentication between requests is frozen and shared: while it is the same object, its
  // rules are the same text (no JSON to compare).
  const compiled = new Map<number, { global: readonly Rule[]; own: string; user: StoredUser; set: RuleSet }>();
  const rulesOf = (user: StoredUser): RuleSet => {
    const global = s.settings.rules();
    const hit = compiled.get(user.id);
    if (hit && hit.global === global && hit.user === user && Object.isFrozen(user)) return hit.set;
    const own = JSON.stringify(user.rules);
    if (hit && hit.global === global && hit.own === own) {
      hit.user = user;
      return hit.set;
    }
    if (compiled.size >= 10_000) compiled.delete(compiled.keys().next().value!);
    const set = compileRules(global, user);
    compiled.set(user.id, { global, own, user, set });
    return set;
  };
  /**
   * What a token never reaches (0044): the account pages (but the usage against a quota, 0047), the session's own
   * renew and logout, and the shell.
   */
  const base = s.config.baseURL;
  const under = (path: string, p: string) => path === `${base}${p}` || path.startsWith(`${base}${p}/`);
  const sessionOnly = (path: string) => (under(path, '/api/account') && path !== `${base}/api/account/usage`) || under(path, '/api/command') || path === `${base}/api/renew` || path === `${base}/api/logout`;
  /** A request with a personal API token: its owner as an actor with the token's limits (file-policy.ts decides). */
  const tokenActor = async (request: Request, server: Parameters<ClientIp['client']>[1], token: string): Promise<Actor> => {
    const address = ip.client(request, server);
    const { user, limits } = await s.tokenAuth.authenticate(token, address);
    const basic = basicCredentials(request.headers.get('authorization'));
    if (basic?.username && basic.password === token && basic.username.toLowerCase() !== user.username.toLowerCase()) throw unauthorized();
    if (sessionOnly(new URL(request.url).pathname)) throw forbidden('not with an API token');
    return actorFor(user, { root: s.config.root, globalRules: s.settings.rules(), ruleSet: rulesOf(user), followExternalSymlinks: s.config.followExternalSymlinks, address, limits });
  };
  return new Elysia({ name: 'auth' })
    .use(signer)
    // Decorated, not derived: the same two functions serve every request (no per-request closures or hook).
    .decorate({
      /**
       * Signs a token for a session (once per session, see signOnce); the payload carries the user object the web
       * app reads, its expiry is the session's.
       */
      issueToken: (user: StoredUser, session: { sid: string; createdAt: number; expiresAt: number }) => signOnce(user, session),
      /** Verifies a token and resolves its live session and user, or throws 401. */
      verifyToken: async (token: string | null) => {
        if (!token) throw unauthorized();
        const found = verify(token);
        const claims = found instanceof Promise ? await found : found;
        if (!claims || (claims.exp as number) * 1000 <= Date.now()) throw unauthorized();
        remember(token, claims);
        const user = await s.auth.authenticate(claims as { sid?: unknown; user?: { id?: unknown } });
        return { user, sid: claims.sid as string, exp: claims.exp as number, iat: claims.iat as number };
      },
    })
    .macro({
      auth: (need: PermName | 'user') => ({
        async resolve({ request, server, verifyToken, set }) {
          const token = tokenFrom(request);
          if (looksLikeApiToken(token)) {
            const actor = await tokenActor(request, server, token);
            noteUser(request, actor.user!.id);
            if (need !== 'user' && !actor.can(need)) throw forbidden();
            return { actor, sessionId: '' };
          }
          const { user, sid, exp, iat } = await verifyToken(token);
          noteUser(request, user.id); // request logs name the user
          const actor: Actor = actorFor(user, {
            root: s.config.root,
            globalRules: s.settings.rules(),
            ruleSet: rulesOf(user),
            followExternalSymlinks: s.config.followExternalSymlinks,
            sessionId: sid,
            // Asked of the server (a getpeername) when something records it (the audit log), not on every read. Where the
            // actor may outlive the request (writes, which start jobs; a WebSocket, whose commands run later), at once:
            // the server can name the peer only while the request lasts.
            address: readsOnly(request) ? () => ip.client(request, server) : ip.client(request, server),
          });
          if (need !== 'user' && !actor.can(need)) throw forbidden();
          const seen = s.accountSessions.seen(sid); // last seen: written at most once a minute per session
          if (seen) await seen;
          if (exp * 1000 - Date.now() < RENEW_WINDOW_MS || Math.floor(user.updatedAt / 1000) > iat) set.headers['X-Renew-Token'] = 'true';
          return { actor, sessionId: sid };
        },
      }),
    });
}
export type AuthPlugin = ReturnType<typeof authPlugin>;

/** Imports the signing key once: handing the plugin raw bytes would re-import it on every verification (~100 µs). */
export function importSigningKey(raw: Uint8Array): Promise<CryptoKey> {
  return crypto.subtle.importKey('raw', new Uint8Array(raw), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
}
