import type { AppNotification } from '../contract/share';
import type { Sql } from './sql';

type Raw = { id: unknown; time: unknown; started: unknown; kind: string; hash: string; name: string; files: unknown; bytes: unknown; read: unknown };
const fromRow = (r: Raw): AppNotification & { started: number } => ({
  id: Number(r.id), time: Number(r.time), started: Number(r.started), kind: 'share-upload', hash: r.hash, name: r.name,
  files: Number(r.files), bytes: Number(r.bytes), read: Number(r.read) === 1,
});
const COLS = 'id, time, started, kind, hash, name, files, bytes, read';

/** SQL for in-app notifications (migration 25). */
export class NotificationsStore {
  constructor(private readonly db: Sql) {}

  /**
   * Adds arrivals to the user's unread notification of this link begun at or after `since`, or starts one; then
   * keeps the user's newest `keep`. One transaction, so two arrivals at once never make two batches.
   */
  async add(userId: number, hash: string, name: string, files: number, bytes: number, now: number, since: number, keep: number): Promise<void> {
    await this.db.transaction(async (tx) => {
      // PostgreSQL: arrivals for one user wait for each other here (SQLite holds its one connection for the transaction).
      if (tx.engine === 'postgres') await tx.get('SELECT id FROM users WHERE id = ? FOR UPDATE', userId);
      const open = await tx.get<{ id: unknown }>(
        "SELECT id FROM notifications WHERE user_id = ? AND hash = ? AND kind = 'share-upload' AND read = 0 AND started >= ? ORDER BY id DESC LIMIT 1",
        userId, hash, since,
      );
      if (open) await tx.run('UPDATE notifications SET files = files + ?, bytes = bytes + ?, time = ?, name = ? WHERE id = ?', files, bytes, now, name, Number(open.id));
      else
        await tx.run(
          "INSERT INTO notifications (user_id, time, started, kind, hash, name, files, bytes, read) VALUES (?, ?, ?, 'share-upload', ?, ?, ?, ?, 0)",
          userId, now, now, hash, name, files, bytes,
        );
      const cut = await tx.get<{ id: unknown }>('SELECT id FROM notifications WHERE user_id = ? ORDER BY id DESC LIMIT 1 OFFSET ?', userId, keep);
      if (cut) await tx.run('DELETE FROM notifications WHERE user_id = ? AND id <= ?', userId, Number(cut.id));
    });
  }

  async list(userId: number, limit: number): Promise<AppNotification[]> {
    const rows = await this.db.all<Raw>(`SELECT ${COLS} FROM notifications WHERE user_id = ? ORDER BY id DESC LIMIT ?`, userId, limit);
    return rows.map((r) => {
      const { started: _s, ...n } = fromRow(r);
      return n;
    });
  }

  async unread(userId: number): Promise<number> {
    return Number((await this.db.get<{ n: unknown }>('SELECT COUNT(*) AS n FROM notifications WHERE user_id = ? AND read = 0', userId))?.n ?? 0);
  }

  /** Marks the user's notifications read: the listed ones, or all. */
  async markRead(userId: number, ids?: number[]): Promise<void> {
    if (!ids) {
      await this.db.run('UPDATE notifications SET read = 1 WHERE user_id = ? AND read = 0', userId);
      return;
    }
    for (const id of ids) await this.db.run('UPDATE notifications SET read = 1 WHERE user_id = ? AND id = ?', userId, id);
  }

  /** Notifications follow a regenerated link. */
  async rehash(from: string, to: string): Promise<void> {
    await this.db.run('UPDATE notifications SET hash = ? WHERE hash = ?', to, from);
  }
}
