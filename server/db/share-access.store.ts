import type { ShareAccess } from '../contract/share';
import type { Sql } from './sql';

type Raw = Omit<ShareAccess, 'bytes'> & { bytes: unknown };
const fromRow = (r: Raw): ShareAccess => {
  const out: ShareAccess = { id: Number(r.id), time: Number(r.time), kind: r.kind, path: r.path, address: r.address, agent: r.agent };
  if (r.kind === 'upload') out.bytes = Number(r.bytes);
  return out;
};

/** SQL for the access log of links (migration 24): a bounded list of lines per link. */
export class ShareAccessStore {
  constructor(private readonly db: Sql) {}

  /** Adds a line, then drops the link's lines older than its newest `keep`. */
  async add(hash: string, line: Omit<ShareAccess, 'id'>, keep: number): Promise<void> {
    await this.db.run(
      'INSERT INTO share_access (hash, time, kind, path, address, agent, bytes) VALUES (?, ?, ?, ?, ?, ?, ?)',
      hash, line.time, line.kind, line.path, line.address, line.agent, line.bytes ?? 0,
    );
    // Cheap in the common case: only when the link has more than `keep` lines does anything go.
    const cut = await this.db.get<{ id: unknown }>('SELECT id FROM share_access WHERE hash = ? ORDER BY id DESC LIMIT 1 OFFSET ?', hash, keep);
    if (cut) await this.db.run('DELETE FROM share_access WHERE hash = ? AND id <= ?', hash, Number(cut.id));
  }

  /** Newest first, at most `limit`, below the id `before` when given. */
  async list(hash: string, limit: number, before?: number): Promise<ShareAccess[]> {
    const rows = before
      ? await this.db.all<Raw>('SELECT id, time, kind, path, address, agent, bytes FROM share_access WHERE hash = ? AND id < ? ORDER BY id DESC LIMIT ?', hash, before, limit)
      : await this.db.all<Raw>('SELECT id, time, kind, path, address, agent, bytes FROM share_access WHERE hash = ? ORDER BY id DESC LIMIT ?', hash, limit);
    return rows.map(fromRow);
  }

  /** The log follows a regenerated link (it is the same link under a new name). */
  async rehash(from: string, to: string): Promise<void> {
    await this.db.run('UPDATE share_access SET hash = ? WHERE hash = ?', to, from);
  }

  /** Lines of links that no longer exist (deleted, expired, their owner gone). */
  async sweep(): Promise<number> {
    return (await this.db.run('DELETE FROM share_access WHERE hash NOT IN (SELECT hash FROM shares)')).changes;
  }

  async forget(hash: string): Promise<void> {
    await this.db.run('DELETE FROM share_access WHERE hash = ?', hash);
  }
}
