import type { Sql } from './sql';

export interface SessionRow {
  id: string;
  userId: number;
  createdAt: number;
  expiresAt: number;
}

const SELECT = 'SELECT id, user_id AS "userId", created_at AS "createdAt", expires_at AS "expiresAt" FROM sessions';
const row = (r: SessionRow | null): SessionRow | null => (r ? { ...r, createdAt: Number(r.createdAt), expiresAt: Number(r.expiresAt) } : null);

/** Server-side login sessions; a token is valid only while its row exists (shared by every instance). */
export class SessionsStore {
  constructor(private readonly db: Sql) {}

  /** The same store inside a transaction. */
  with(tx: Sql): SessionsStore {
    return new SessionsStore(tx);
  }

  async create(s: SessionRow): Promise<void> {
    await this.db.run('INSERT INTO sessions (id, user_id, created_at, expires_at) VALUES (?, ?, ?, ?)', s.id, s.userId, s.createdAt, s.expiresAt);
  }

  async get(id: string): Promise<SessionRow | null> {
    return row(await this.db.get<SessionRow>(`${SELECT} WHERE id = ?`, id));
  }

  async delete(id: string): Promise<boolean> {
    return (await this.db.run('DELETE FROM sessions WHERE id = ?', id)).changes > 0;
  }

  /** Replaces one session by another atomically; false when the old one was already gone. */
  async replace(oldId: string, next: SessionRow): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      if ((await tx.run('DELETE FROM sessions WHERE id = ?', oldId)).changes === 0) return false;
      await this.with(tx).create(next);
      return true;
    });
  }

  /** Ends every session of a user, except optionally one. Returns how many ended. */
  async deleteForUser(userId: number, exceptId?: string): Promise<number> {
    return (await this.db.run('DELETE FROM sessions WHERE user_id = ? AND id != ?', userId, exceptId ?? '')).changes;
  }

  async countForUser(userId: number): Promise<number> {
    return Number((await this.db.get<{ n: number }>('SELECT count(*) AS n FROM sessions WHERE user_id = ?', userId))!.n);
  }

  /** Keeps only the newest `keep` sessions of a user (a stolen password cannot mint unlimited sessions). */
  async trimForUser(userId: number, keep: number): Promise<number> {
    return (await this.db.run('DELETE FROM sessions WHERE user_id = ?1 AND id NOT IN (SELECT id FROM sessions WHERE user_id = ?1 ORDER BY created_at DESC LIMIT ?2)', userId, keep)).changes;
  }

  async deleteExpired(now: number): Promise<number> {
    return (await this.db.run('DELETE FROM sessions WHERE expires_at < ?', now)).changes;
  }
}
