import type { Sql } from './sql';

/** One WebDAV lock as stored (migration 22). */
export interface DavLockRow {
  /** The lock token, `urn:uuid:…`. */
  token: string;
  /** The lock root relative to the files root: '/' or '/a/b' (never a user's virtual path). */
  root: string;
  ownerId: number;
  scope: 'exclusive' | 'shared';
  depth: '0' | 'infinity';
  ownerXml: string;
  /** The timeout granted, in seconds (what a refresh grants again unless it asks otherwise). */
  timeoutS: number;
  createdAt: number;
  expiresAt: number;
}

const SELECT = `SELECT token, root, owner_id AS "ownerId", scope, depth, owner_xml AS "ownerXml", timeout_s AS "timeoutS",
  created_at AS "createdAt", expires_at AS "expiresAt" FROM dav_locks`;
const fromRow = (r: DavLockRow): DavLockRow => ({ ...r, ownerId: Number(r.ownerId), timeoutS: Number(r.timeoutS), createdAt: Number(r.createdAt), expiresAt: Number(r.expiresAt) });

/** Strictly beneath `root` (no LIKE: names may hold % and _). */
const BELOW = 'substr(root, 1, ?) = ?';
const belowParams = (root: string) => {
  const prefix = root === '/' ? '/' : `${root}/`;
  return [prefix.length, prefix];
};

/** The PostgreSQL advisory lock key that orders lock decisions across instances (an arbitrary constant of ours). */
const DAV_LOCKS_KEY = 36;

/** SQL for the dav_locks table. Live rows are those with `expires_at` after the caller's clock. */
export class DavLocksStore {
  constructor(private readonly db: Sql) {}

  /** The same store inside a transaction. */
  with(tx: Sql): DavLocksStore {
    return new DavLocksStore(tx);
  }

  transaction<T>(fn: (store: DavLocksStore) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => fn(this.with(tx)));
  }

  /**
   * PostgreSQL: holds the one lock-decision lock until the transaction ends, so instances decide conflicting LOCKs
   * one after the other (SQLite: the transaction already holds the one connection).
   */
  async decideAlone(): Promise<void> {
    if (this.db.engine === 'postgres') await this.db.get('SELECT pg_advisory_xact_lock(?, 0)', DAV_LOCKS_KEY);
  }

  async insert(r: DavLockRow): Promise<void> {
    await this.db.run(
      'INSERT INTO dav_locks (token, root, owner_id, scope, depth, owner_xml, timeout_s, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
      r.token, r.root, r.ownerId, r.scope, r.depth, r.ownerXml, r.timeoutS, r.createdAt, r.expiresAt,
    );
  }

  async byToken(token: string, now: number): Promise<DavLockRow | null> {
    const r = await this.db.get<DavLockRow>(`${SELECT} WHERE token = ? AND expires_at > ?`, token, now);
    return r ? fromRow(r) : null;
  }

  /** Live locks rooted exactly at one of `roots` (a path and its ancestors: the caller filters by depth). */
  async rootedAt(roots: string[], now: number): Promise<DavLockRow[]> {
    if (roots.length === 0) return [];
    const marks = roots.map(() => '?').join(', ');
    return (await this.db.all<DavLockRow>(`${SELECT} WHERE root IN (${marks}) AND expires_at > ?`, ...roots, now)).map(fromRow);
  }

  /** Live locks rooted strictly beneath `root`. */
  async below(root: string, now: number): Promise<DavLockRow[]> {
    return (await this.db.all<DavLockRow>(`${SELECT} WHERE ${BELOW} AND root <> ? AND expires_at > ?`, ...belowParams(root), root, now)).map(fromRow);
  }

  /** Whether any live lock exists at all (a listing of a folder without locks then asks nothing per entry). */
  async anyLive(now: number): Promise<boolean> {
    return (await this.db.get('SELECT 1 AS one FROM dav_locks WHERE expires_at > ? LIMIT 1', now)) !== null;
  }

  /** Live locks one user holds (the per-user cap). */
  async countOwned(ownerId: number, now: number): Promise<number> {
    const r = await this.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM dav_locks WHERE owner_id = ? AND expires_at > ?', ownerId, now);
    return Number(r?.n ?? 0);
  }

  /** A refresh: the lock lives `timeoutS` from now. False when it expired or went meanwhile. */
  async refresh(token: string, timeoutS: number, expiresAt: number, now: number): Promise<boolean> {
    return (await this.db.run('UPDATE dav_locks SET timeout_s = ?, expires_at = ? WHERE token = ? AND expires_at > ?', timeoutS, expiresAt, token, now)).changes > 0;
  }

  async delete(token: string): Promise<boolean> {
    return (await this.db.run('DELETE FROM dav_locks WHERE token = ?', token)).changes > 0;
  }

  /** Every lock rooted at `root` or beneath it (the resource moved away or is gone). */
  async deleteUnder(root: string): Promise<number> {
    return (await this.db.run(`DELETE FROM dav_locks WHERE root = ? OR ${BELOW}`, root, ...belowParams(root))).changes;
  }

  /** Drops locks that expired before `now`. */
  async sweep(now: number): Promise<number> {
    return (await this.db.run('DELETE FROM dav_locks WHERE expires_at <= ?', now)).changes;
  }
}
