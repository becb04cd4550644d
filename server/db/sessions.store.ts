import type { Database } from 'bun:sqlite';

export interface SessionRow {
  id: string;
  userId: number;
  createdAt: number;
  expiresAt: number;
}

/** Server-side login sessions; a token is valid only while its row exists. */
export class SessionsStore {
  constructor(private readonly db: Database) {}

  create(s: SessionRow): void {
    this.db.query('INSERT INTO sessions (id, user_id, created_at, expires_at) VALUES (?, ?, ?, ?)').run(s.id, s.userId, s.createdAt, s.expiresAt);
  }

  get(id: string): SessionRow | null {
    const r = this.db.query('SELECT id, user_id AS userId, created_at AS createdAt, expires_at AS expiresAt FROM sessions WHERE id = ?').get(id);
    return (r as SessionRow | null) ?? null;
  }

  delete(id: string): boolean {
    return this.db.query('DELETE FROM sessions WHERE id = ?').run(id).changes > 0;
  }

  /** Replaces one session by another atomically; false when the old one was already gone. */
  replace(oldId: string, next: SessionRow): boolean {
    return this.db.transaction(() => {
      if (this.db.query('DELETE FROM sessions WHERE id = ?').run(oldId).changes === 0) return false;
      this.create(next);
      return true;
    }).immediate();
  }

  /** Ends every session of a user, except optionally one. Returns how many ended. */
  deleteForUser(userId: number, exceptId?: string): number {
    return this.db.query('DELETE FROM sessions WHERE user_id = ? AND id != ?').run(userId, exceptId ?? '').changes;
  }

  countForUser(userId: number): number {
    return (this.db.query('SELECT count(*) AS n FROM sessions WHERE user_id = ?').get(userId) as { n: number }).n;
  }

  /** Keeps only the newest `keep` sessions of a user (a stolen password cannot mint unlimited sessions). */
  trimForUser(userId: number, keep: number): number {
    return this.db
      .query('DELETE FROM sessions WHERE user_id = ?1 AND id NOT IN (SELECT id FROM sessions WHERE user_id = ?1 ORDER BY created_at DESC LIMIT ?2)')
      .run(userId, keep).changes;
  }

  deleteExpired(now: number): number {
    return this.db.query('DELETE FROM sessions WHERE expires_at < ?').run(now).changes;
  }
}
