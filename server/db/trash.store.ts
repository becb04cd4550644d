import type { Sql } from './sql';

/** One trashed item: where it came from, where it lies now, who deleted it. */
export interface TrashRow {
  id: string;
  ownerId: number;
  deletedBy: number | null;
  name: string;
  /** Virtual path in the deleting user's scope when deleted. */
  originalPath: string;
  /** Real location it was deleted from (restores go back there). */
  originalReal: string;
  /** The deleting user's scope when deleted. */
  scope: string;
  /** Real location inside the trash folder. */
  trashReal: string;
  deletedAt: number;
  size: number;
  isDir: boolean;
}

type Raw = Omit<TrashRow, 'isDir'> & { isDir: number };
const SELECT = `SELECT id, owner_id AS "ownerId", deleted_by AS "deletedBy", name, original_path AS "originalPath", original_real AS "originalReal",
  scope, trash_real AS "trashReal", deleted_at AS "deletedAt", size, is_dir AS "isDir" FROM trash`;
const fromRow = (r: Raw): TrashRow => ({
  ...r,
  ownerId: Number(r.ownerId),
  deletedBy: r.deletedBy === null ? null : Number(r.deletedBy),
  deletedAt: Number(r.deletedAt),
  size: Number(r.size),
  isDir: !!r.isDir,
});

/** SQL for the trash table. */
export class TrashStore {
  constructor(private readonly db: Sql) {}

  async insert(r: TrashRow): Promise<void> {
    await this.db.run(
      'INSERT INTO trash (id, owner_id, deleted_by, name, original_path, original_real, scope, trash_real, deleted_at, size, is_dir) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
      r.id, r.ownerId, r.deletedBy, r.name, r.originalPath, r.originalReal, r.scope, r.trashReal, r.deletedAt, r.size, r.isDir ? 1 : 0,
    );
  }

  async byId(id: string): Promise<TrashRow | null> {
    const r = await this.db.get<Raw>(`${SELECT} WHERE id = ?`, id);
    return r ? fromRow(r) : null;
  }

  /** One user's items, newest first (every user's when `ownerId` is undefined). */
  async list(ownerId?: number): Promise<TrashRow[]> {
    const rows = ownerId === undefined
      ? await this.db.all<Raw>(`${SELECT} ORDER BY deleted_at DESC, id`)
      : await this.db.all<Raw>(`${SELECT} WHERE owner_id = ? ORDER BY deleted_at DESC, id`, ownerId);
    return rows.map(fromRow);
  }

  /** Items deleted before `before` (unix ms), oldest first. */
  async olderThan(before: number, ownerId?: number): Promise<TrashRow[]> {
    const rows = ownerId === undefined
      ? await this.db.all<Raw>(`${SELECT} WHERE deleted_at < ? ORDER BY deleted_at, id`, before)
      : await this.db.all<Raw>(`${SELECT} WHERE deleted_at < ? AND owner_id = ? ORDER BY deleted_at, id`, before, ownerId);
    return rows.map(fromRow);
  }

  /** Owners with at least one item. */
  async owners(): Promise<number[]> {
    return (await this.db.all<{ o: number }>('SELECT DISTINCT owner_id AS o FROM trash')).map((r) => Number(r.o));
  }

  /** Gives every item of one user to another (a user deleted with their trash handed to an admin). Returns how many. */
  async reassign(from: number, to: number): Promise<number> {
    return (await this.db.run('UPDATE trash SET owner_id = ? WHERE owner_id = ?', to, from)).changes;
  }

  /** The real trash location of every item (what a purge of unclaimed slots must leave alone). */
  async trashReals(): Promise<Set<string>> {
    return new Set((await this.db.all<{ t: string }>('SELECT trash_real AS t FROM trash')).map((r) => r.t));
  }

  /** Whether a row claims an item inside this slot folder (`<trash>/<user>/<uuid>`). */
  async slotClaimed(slot: string): Promise<boolean> {
    return !!(await this.db.get('SELECT 1 AS x FROM trash WHERE substr(trash_real, 1, ?) = ? LIMIT 1', slot.length + 1, `${slot}/`));
  }

  /** Deletes a row; false when another process took it first (the row is the claim on the item). */
  async delete(id: string): Promise<boolean> {
    return (await this.db.run('DELETE FROM trash WHERE id = ?', id)).changes > 0;
  }
}
