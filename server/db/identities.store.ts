import type { Sql } from './sql';

export type IdentityProvider = 'oidc' | 'ldap';

export interface IdentityRow {
  provider: IdentityProvider;
  /** The OIDC issuer URL, or the LDAP server URL. */
  issuer: string;
  /** The OIDC `sub`; for LDAP the entryUUID, else the DN. */
  subject: string;
  userId: number;
  createdAt: number;
  lastLoginAt: number;
}

const SELECT = 'SELECT provider, issuer, subject, user_id AS "userId", created_at AS "createdAt", last_login_at AS "lastLoginAt" FROM identities';
const row = (r: IdentityRow | null): IdentityRow | null => (r ? { ...r, userId: Number(r.userId), createdAt: Number(r.createdAt), lastLoginAt: Number(r.lastLoginAt) } : null);

/** Accounts of a directory (OIDC, LDAP) linked to Filedeck users: by (provider, issuer, subject), never by name. */
export class IdentitiesStore {
  constructor(private readonly db: Sql) {}

  async find(provider: IdentityProvider, issuer: string, subject: string): Promise<IdentityRow | null> {
    return row(await this.db.get<IdentityRow>(`${SELECT} WHERE provider = ? AND issuer = ? AND subject = ?`, provider, issuer, subject));
  }

  async forUser(userId: number): Promise<IdentityRow[]> {
    return (await this.db.all<IdentityRow>(`${SELECT} WHERE user_id = ? ORDER BY created_at`, userId)).map((r) => row(r)!);
  }

  /** True when the user has any identity of this provider (an LDAP-linked user never falls back to a local password). */
  async linked(userId: number, provider: IdentityProvider): Promise<boolean> {
    return !!(await this.db.get('SELECT 1 AS one FROM identities WHERE user_id = ? AND provider = ?', userId, provider));
  }

  /** Links; false when that identity is already linked (to anyone: the first link stands). */
  async link(r: Omit<IdentityRow, 'lastLoginAt'>): Promise<boolean> {
    const res = await this.db.run(
      'INSERT INTO identities (provider, issuer, subject, user_id, created_at, last_login_at) VALUES (?, ?, ?, ?, ?, 0) ON CONFLICT (provider, issuer, subject) DO NOTHING',
      r.provider, r.issuer, r.subject, r.userId, r.createdAt,
    );
    return res.changes > 0;
  }

  async touch(provider: IdentityProvider, issuer: string, subject: string, at: number): Promise<void> {
    await this.db.run('UPDATE identities SET last_login_at = ? WHERE provider = ? AND issuer = ? AND subject = ?', at, provider, issuer, subject);
  }

  async unlink(userId: number, provider?: IdentityProvider): Promise<number> {
    return provider
      ? (await this.db.run('DELETE FROM identities WHERE user_id = ? AND provider = ?', userId, provider)).changes
      : (await this.db.run('DELETE FROM identities WHERE user_id = ?', userId)).changes;
  }
}
