import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
// @ts-expect-error oidc-provider ships no type declarations (a dev dependency, used by tests only)
import Provider from 'oidc-provider';

/** One test account: its claims, changed by the test between logins (groups added, removed, moved to userinfo). */
export interface TestAccount {
  preferred_username: string;
  /** Groups as the provider sends them: a list, or one string. */
  groups?: string[] | string;
  /** Send the groups only from the userinfo endpoint (never in the ID token). */
  groupsOnlyInUserinfo?: boolean;
  /** Any other claims (nested ones for dotted claim paths). */
  extra?: Record<string, unknown>;
}

export interface TestProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Accounts by subject (`sub`); the dev login form signs in as the subject typed as "login". */
  accounts: Map<string, TestAccount>;
  /** Stops the provider's HTTP server (open connections closed). */
  close(): Promise<void>;
}

/**
 * A real OpenID provider (`oidc-provider`, in this process, on 127.0.0.1 and a free port) with one confidential test
 * client whose redirect URI is the test app's callback. PKCE is required; claims come from `accounts` at each login.
 */
export async function startOidcProvider(redirectUris: string[], postLogoutUris: string[] = []): Promise<TestProvider> {
  const server: Server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const accounts = new Map<string, TestAccount>();
  const clientId = 'filedeck-test';
  const clientSecret = 'a-test-client-secret-that-is-long-enough-0123456789';
  const provider = new Provider(issuer, {
    clients: [{ client_id: clientId, client_secret: clientSecret, redirect_uris: redirectUris, post_logout_redirect_uris: postLogoutUris, grant_types: ['authorization_code'], response_types: ['code'], token_endpoint_auth_method: 'client_secret_post' }],
    claims: { openid: ['sub'], profile: ['preferred_username', 'groups', 'realm_access'] },
    // Claims in the ID token as well as userinfo (providers differ; the test decides per account).
    conformIdTokenClaims: false,
    pkce: { required: () => true },
    features: { devInteractions: { enabled: true }, rpInitiatedLogout: { enabled: true } },
    cookies: { keys: ['filedeck-test-cookie-key'] },
    // No consent screen: every client is granted what it asked for.
    loadExistingGrant: async (ctx: any) => {
      const grant = new (ctx.oidc.provider.Grant)({ clientId: ctx.oidc.client.clientId, accountId: ctx.oidc.session.accountId });
      grant.addOIDCScope(ctx.oidc.params.scope);
      await grant.save();
      return grant;
    },
    findAccount: async (_ctx: unknown, sub: string) => {
      const a = accounts.get(sub);
      if (!a) return undefined;
      return {
        accountId: sub,
        claims: async (use: string) => {
          const out: Record<string, unknown> = { sub, preferred_username: a.preferred_username, ...(a.extra ?? {}) };
          if (a.groups !== undefined && (use === 'userinfo' || !a.groupsOnlyInUserinfo)) out.groups = a.groups;
          return out;
        },
      };
    },
  } as any);
  provider.proxy = false;
  server.on('request', provider.callback());
  return {
    issuer,
    clientId,
    clientSecret,
    accounts,
    close: () => new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    }),
  };
}

/** A tiny browser: follows nothing by itself, keeps cookies per host. */
export class CookieBrowser {
  private jar = new Map<string, Map<string, string>>();

  async fetch(url: string, init: RequestInit = {}): Promise<Response> {
    const u = new URL(url);
    const cookies = this.jar.get(u.host);
    const headers = new Headers(init.headers);
    if (cookies?.size) headers.set('Cookie', [...cookies].map(([k, v]) => `${k}=${v}`).join('; '));
    const res = await fetch(url, { ...init, headers, redirect: 'manual' });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const i = pair!.indexOf('=');
      const m = this.jar.get(u.host) ?? new Map<string, string>();
      m.set(pair!.slice(0, i).trim(), pair!.slice(i + 1).trim());
      this.jar.set(u.host, m);
    }
    return res;
  }
}

/**
 * Signs in at the provider as `sub` starting from its authorization URL, and answers the URL the provider sends the
 * browser back to (the app's callback with code, state and iss). Posts the dev login form; no consent screen.
 */
export async function signInAtProvider(authorizeUrl: string, sub: string, browser = new CookieBrowser()): Promise<string> {
  let url = authorizeUrl;
  for (let hop = 0; hop < 12; hop++) {
    const res = await browser.fetch(url);
    const loc = res.headers.get('location');
    if (res.status >= 300 && res.status < 400 && loc) {
      const next = new URL(loc, url).href;
      if (!next.startsWith(new URL(authorizeUrl).origin)) return next; // back to the app
      url = next;
      continue;
    }
    const html = await res.text();
    const action = /action="([^"]+)"/.exec(html)?.[1];
    if (!action) throw new Error(`provider page without a form (${res.status}): ${html.slice(0, 300)}`);
    const form: Record<string, string> = /name="prompt" value="login"/.test(html) ? { prompt: 'login', login: sub, password: 'any' } : { prompt: 'consent' };
    const post = await browser.fetch(new URL(action, url).href, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form).toString() });
    const after = post.headers.get('location');
    if (!after) throw new Error(`provider form answered ${post.status}: ${(await post.text()).slice(0, 300)}`);
    url = new URL(after, url).href;
  }
  throw new Error('too many redirects at the provider');
}
