import type { Sql } from './sql';

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

const SELECT = 'SELECT hash, path, user_id AS "userId", expire, password_hash AS "passwordHash", token, target, target_id AS "targetId" FROM shares';
const fromRow = (r: ShareRow): ShareRow => ({ ...r, expire: Number(r.expire) });

/** SQL for shares. Callers must never send passwordHash or token to clients. */
export class SharesStore {
  constructor(private readonly db: Sql) {}

  async all(): Promise<ShareRow[]> {
    return (await this.db.all<ShareRow>(`${SELECT} ORDER BY user_id, path`)).map(fromRow);
  }

  async byUser(userId: number): Promise<ShareRow[]> {
    return (await this.db.all<ShareRow>(`${SELECT} WHERE user_id = ? ORDER BY path`, userId)).map(fromRow);
  }

  /** True when any link exists (a root never recorded is then expected to hold files). */
  async any(): Promise<boolean> {
    return !!(await this.db.get('SELECT 1 AS one FROM shares LIMIT 1'));
  }

  async byHash(hash: string): Promise<ShareRow | null> {
    const r = await this.db.get<ShareRow>(`${SELECT} WHERE hash = ?`, hash);
    return r ? fromRow(r) : null;
  }

  async byPath(userId: number, path: string): Promise<ShareRow[]> {
    return (await this.db.all<ShareRow>(`${SELECT} WHERE user_id = ? AND path = ?`, userId, path)).map(fromRow);
  }

  async insert(s: ShareRow): Promise<void> {
    await this.db.run(
      'INSERT INTO shares (hash, path, user_id, expire, password_hash, token, target, target_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
      s.hash, s.path, s.userId, s.expire, s.passwordHash, s.token, s.target, s.targetId, Date.now(),
    );
  }

  /** Stores a changed lifetime, password hash and token. */
  async update(s: Pick<ShareRow, 'hash' | 'expire' | 'passwordHash' | 'token'>): Promise<boolean> {
    return (await this.db.run('UPDATE shares SET expire = ?, password_hash = ?, token = ? WHERE hash = ?', s.expire, s.passwordHash, s.token, s.hash)).changes > 0;
  }

  async delete(hash: string): Promise<boolean> {
    return (await this.db.run('DELETE FROM shares WHERE hash = ?', hash)).changes > 0;
  }

  /** Pins a share made before pinning existed (or refreshes its displayed path). */
  async pin(hash: string, path: string, target: string, targetId: string): Promise<void> {
    await this.db.run('UPDATE shares SET path = ?, target = ?, target_id = ? WHERE hash = ?', path, target, targetId, hash);
  }

  /** Shares of one real location, whoever owns them. */
  async byTarget(target: string): Promise<ShareRow[]> {
    return (await this.db.all<ShareRow>(`${SELECT} WHERE target = ?`, target)).map(fromRow);
  }

  /** The item at `target` now holds new bytes under a new identity (a save or an override replaced the file). */
  async retarget(target: string, targetId: string): Promise<number> {
    return (await this.db.run('UPDATE shares SET target_id = ? WHERE target = ?', targetId, target)).changes;
  }

  /** Ends every share of a real location or beneath it, whoever owns it. */
  async deleteUnderTarget(target: string): Promise<number> {
    const base = target.replace(/\/+$/, '');
    return (await this.db.run('DELETE FROM shares WHERE target = ? OR substr(target, 1, ?) = ?', base, base.length + 1, base + '/')).changes;
  }

  /** Every share of a real location or beneath it follows a move of `from` to `to`, whoever owns it. */
  async moveTarget(from: string, to: string): Promise<number> {
    const f = from.replace(/\/+$/, '');
    const t = to.replace(/\/+$/, '');
    return (await this.db.run('UPDATE shares SET target = CAST(? AS TEXT) || substr(target, ?) WHERE target = ? OR substr(target, 1, ?) = ?', t, f.length + 1, f, f.length + 1, f + '/')).changes;
  }
}
