import type { Sql } from './sql';

/** What an OIDC login keeps between the redirect to the provider and its callback (10 minutes, single use). */
export interface SsoFlow {
  state: string;
  nonce: string;
  /** The PKCE code verifier (the provider only ever saw its S256 challenge). */
  verifier: string;
  /** Where the web app goes after the login (a path under baseURL, already checked). */
  redirect: string;
  expiresAt: number;
}

/** The one-time code the callback hands to the login page, exchanged for a session by POST /api/login/sso (60 s). */
export interface SsoCode {
  userId: number;
  redirect: string;
  /** The ID token, kept server-side for RP-initiated logout (id_token_hint); '' when there is none. */
  idToken: string;
}

/**
 * OIDC state between requests: rows, not process memory, so any instance on PostgreSQL may answer the callback.
 * Every take is a DELETE … RETURNING: of two concurrent uses of one state or code exactly one gets it.
 */
export class SsoFlowsStore {
  constructor(private readonly db: Sql) {}

  async saveFlow(f: SsoFlow, now: number): Promise<void> {
    await this.db.run('DELETE FROM sso_flows WHERE expires_at <= ?', now);
    await this.db.run('INSERT INTO sso_flows (state, nonce, verifier, redirect, expires_at) VALUES (?, ?, ?, ?, ?)', f.state, f.nonce, f.verifier, f.redirect, f.expiresAt);
  }

  /** Takes (deletes) the flow of a state; null when unknown, used or expired. */
  async takeFlow(state: string, now: number): Promise<SsoFlow | null> {
    const r = await this.db.get<SsoFlow>('DELETE FROM sso_flows WHERE state = ? RETURNING state, nonce, verifier, redirect, expires_at AS "expiresAt"', state);
    return r && Number(r.expiresAt) > now ? { ...r, expiresAt: Number(r.expiresAt) } : null;
  }

  /** Stores a code by its SHA-256 (a leaked table gives no usable code). */
  async saveCode(codeHash: string, c: SsoCode, expiresAt: number, now: number): Promise<void> {
    await this.db.run('DELETE FROM sso_codes WHERE expires_at <= ?', now);
    await this.db.run('INSERT INTO sso_codes (code, user_id, redirect, id_token, expires_at) VALUES (?, ?, ?, ?, ?)', codeHash, c.userId, c.redirect, c.idToken, expiresAt);
  }

  async takeCode(codeHash: string, now: number): Promise<SsoCode | null> {
    const r = await this.db.get<SsoCode & { expiresAt: number }>('DELETE FROM sso_codes WHERE code = ? RETURNING user_id AS "userId", redirect, id_token AS "idToken", expires_at AS "expiresAt"', codeHash);
    return r && Number(r.expiresAt) > now ? { userId: Number(r.userId), redirect: r.redirect, idToken: r.idToken } : null;
  }

  /** The ID token of an OIDC session, keyed by its renewal family (every renewed token logs out the same way). */
  async saveLogout(family: string, idToken: string, expiresAt: number, now: number): Promise<void> {
    await this.db.run('DELETE FROM sso_logouts WHERE expires_at <= ?', now);
    await this.db.run('INSERT INTO sso_logouts (family, id_token, expires_at) VALUES (?, ?, ?) ON CONFLICT (family) DO UPDATE SET id_token = excluded.id_token, expires_at = excluded.expires_at', family, idToken, expiresAt);
  }

  async takeLogout(family: string): Promise<string | null> {
    const r = await this.db.get<{ idToken: string }>('DELETE FROM sso_logouts WHERE family = ? RETURNING id_token AS "idToken"', family);
    return r?.idToken ?? null;
  }
}
