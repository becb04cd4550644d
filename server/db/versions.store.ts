import type { VersionCause } from '../contract/versions';
import type { Sql } from './sql';

/** One kept version: the old content of a file at `path` (relative to the files root), kept at `versionReal`. */
export interface VersionRow {
  id: string;
  /** The file's path relative to the files root ('/'-separated, no leading slash). */
  path: string;
  /** Where the kept bytes lie (inside a `.filedeck-versions` folder). */
  versionReal: string;
  size: number;
  modified: number;
  replacedAt: number;
  replacedBy: number | null;
  cause: VersionCause;
  /** A keep in flight (row first, then the link, then the overwrite); never listed. */
  pending: boolean;
  /** The trash item that took this version along with its file (null: the file is where `path` says). */
  trashId: string | null;
}

type Raw = Omit<VersionRow, 'pending'> & { pending: number };
const SELECT = `SELECT id, path, version_real AS "versionReal", size, modified, replaced_at AS "replacedAt", replaced_by AS "replacedBy",
  cause, pending, trash_id AS "trashId" FROM versions`;
const fromRow = (r: Raw): VersionRow => ({
  ...r,
  size: Number(r.size),
  modified: Number(r.modified),
  replacedAt: Number(r.replacedAt),
  replacedBy: r.replacedBy === null ? null : Number(r.replacedBy),
  pending: !!r.pending,
});

/** The file at `path` and everything beneath it, as SQL (no LIKE: names may hold % and _). */
const UNDER = '(path = ? OR substr(path, 1, ?) = ?)';
const underParams = (path: string) => [path, path.length + 1, `${path}/`];

/** SQL for the versions table. */
export class VersionsStore {
  constructor(private readonly db: Sql) {}

  async insert(r: VersionRow): Promise<void> {
    await this.db.run(
      'INSERT INTO versions (id, path, version_real, size, modified, replaced_at, replaced_by, cause, pending, trash_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
      r.id, r.path, r.versionReal, r.size, r.modified, r.replacedAt, r.replacedBy, r.cause, r.pending ? 1 : 0, r.trashId,
    );
  }

  /** A pending keep whose overwrite happened: listed from now on. */
  async markKept(id: string): Promise<boolean> {
    return (await this.db.run('UPDATE versions SET pending = 0 WHERE id = ?', id)).changes > 0;
  }

  async byId(id: string): Promise<VersionRow | null> {
    const r = await this.db.get<Raw>(`${SELECT} WHERE id = ?`, id);
    return r ? fromRow(r) : null;
  }

  /** The row that claims a version location, if any. */
  async byReal(versionReal: string): Promise<VersionRow | null> {
    const r = await this.db.get<Raw>(`${SELECT} WHERE version_real = ?`, versionReal);
    return r ? fromRow(r) : null;
  }

  /** Deletes a row; false when another caller deleted it first (a row is the claim on its file). */
  async delete(id: string): Promise<boolean> {
    return (await this.db.run('DELETE FROM versions WHERE id = ?', id)).changes > 0;
  }

  /** The kept versions of one file (not in the trash), newest first. */
  async ofFile(path: string): Promise<VersionRow[]> {
    return (await this.db.all<Raw>(`${SELECT} WHERE path = ? AND pending = 0 AND trash_id IS NULL ORDER BY replaced_at DESC, id DESC`, path)).map(fromRow);
  }

  /** Versions of a file or of every file beneath a folder (not in the trash, pending ones too). */
  async under(path: string): Promise<VersionRow[]> {
    return (await this.db.all<Raw>(`${SELECT} WHERE trash_id IS NULL AND ${UNDER}`, ...underParams(path))).map(fromRow);
  }

  /** Versions a trash item took along. */
  async ofTrash(trashId: string): Promise<VersionRow[]> {
    return (await this.db.all<Raw>(`${SELECT} WHERE trash_id = ?`, trashId)).map(fromRow);
  }

  /** Every settled version (not pending), oldest first: what retention looks at. */
  async settled(): Promise<VersionRow[]> {
    return (await this.db.all<Raw>(`${SELECT} WHERE pending = 0 ORDER BY replaced_at, id`)).map(fromRow);
  }

  /** Keeps in flight started before `before` (unix ms): what a crash may have left. */
  async pendingBefore(before: number): Promise<VersionRow[]> {
    return (await this.db.all<Raw>(`${SELECT} WHERE pending = 1 AND replaced_at < ?`, before)).map(fromRow);
  }

  /** Every version location a row claims (the orphan scan leaves these alone). */
  async reals(): Promise<Set<string>> {
    return new Set((await this.db.all<{ v: string }>('SELECT version_real AS v FROM versions')).map((r) => r.v));
  }

  /** The file `from` (or a folder and everything beneath it) is now `to`: its versions' paths follow, all at once. */
  async movePaths(from: string, to: string): Promise<number> {
    return this.db.transaction(async (tx) => {
      const rows = await tx.all<{ id: string; path: string }>(`SELECT id, path FROM versions WHERE trash_id IS NULL AND ${UNDER}`, ...underParams(from));
      for (const r of rows) await tx.run('UPDATE versions SET path = ? WHERE id = ?', to + r.path.slice(from.length), r.id);
      return rows.length;
    });
  }

  /** The file or folder at `path` went into the trash as item `trashId`: its versions go with it. */
  async attachToTrash(path: string, trashId: string): Promise<number> {
    return (await this.db.run(`UPDATE versions SET trash_id = ? WHERE trash_id IS NULL AND ${UNDER}`, trashId, ...underParams(path))).changes;
  }

  /** Trash item `trashId` came back at `to` (it was at `from`): its versions are the file's again, at their new paths. */
  async detachFromTrash(trashId: string, from: string, to: string): Promise<number> {
    return this.db.transaction(async (tx) => {
      const rows = await tx.all<{ id: string; path: string }>('SELECT id, path FROM versions WHERE trash_id = ?', trashId);
      for (const r of rows) {
        const path = r.path === from || r.path.startsWith(`${from}/`) ? to + r.path.slice(from.length) : r.path;
        await tx.run('UPDATE versions SET path = ?, trash_id = NULL WHERE id = ?', path, r.id);
      }
      return rows.length;
    });
  }

  /**
   * Bytes of the versions of files beneath a folder (root-relative; '' = the whole root), not in the trash. For
   * quotas (helper of issue 35's QuotaService): a scope's versions.
   */
  async bytesUnder(prefix: string): Promise<number> {
    const r = prefix === ''
      ? await this.db.get<{ n: number | null }>('SELECT sum(size) AS n FROM versions WHERE trash_id IS NULL')
      : await this.db.get<{ n: number | null }>(`SELECT sum(size) AS n FROM versions WHERE trash_id IS NULL AND ${UNDER}`, ...underParams(prefix));
    return Number(r?.n ?? 0);
  }

  /** Bytes of the versions that items in one user's trash took along (for quotas: counted with that user's trash). */
  async bytesInTrashOf(userId: number): Promise<number> {
    const r = await this.db.get<{ n: number | null }>('SELECT sum(v.size) AS n FROM versions v JOIN trash t ON t.id = v.trash_id WHERE t.owner_id = ?', userId);
    return Number(r?.n ?? 0);
  }
}
