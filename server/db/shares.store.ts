import type { Database } from 'bun:sqlite';

export interface ShareRow {
  hash: string;
  path: string;
  userId: number;
  expire: number;
  passwordHash: string;
  token: string;
  /** Real location of the shared item when it was shared (followed through moves); '' for links made before pinning. */
  target: string;
  /** identityOf() the shared item; a different item found at `target` ends the link. */
  targetId: string;
}

const SELECT = 'SELECT hash, path, user_id AS userId, expire, password_hash AS passwordHash, token, target, target_id AS targetId FROM shares';

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
      .query('INSERT INTO shares (hash, path, user_id, expire, password_hash, token, target, target_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)')
      .run(s.hash, s.path, s.userId, s.expire, s.passwordHash, s.token, s.target, s.targetId, Date.now());
  }

  delete(hash: string): boolean {
    return this.db.query('DELETE FROM shares WHERE hash = ?').run(hash).changes > 0;
  }

  /** Pins a share made before pinning existed (or refreshes its displayed path). */
  pin(hash: string, path: string, target: string, targetId: string): void {
    this.db.query('UPDATE shares SET path = ?, target = ?, target_id = ? WHERE hash = ?').run(path, target, targetId, hash);
  }

  /** Shares of one real location, whoever owns them. */
  byTarget(target: string): ShareRow[] {
    return this.db.query(`${SELECT} WHERE target = ?`).all(target) as ShareRow[];
  }

  /** The item at `target` now holds new bytes under a new identity (a save or an override replaced the file). */
  retarget(target: string, targetId: string): number {
    return this.db.query('UPDATE shares SET target_id = ? WHERE target = ?').run(targetId, target).changes;
  }

  /** Ends every share of a real location or beneath it, whoever owns it. */
  deleteUnderTarget(target: string): number {
    const base = target.replace(/\/+$/, '');
    return this.db.query('DELETE FROM shares WHERE target = ? OR substr(target, 1, ?) = ?').run(base, base.length + 1, base + '/').changes;
  }

  /** Every share of a real location or beneath it follows a move of `from` to `to`, whoever owns it. */
  moveTarget(from: string, to: string): number {
    const f = from.replace(/\/+$/, '');
    const t = to.replace(/\/+$/, '');
    return this.db
      .query('UPDATE shares SET target = ? || substr(target, ?) WHERE target = ? OR substr(target, 1, ?) = ?')
      .run(t, f.length + 1, f, f.length + 1, f + '/').changes;
  }
}
