import type * as Oidc from 'openid-client';
import type { OidcSettings } from '../../contract/accounts';
import { AppError } from '../../core/errors';

/** Every call to the provider gives up after this long: a dead provider never holds a login forever. */
export const PROVIDER_TIMEOUT_S = 5;

/** Plain http is accepted only for a provider on this machine (tests, a provider beside the server). */
const isLoopback = (u: URL) => u.protocol === 'https:' || ['127.0.0.1', 'localhost', '[::1]'].includes(u.hostname);

let lib: Promise<typeof Oidc> | null = null;
/** openid-client, loaded at the first single sign-on: most servers never use it, and every start paid for it (issue 39). */
export const openid = (): Promise<typeof Oidc> => (lib ??= import('openid-client'));

/**
 * The provider's configuration from discovery ({issuer}/.well-known/openid-configuration), kept until the settings
 * change or a call through it fails (`forget`), then fetched again: a provider that rotated its endpoints or keys
 * is picked up by the next login.
 */
export class OidcDiscovery {
  private cached: { key: string; config: Promise<Oidc.Configuration> } | null = null;

  async config(s: OidcSettings): Promise<Oidc.Configuration> {
    const key = JSON.stringify([s.issuer, s.clientId, s.clientSecret]);
    if (this.cached?.key !== key) this.cached = { key, config: this.discover(s) };
    const mine = this.cached;
    try {
      return await mine.config;
    } catch (e) {
      if (this.cached === mine) this.cached = null;
      throw e;
    }
  }

  /** Drops the cached configuration (a token exchange or userinfo call failed: discover again next time). */
  forget(): void {
    this.cached = null;
  }

  private async discover(s: OidcSettings): Promise<Oidc.Configuration> {
    const oidc = await openid();
    let issuer: URL;
    try {
      issuer = new URL(s.issuer);
    } catch {
      throw new AppError('UNAVAILABLE', 'the OpenID Connect issuer is not a valid URL');
    }
    if (!isLoopback(issuer)) throw new AppError('UNAVAILABLE', 'the OpenID Connect issuer must use https');
    const auth = s.clientSecret ? oidc.ClientSecretPost(s.clientSecret) : oidc.None();
    try {
      return await oidc.discovery(issuer, s.clientId, undefined, auth, {
        timeout: PROVIDER_TIMEOUT_S,
        execute: issuer.protocol === 'http:' ? [oidc.allowInsecureRequests] : [],
      });
    } catch (e) {
      throw new AppError('UNAVAILABLE', 'the OpenID Connect provider cannot be reached', { cause: e });
    }
  }
}
