import type { Sql } from './sql';

/** One registered WebAuthn credential. */
export interface PasskeyRow {
  /** The credential id (base64url), as the authenticator names it. */
  id: string;
  userId: number;
  name: string;
  /** The COSE public key (base64url). */
  publicKey: string;
  counter: number;
  transports: string[];
  deviceType: string;
  backedUp: boolean;
  createdAt: number;
  lastUsedAt: number | null;
}

type Raw = Omit<PasskeyRow, 'transports' | 'backedUp' | 'counter' | 'createdAt' | 'lastUsedAt' | 'userId'> & {
  userId: number | string; transports: string; backedUp: number; counter: number | string; createdAt: number | string; lastUsedAt: number | string | null;
};
const SELECT = 'SELECT id, user_id AS "userId", name, public_key AS "publicKey", counter, transports, device_type AS "deviceType", backed_up AS "backedUp", created_at AS "createdAt", last_used_at AS "lastUsedAt" FROM passkeys';

function row(r: Raw): PasskeyRow {
  let transports: string[] = [];
  try {
    transports = JSON.parse(r.transports) as string[];
  } catch {
    // A damaged list only loses the browser's hint of how to reach the authenticator.
  }
  return {
    id: r.id, userId: Number(r.userId), name: r.name, publicKey: r.publicKey, counter: Number(r.counter), transports, deviceType: r.deviceType,
    backedUp: !!Number(r.backedUp), createdAt: Number(r.createdAt), lastUsedAt: r.lastUsedAt === null ? null : Number(r.lastUsedAt),
  };
}

/** passkeys: SQL only. */
export class PasskeysStore {
  constructor(private readonly db: Sql) {}

  async byId(id: string): Promise<PasskeyRow | null> {
    const r = await this.db.get<Raw>(`${SELECT} WHERE id = ?`, id);
    return r ? row(r) : null;
  }

  async ofUser(userId: number): Promise<PasskeyRow[]> {
    return (await this.db.all<Raw>(`${SELECT} WHERE user_id = ? ORDER BY created_at, id`, userId)).map(row);
  }

  async count(userId: number): Promise<number> {
    return Number((await this.db.get<{ n: number | string }>('SELECT COUNT(*) AS n FROM passkeys WHERE user_id = ?', userId))?.n ?? 0);
  }

  /** False when the credential id is already registered (to anyone). */
  async insert(p: PasskeyRow): Promise<boolean> {
    const r = await this.db.run(
      `INSERT INTO passkeys (id, user_id, name, public_key, counter, transports, device_type, backed_up, created_at, last_used_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING`,
      p.id, p.userId, p.name, p.publicKey, p.counter, JSON.stringify(p.transports), p.deviceType, p.backedUp ? 1 : 0, p.createdAt, p.lastUsedAt,
    );
    return r.changes === 1;
  }

  /**
   * Records a use, atomically: only when the stored counter is still the one the assertion was checked against
   * (two concurrent uses of one assertion: exactly one wins).
   */
  async used(id: string, expectedCounter: number, counter: number, backedUp: boolean, now: number): Promise<boolean> {
    const r = await this.db.run('UPDATE passkeys SET counter = ?, backed_up = ?, last_used_at = ? WHERE id = ? AND counter = ?', counter, backedUp ? 1 : 0, now, id, expectedCounter);
    return r.changes === 1;
  }

  async rename(userId: number, id: string, name: string): Promise<boolean> {
    return (await this.db.run('UPDATE passkeys SET name = ? WHERE id = ? AND user_id = ?', name, id, userId)).changes === 1;
  }

  async delete(userId: number, id: string): Promise<boolean> {
    return (await this.db.run('DELETE FROM passkeys WHERE id = ? AND user_id = ?', id, userId)).changes === 1;
  }

  async deleteAll(userId: number): Promise<number> {
    return (await this.db.run('DELETE FROM passkeys WHERE user_id = ?', userId)).changes;
  }
}
