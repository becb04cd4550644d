import type { Database } from 'bun:sqlite';

export interface ShareRow {
  hash: string;
  path: string;
  userId: number;
  expire: number;
  passwordHash: string;
  token: string;
}

const SELECT = 'SELECT hash, path, user_id AS userId, expire, password_hash AS passwordHash, token FROM shares';

/** SQL for shares. Callers must never send passwordHash or token to clients. */
export class SharesStore {
  constructor(private readonly db: Database) {}

  all(): ShareRow[] {
    return this.db.query(`${SELECT} ORDER BY user_id, path`).all() as ShareRow[];
  }

  byUser(userId: number): ShareRow[] {
    return this.db.query(`${SELECT} WHERE user_id = ? ORDER BY path`).all(userId) as ShareRow[];
  }

  byHash(hash: string): ShareRow | null {
    return (this.db.query(`${SELECT} WHERE hash = ?`).get(hash) as ShareRow | null) ?? null;
  }

  byPath(userId: number, path: string): ShareRow[] {
    return this.db.query(`${SELECT} WHERE user_id = ? AND path = ?`).all(userId, path) as ShareRow[];
  }

  insert(s: ShareRow): void {
    this.db
      .query('INSERT INTO shares (hash, path, user_id, expire, password_hash, token, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)')
      .run(s.hash, s.path, s.userId, s.expire, s.passwordHash, s.token, Date.now());
  }

  delete(hash: string): boolean {
    return this.db.query('DELETE FROM shares WHERE hash = ?').run(hash).changes > 0;
  }

  /** Removes a user's shares at a path or beneath it. */
  deleteUnder(userId: number, path: string): number {
    const base = path.replace(/\/+$/, '');
    return this.db
      .query(`DELETE FROM shares WHERE user_id = ? AND (path = ? OR path = ? OR substr(path, 1, ?) = ?)`)
      .run(userId, base || '/', base + '/', base.length + 1, base + '/').changes;
  }

  /** Rewrites a user's share paths after a move/rename of `from` to `to`. */
  movePrefix(userId: number, from: string, to: string): number {
    const f = from.replace(/\/+$/, '');
    const t = to.replace(/\/+$/, '');
    return this.db
      .query(`UPDATE shares SET path = ? || substr(path, ?) WHERE user_id = ? AND (path = ? OR substr(path, 1, ?) = ?)`)
      .run(t, f.length + 1, userId, f, f.length + 1, f + '/').changes;
  }
}
