import type { Database } from 'bun:sqlite';

export interface UploadRow {
  userId: number;
  path: string;
  tempPath: string;
  length: number;
  override: boolean;
  expiresAt: number;
}

const SELECT = 'SELECT user_id AS userId, path, temp_path AS tempPath, length, override, expires_at AS expiresAt FROM uploads';

/** Resumable (tus) uploads in progress; rows outlive restarts so their temp files can always be cleaned up. */
export class UploadsStore {
  constructor(private readonly db: Database) {}

  get(userId: number, path: string): UploadRow | null {
    const r = this.db.query(`${SELECT} WHERE user_id = ? AND path = ?`).get(userId, path) as (Omit<UploadRow, 'override'> & { override: number }) | null;
    return r ? { ...r, override: !!r.override } : null;
  }

  put(u: UploadRow): void {
    this.db
      .query('INSERT OR REPLACE INTO uploads (user_id, path, temp_path, length, override, expires_at) VALUES (?, ?, ?, ?, ?, ?)')
      .run(u.userId, u.path, u.tempPath, u.length, u.override ? 1 : 0, u.expiresAt);
  }

  touch(userId: number, path: string, expiresAt: number): void {
    this.db.query('UPDATE uploads SET expires_at = ? WHERE user_id = ? AND path = ?').run(expiresAt, userId, path);
  }

  delete(userId: number, path: string): void {
    this.db.query('DELETE FROM uploads WHERE user_id = ? AND path = ?').run(userId, path);
  }

  expired(now: number): UploadRow[] {
    return (this.db.query(`${SELECT} WHERE expires_at < ?`).all(now) as (Omit<UploadRow, 'override'> & { override: number })[]).map((r) => ({ ...r, override: !!r.override }));
  }
}
