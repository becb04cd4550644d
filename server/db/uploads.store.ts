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

  async touch(userId: number, path: string, expiresAt: number): Promise<void> {
    await this.db.run('UPDATE uploads SET expires_at = ? WHERE user_id = ? AND path = ?', expiresAt, userId, path);
  }

  async delete(userId: number, path: string): Promise<void> {
    await this.db.run('DELETE FROM uploads WHERE user_id = ? AND path = ?', userId, path);
  }

  async expired(now: number): Promise<UploadRow[]> {
    return (await this.db.all<Raw>(`${SELECT} WHERE expires_at < ?`, now)).map(fromRow);
  }
}
