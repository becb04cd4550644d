import type { PermName } from '../contract/user';
import type { Sql } from './sql';

/** One personal API token as stored: the secret only as its SHA-256 (base64url). */
export interface ApiTokenRow {
  id: string;
  userId: number;
  name: string;
  secretHash: string;
  perm: PermName[];
  /** The folder it is limited to (virtual path in the owner's scope), or null. */
  path: string | null;
  readOnly: boolean;
  createdAt: number;
  expiresAt: number | null;
  lastUsedAt: number | null;
}

interface Raw {
  id: string;
  userId: number;
  name: string;
  secretHash: string;
  perm: string;
  path: string | null;
  readOnly: number | boolean;
  createdAt: number;
  expiresAt: number | null;
  lastUsedAt: number | null;
}

const SELECT = 'SELECT id, user_id AS "userId", name, secret_hash AS "secretHash", perm, path, read_only AS "readOnly", created_at AS "createdAt", expires_at AS "expiresAt", last_used_at AS "lastUsedAt" FROM api_tokens';
const num = (v: number | null) => (v === null || v === undefined ? null : Number(v));
const fromRaw = (r: Raw): ApiTokenRow => ({
  ...r,
  userId: Number(r.userId),
  perm: JSON.parse(r.perm) as PermName[],
  path: r.path ?? null,
  readOnly: !!Number(r.readOnly),
  createdAt: Number(r.createdAt),
  expiresAt: num(r.expiresAt),
  lastUsedAt: num(r.lastUsedAt),
});

/** SQL for api_tokens. A deleted user's rows go with them (ON DELETE CASCADE). */
export class ApiTokensStore {
  constructor(private readonly db: Sql) {}

  async insert(t: ApiTokenRow): Promise<void> {
    await this.db.run(
      'INSERT INTO api_tokens (id, user_id, name, secret_hash, perm, path, read_only, created_at, expires_at, last_used_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
      t.id, t.userId, t.name, t.secretHash, JSON.stringify(t.perm), t.path, t.readOnly ? 1 : 0, t.createdAt, t.expiresAt, t.lastUsedAt,
    );
  }

  async get(id: string): Promise<ApiTokenRow | null> {
    const r = await this.db.get<Raw>(`${SELECT} WHERE id = ?`, id);
    return r ? fromRaw(r) : null;
  }

  async byUser(userId: number): Promise<ApiTokenRow[]> {
    return (await this.db.all<Raw>(`${SELECT} WHERE user_id = ? ORDER BY created_at DESC, id`, userId)).map(fromRaw);
  }

  async countForUser(userId: number): Promise<number> {
    return Number((await this.db.get<{ n: number }>('SELECT count(*) AS n FROM api_tokens WHERE user_id = ?', userId))!.n);
  }

  async nameTaken(userId: number, name: string): Promise<boolean> {
    return !!(await this.db.get('SELECT 1 AS one FROM api_tokens WHERE user_id = ? AND name = ?', userId, name));
  }

  async delete(id: string): Promise<boolean> {
    return (await this.db.run('DELETE FROM api_tokens WHERE id = ?', id)).changes > 0;
  }

  async touch(id: string, at: number): Promise<void> {
    await this.db.run('UPDATE api_tokens SET last_used_at = ? WHERE id = ?', at, id);
  }

  /** The database's change mark (sql.ts): equal marks mean no row changed in between. */
  changeMark(): Promise<string | null> {
    return this.db.changeMark();
  }

  changeMarkNow(): string | undefined {
    return this.db.changeMarkNow();
  }
}
