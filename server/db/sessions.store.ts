import type { Sql } from './sql';

export interface SessionRow {
  id: string;
  userId: number;
  createdAt: number;
  expiresAt: number;
  /** Set once the session was renewed: the successor a second renew of this one answers with. */
  replacedBy?: string | null;
  /** The renewal chain this session belongs to: the id of the chain's first session (its own id when it starts one). */
  family?: string | null;
  /** How it started (LoginMethod); a renewed session keeps its predecessor's. */
  method?: string;
  /** The client's address and a short description of its User-Agent at login. */
  address?: string;
  device?: string;
  /** When a request last used it (written at most once a minute, see touch). */
  lastSeenAt?: number;
}

const SELECT = 'SELECT id, user_id AS "userId", created_at AS "createdAt", expires_at AS "expiresAt", replaced_by AS "replacedBy", family, method, address, device, last_seen_at AS "lastSeenAt" FROM sessions';
const row = (r: SessionRow | null): SessionRow | null => (r ? { ...r, createdAt: Number(r.createdAt), expiresAt: Number(r.expiresAt), replacedBy: r.replacedBy ?? null, family: r.family ?? r.id, lastSeenAt: Number(r.lastSeenAt ?? 0) } : null);

/** Server-side login sessions; a token is valid only while its row exists (shared by every instance). */
export class SessionsStore {
  constructor(private readonly db: Sql) {}

  /** The same store inside a transaction. */
  with(tx: Sql): SessionsStore {
    return new SessionsStore(tx);
  }

  async create(s: SessionRow): Promise<void> {
    await this.db.run(
      'INSERT INTO sessions (id, user_id, created_at, expires_at, family, method, address, device, last_seen_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
      s.id, s.userId, s.createdAt, s.expiresAt, s.family ?? s.id, s.method ?? 'password', s.address ?? '', s.device ?? '', s.lastSeenAt ?? s.createdAt,
    );
  }

  async get(id: string): Promise<SessionRow | null> {
    return row(await this.db.get<SessionRow>(`${SELECT} WHERE id = ?`, id));
  }

  async delete(id: string): Promise<boolean> {
    return (await this.db.run('DELETE FROM sessions WHERE id = ?', id)).changes > 0;
  }

  /**
   * Renews a session, atomically: the first renew of `oldId` stores `next` and keeps the old row only until
   * `graceUntil`, pointing at `next`; a renew that finds the old row already renewed gets that same successor.
   * Null when the old session is gone (logged out, revoked, expired, or past its grace window).
   */
  async renew(oldId: string, next: SessionRow, graceUntil: number): Promise<SessionRow | null> {
    return this.db.transaction(async (tx) => {
      // The conditional update is the lock: of two concurrent renews, exactly one changes the row.
      const won = await tx.run('UPDATE sessions SET replaced_by = ?, expires_at = CASE WHEN expires_at < ? THEN expires_at ELSE ? END WHERE id = ? AND replaced_by IS NULL AND expires_at >= ?', next.id, graceUntil, graceUntil, oldId, next.createdAt);
      if (won.changes === 1) {
        // The successor joins the predecessor's family, so ending any token of the chain ends all of them.
        const old = await this.with(tx).get(oldId);
        const made = { ...next, family: old?.family ?? oldId, method: old?.method, address: old?.address, device: old?.device };
        await this.with(tx).create(made);
        return made;
      }
      const old = await this.with(tx).get(oldId);
      if (!old?.replacedBy || old.expiresAt < next.createdAt) return null;
      return this.with(tx).get(old.replacedBy);
    });
  }

  /**
   * Ends a session with its whole renewal family (every predecessor still in its grace window and every successor,
   * however many renewals apart) in one statement. Returns the ids that ended (for the callers' caches).
   */
  async deleteFamily(id: string): Promise<string[]> {
    const rows = await this.db.all<{ id: string }>(
      'DELETE FROM sessions WHERE id = ?1 OR family = (SELECT COALESCE(family, id) FROM sessions WHERE id = ?1) RETURNING id',
      id,
    );
    return rows.map((r) => r.id);
  }

  /** Ends every session of a user, except optionally one. Returns how many ended. */
  async deleteForUser(userId: number, exceptId?: string): Promise<number> {
    return (await this.db.run('DELETE FROM sessions WHERE user_id = ? AND id != ?', userId, exceptId ?? '')).changes;
  }

  /**
   * Ends every session of a user except one renewal family (the caller's: its predecessors in their grace window and
   * its successor stay). Returns the ids that ended.
   */
  async deleteForUserExceptFamily(userId: number, family: string): Promise<string[]> {
    const rows = await this.db.all<{ id: string }>('DELETE FROM sessions WHERE user_id = ? AND COALESCE(family, id) != ? RETURNING id', userId, family);
    return rows.map((r) => r.id);
  }

  /** Records that a request used the session (the caller throttles: at most once a minute per session). */
  async touch(id: string, at: number): Promise<void> {
    await this.db.run('UPDATE sessions SET last_seen_at = ? WHERE id = ? AND last_seen_at < ?', at, id, at);
  }

  /** Ends every session of every user. Returns how many ended. */
  async deleteAll(): Promise<number> {
    return (await this.db.run('DELETE FROM sessions')).changes;
  }

  /** Sessions still valid at `now` (renewed predecessors excluded), newest first, optionally of one user. */
  async list(now: number, userId?: number): Promise<SessionRow[]> {
    const where = `WHERE expires_at >= ? AND replaced_by IS NULL${userId === undefined ? '' : ' AND user_id = ?'}`;
    const rows = await this.db.all<SessionRow>(`${SELECT} ${where} ORDER BY created_at DESC`, now, ...(userId === undefined ? [] : [userId]));
    return rows.map((r) => row(r)!);
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
