import type { Database } from 'bun:sqlite';

/** Index of cached preview files by the real path of their source, so deletes and renames can evict them. */
export class PreviewCacheStore {
  constructor(private readonly db: Database) {}

  add(realPath: string, file: string, bytes: number): void {
    this.db.query('INSERT OR REPLACE INTO preview_cache (real_path, file, bytes, used_at) VALUES (?, ?, ?, ?)').run(realPath, file, bytes, Date.now());
  }

  touch(file: string): void {
    this.db.query('UPDATE preview_cache SET used_at = ? WHERE file = ?').run(Date.now(), file);
  }

  /** Removes and returns the cache files of a path and everything beneath it. */
  takeUnder(realPath: string): string[] {
    const base = realPath.replace(/\/+$/, '');
    const rows = this.db
      .query('DELETE FROM preview_cache WHERE real_path = ?1 OR substr(real_path, 1, ?2) = ?3 RETURNING file')
      .all(base, base.length + 1, base + '/') as { file: string }[];
    return rows.map((r) => r.file);
  }

  totalBytes(): number {
    return (this.db.query('SELECT coalesce(sum(bytes), 0) AS n FROM preview_cache').get() as { n: number }).n;
  }

  /** Removes and returns the least recently used entries until at most `keepBytes` remain. */
  takeOldest(keepBytes: number): string[] {
    const out: string[] = [];
    let total = this.totalBytes();
    for (const r of this.db.query('SELECT file, bytes FROM preview_cache ORDER BY used_at').all() as { file: string; bytes: number }[]) {
      if (total <= keepBytes) break;
      this.db.query('DELETE FROM preview_cache WHERE file = ?').run(r.file);
      total -= r.bytes;
      out.push(r.file);
    }
    return out;
  }
}
