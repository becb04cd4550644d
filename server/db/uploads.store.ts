import type { Sql } from './sql';

export interface UploadRow {
  userId: number;
  path: string;
  tempPath: string;
  length: number;
  override: boolean;
  expiresAt: number;
}

type Raw = Omit<UploadRow, 'override'> & { override: number };
const SELECT = 'SELECT user_id AS "userId", path, temp_path AS "tempPath", length, override, expires_at AS "expiresAt" FROM uploads';
const fromRow = (r: Raw): UploadRow => ({ ...r, length: Number(r.length), expiresAt: Number(r.expiresAt), override: !!r.override });

/**
 * Resumable (tus) uploads in progress; rows outlive restarts so their temp files can always be cleaned up, and
 * are shared by every instance, so an upload started on one resumes on another (given a shared files root).
 */
export class UploadsStore {
  constructor(private readonly db: Sql) {}

  async get(userId: number, path: string): Promise<UploadRow | null> {
    const r = await this.db.get<Raw>(`${SELECT} WHERE user_id = ? AND path = ?`, userId, path);
    return r ? fromRow(r) : null;
  }

  async put(u: UploadRow): Promise<void> {
    await this.db.run(
      `INSERT INTO uploads (user_id, path, temp_path, length, override, expires_at) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (user_id, path) DO UPDATE SET temp_path = excluded.temp_path, length = excluded.length, override = excluded.override, expires_at = excluded.expires_at`,
      u.userId, u.path, u.tempPath, u.length, u.override ? 1 : 0, u.expiresAt,
    );
  }

  /**
   * Registers an upload unless a live one holds its user and path (atomically, also across instances): a row
   * expiring after `liveAfter` is live; an older one is replaced. Returns whether it was registered, and the temp
   * file of a stale row it removed (to delete, either way).
   */
  async claim(u: UploadRow, liveAfter: number): Promise<{ ok: boolean; replaced: string | null }> {
    const gone = await this.db.all<{ tempPath: string }>(
      'DELETE FROM uploads WHERE user_id = ? AND path = ? AND expires_at <= ? RETURNING temp_path AS "tempPath"', u.userId, u.path, liveAfter,
    );
    const r = await this.db.run(
      'INSERT INTO uploads (user_id, path, temp_path, length, override, expires_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (user_id, path) DO NOTHING',
      u.userId, u.path, u.tempPath, u.length, u.override ? 1 : 0, u.expiresAt,
    );
    return { ok: r.changes === 1, replaced: gone[0]?.tempPath ?? null };
  }

  /** Every registered temp file (the sweep leaves these to their rows' expiry). */
  async tempPaths(): Promise<Set<string>> {
    return new Set((await this.db.all<{ t: string }>('SELECT temp_path AS t FROM uploads')).map((r) => r.t));
  }

  async touch(userId: number, path: string, expiresAt: number): Promise<void> {
    await this.db.run('UPDATE uploads SET expires_at = ? WHERE user_id = ? AND path = ?', expiresAt, userId, path);
  }

  async delete(userId: number, path: string): Promise<void> {
    await this.db.run('DELETE FROM uploads WHERE user_id = ? AND path = ?', userId, path);
  }

  /** One user's uploads in progress (a user being deleted: each goes, with its temp file). */
  async forUser(userId: number): Promise<UploadRow[]> {
    return (await this.db.all<Raw>(`${SELECT} WHERE user_id = ?`, userId)).map(fromRow);
  }

  async expired(now: number): Promise<UploadRow[]> {
    return (await this.db.all<Raw>(`${SELECT} WHERE expires_at < ?`, now)).map(fromRow);
  }
}
