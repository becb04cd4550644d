import type { Sql } from './sql';

/** Index of cached preview files by the real path of their source, so deletes and renames can evict them. */
export class PreviewCacheStore {
  constructor(private readonly db: Sql) {}

  async add(realPath: string, file: string, bytes: number): Promise<void> {
    await this.db.run(
      'INSERT INTO preview_cache (real_path, file, bytes, used_at) VALUES (?, ?, ?, ?) ON CONFLICT (file) DO UPDATE SET real_path = excluded.real_path, bytes = excluded.bytes, used_at = excluded.used_at',
      realPath, file, bytes, Date.now(),
    );
  }

  async touch(file: string): Promise<void> {
    await this.db.run('UPDATE preview_cache SET used_at = ? WHERE file = ?', Date.now(), file);
  }

  /** Removes and returns the cache files of a path and everything beneath it. */
  async takeUnder(realPath: string): Promise<string[]> {
    const base = realPath.replace(/\/+$/, '');
    const rows = await this.db.all<{ file: string }>('DELETE FROM preview_cache WHERE real_path = ?1 OR substr(real_path, 1, ?2) = ?3 RETURNING file', base, base.length + 1, base + '/');
    return rows.map((r) => r.file);
  }

  async totalBytes(): Promise<number> {
    return Number((await this.db.get<{ n: number }>('SELECT coalesce(sum(bytes), 0) AS n FROM preview_cache'))!.n);
  }

  /** Removes and returns the least recently used entries until at most `keepBytes` remain. */
  async takeOldest(keepBytes: number): Promise<string[]> {
    let total = await this.totalBytes();
    if (total <= keepBytes) return [];
    const out: string[] = [];
    for (const r of await this.db.all<{ file: string; bytes: number }>('SELECT file, bytes FROM preview_cache ORDER BY used_at')) {
      if (total <= keepBytes) break;
      await this.db.run('DELETE FROM preview_cache WHERE file = ?', r.file);
      total -= Number(r.bytes);
      out.push(r.file);
    }
    return out;
  }
}
