import type * as Oidc from 'openid-client';
import type { StoredUser } from '../../contract/user';
import { AppError, forbidden, invalid } from '../../core/errors';
import type { SessionsStore } from '../../db/sessions.store';
import type { SsoFlowsStore } from '../../db/sso-flows.store';
import { anonymous, type AuditService } from '../audit/audit.service';
import type { AuthService, SessionMeta } from '../auth/auth.service';
import { ssoLimits } from '../auth/limits';
import type { RateLimiter } from '../auth/rate-limiter';
import type { SettingsService } from '../settings/settings.service';
import type { DirectoryLogin } from './directory-login';
import { groupList } from './group-grants';
import { claimAt, safeRedirect } from './oidc-claims';
import { OidcDiscovery, openid } from './oidc-discovery';

/** The redirect-to-callback window, and the one-time code's life. */
export const FLOW_TTL_MS = 10 * 60_000;
export const CODE_TTL_MS = 60_000;

/** Short codes the login page shows for a failed callback (`/login?ssoError=<code>`). */
export type SsoErrorCode = 'disabled' | 'state' | 'provider' | 'token' | 'claims' | 'denied' | 'unavailable' | 'limited';

export type CallbackResult = { ok: true; code: string; redirect: string } | { ok: false; error: SsoErrorCode };

export interface OidcDeps {
  flows: SsoFlowsStore;
  sessions: SessionsStore;
  settings: SettingsService;
  directory: DirectoryLogin;
  auth: AuthService;
  limits: RateLimiter;
  audit?: AuditService;
  now?: () => number;
}

const sha256 = (s: string) => new Bun.CryptoHasher('sha256').update(s).digest('base64url');
const randomCode = () => Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64url');

/** Where the provider sends the browser back: `{public origin}{baseURL}/api/auth/oidc/callback`. */
export const callbackUrl = (origin: string, base: string) => `${origin}${base}/api/auth/oidc/callback`;

/**
 * OpenID Connect sign-in (authorization code with PKCE S256, state and nonce): the state lives in the database
 * between the redirect and the callback (any instance may answer it), the callback ends in DirectoryLogin, and the
 * browser gets a one-time code for POST /api/login/sso rather than a token in a URL.
 */
export class OidcService {
  private readonly now: () => number;
  readonly discovery = new OidcDiscovery();

  constructor(private readonly d: OidcDeps) {
    this.now = d.now ?? Date.now;
  }

  private enabled() {
    const s = this.d.settings.get().oidc;
    return s.enabled && !!s.issuer && !!s.clientId ? s : null;
  }

  /** The provider's authorization URL for a new login; the flow's secrets stay here. */
  async start(origin: string, base: string, redirect: unknown, address: string): Promise<string> {
    const s = this.enabled();
    if (!s) throw new AppError('NOT_FOUND', 'single sign-on is not configured');
    await this.d.limits.reserve(ssoLimits(address), 'too many sign-in attempts, try again later');
    const config = await this.discovery.config(s);
    const oidc = await openid();
    const flow = { state: oidc.randomState(), nonce: oidc.randomNonce(), verifier: oidc.randomPKCECodeVerifier(), redirect: safeRedirect(redirect), expiresAt: this.now() + FLOW_TTL_MS };
    await this.d.flows.saveFlow(flow, this.now());
    const scopes = s.scopes.includes('openid') ? s.scopes : ['openid', ...s.scopes];
    return oidc.buildAuthorizationUrl(config, {
      redirect_uri: callbackUrl(origin, base),
      scope: scopes.join(' '),
      state: flow.state,
      nonce: flow.nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(flow.verifier),
      code_challenge_method: 'S256',
    }).href;
  }

  /**
   * The provider's answer: the state is taken (once), the code exchanged with the PKCE verifier, the ID token's
   * nonce checked, then the directory-login home decides. Never throws: every failure is a short code for the page.
   */
  async callback(origin: string, base: string, query: URLSearchParams, address: string): Promise<CallbackResult> {
    const s = this.enabled();
    if (!s) return { ok: false, error: 'disabled' };
    try {
      await this.d.limits.reserve(ssoLimits(address), 'too many sign-in attempts');
    } catch {
      return { ok: false, error: 'limited' };
    }
    const fail = async (error: SsoErrorCode, why: string): Promise<CallbackResult> => {
      await this.d.audit?.record(anonymous(address), 'login', '', { method: 'oidc', reason: error, why: why.slice(0, 200) }, 'failed');
      return { ok: false, error };
    };
    const state = query.get('state');
    const flow = state ? await this.d.flows.takeFlow(state, this.now()) : null;
    if (!flow) return fail('state', 'unknown, used or expired state');
    if (query.get('error')) return fail('provider', `provider error: ${query.get('error')}`);
    let tokens: Awaited<ReturnType<typeof Oidc.authorizationCodeGrant>>;
    let config: Oidc.Configuration;
    try {
      config = await this.discovery.config(s);
    } catch {
      return fail('unavailable', 'provider unreachable');
    }
    const oidc = await openid();
    try {
      const current = new URL(callbackUrl(origin, base));
      for (const [k, v] of query) current.searchParams.append(k, v);
      tokens = await oidc.authorizationCodeGrant(config, current, { pkceCodeVerifier: flow.verifier, expectedState: flow.state, expectedNonce: flow.nonce, idTokenExpected: true });
    } catch (e) {
      if (!(e instanceof oidc.ResponseBodyError || e instanceof oidc.AuthorizationResponseError)) this.discovery.forget();
      return fail('token', (e as Error).message);
    }
    const claims = tokens.claims() as Record<string, unknown> | undefined;
    const subject = typeof claims?.sub === 'string' ? claims.sub : '';
    let groupsClaim = claimAt(claims, s.groupsClaim);
    let username = claimAt(claims, s.usernameClaim);
    if (groupsClaim === undefined || typeof username !== 'string') {
      // Groups (or the name) only in userinfo: some providers keep ID tokens small.
      try {
        const info = (await oidc.fetchUserInfo(config, tokens.access_token, subject)) as Record<string, unknown>;
        groupsClaim ??= claimAt(info, s.groupsClaim);
        if (typeof username !== 'string') username = claimAt(info, s.usernameClaim);
      } catch (e) {
        return fail('token', `userinfo: ${(e as Error).message}`);
      }
    }
    if (!subject || typeof username !== 'string' || !username.trim()) return fail('claims', `no ${s.usernameClaim} claim`);
    let user: StoredUser;
    try {
      user = await this.d.directory.signIn({ provider: 'oidc', issuer: config.serverMetadata().issuer, subject, username: username.trim(), groups: groupList(groupsClaim) }, address);
    } catch (e) {
      if (e instanceof AppError && e.code === 'FORBIDDEN') return { ok: false, error: 'denied' }; // audited by signIn
      if (e instanceof AppError && e.code === 'INVALID') return fail('claims', e.detail ?? 'invalid username');
      throw e;
    }
    const code = randomCode();
    await this.d.flows.saveCode(sha256(code), { userId: user.id, redirect: flow.redirect, idToken: tokens.id_token ?? '' }, this.now() + CODE_TTL_MS, this.now());
    return { ok: true, code, redirect: flow.redirect };
  }

  /** POST /api/login/sso: the one-time code (once, for 60 s) becomes a session; its ID token is kept for logout. */
  async signIn(code: unknown, meta: SessionMeta): Promise<{ user: StoredUser; session: { sid: string; createdAt: number; expiresAt: number } }> {
    if (typeof code !== 'string' || !code || code.length > 128) throw invalid('code is required');
    const slot = await this.d.limits.reserve(ssoLimits(meta.address), 'too many sign-in attempts, try again later');
    const got = await this.d.flows.takeCode(sha256(code), this.now());
    const user = got && (await this.d.directory.userById(got.userId));
    if (!got || !user) {
      await this.d.audit?.record(anonymous(meta.address), 'login', '', { method: 'oidc', reason: 'code' }, 'failed');
      throw forbidden('this sign-in code is unknown, used or expired');
    }
    await slot.succeeded();
    const session = await this.d.auth.startSession(user, { ...meta, method: 'oidc' });
    if (got.idToken) await this.d.flows.saveLogout(session.sid, got.idToken, session.expiresAt, this.now());
    return { user, session };
  }

  /**
   * The provider's end-session URL for a session started by OIDC (RP-initiated logout), when `logoutAtProvider`;
   * null otherwise. Read before the session ends (its family names the kept ID token).
   */
  async logoutRedirect(sid: string, origin: string, base: string): Promise<string | null> {
    const row = await this.d.sessions.get(sid);
    if (!row || row.method !== 'oidc') return null;
    const idToken = await this.d.flows.takeLogout(row.family ?? sid);
    const s = this.enabled();
    if (!s?.logoutAtProvider || !idToken) return null;
    try {
      const config = await this.discovery.config(s);
      if (!config.serverMetadata().end_session_endpoint) return null;
      return (await openid()).buildEndSessionUrl(config, { id_token_hint: idToken, post_logout_redirect_uri: `${origin}${base}/login` }).href;
    } catch {
      return null; // the local logout stands either way
    }
  }
}
