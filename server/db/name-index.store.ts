import { Database, type Statement } from 'bun:sqlite';
import { escapeLike } from './sql';
import { WalHeader } from './wal-header';

/**
 * The name index: one local SQLite file per instance (in its cache folder), whatever engine holds the rest of the
 * data, so every instance indexes the files root it sees and both engines give the same results. Paths are
 * relative to the files root in the canonical "/a/b" form; the root itself is the row "/" (parent "").
 * `total` is, for folders, the sum of the sizes of every file beneath them (maintained by the index builder).
 * Names are searched through an FTS5 trigram table (substring, case-insensitive) kept by triggers, which a full
 * build drops and recreates around a bulk load (a bulk `rebuild` is several times faster than row triggers).
 * Names starting with "." have a partial index of their own: folder sizes for users who hide dotfiles find the
 * hidden subtrees below a folder without reading the rest of it.
 */
export interface IndexRow {
  path: string;
  parent: string;
  name: string;
  isDir: boolean;
  size: number;
  mtime: number;
  /** The name's MIME type (type: filters). */
  type: string;
  depth: number;
}

interface RawRow {
  path: string;
  parent: string;
  name: string;
  is_dir: number;
  size: number;
  mtime: number;
  type: string;
  depth: number;
  total: number | null;
}

export type StoredRow = IndexRow & { total: number };

/** What folder sizes read of an entry: its bytes are `size` for a file, `total` for a folder. */
export interface SizeRow {
  path: string;
  is_dir: number;
  size: number;
  total: number | null;
}

const SCHEMA = 3;

const TRIGGERS = `
create trigger if not exists entries_ai after insert on entries begin insert into names(rowid, name) values (new.id, new.name); end;
create trigger if not exists entries_ad after delete on entries begin insert into names(names, rowid, name) values ('delete', old.id, old.name); end;`;

const toRow = (r: RawRow): StoredRow => ({ path: r.path, parent: r.parent, name: r.name, isDir: !!r.is_dir, size: r.size, mtime: r.mtime, type: r.type, depth: r.depth, total: r.total ?? 0 });

/** The subtree strictly below `path`: a range on the path index ("/" sorts just before "0"). */
export function below(path: string): [string, string] {
  return path === '/' ? ['/', '0'] : [`${path}/`, `${path}0`];
}

/** SQL over the name index file. Synchronous (bun:sqlite): the builder runs on a worker thread; reads are index lookups. */
export class NameIndexStore {
  readonly db: Database;
  private readonly st: Record<'get' | 'children' | 'insert' | 'depthSize' | 'update' | 'deleteTree' | 'addTotal' | 'setTotal' | 'childTotals' | 'range' | 'dotRange', Statement>;
  private readonly wal: WalHeader;

  constructor(readonly file: string) {
    this.db = new Database(file, { create: true });
    // The busy timeout first: switching to WAL needs a lock, which a process or worker still closing this file can
    // hold for a moment (a restart); with the timeout set after it, that moment was an immediate SQLITE_BUSY.
    this.db.exec('pragma busy_timeout = 5000; pragma journal_mode = wal; pragma synchronous = normal;');
    this.wal = new WalHeader(file);
    this.db.exec('create table if not exists meta (key text primary key, value text not null)');
    if (this.meta('schema') !== String(SCHEMA)) this.reset();
    this.st = {
      get: this.db.prepare('select * from entries where path = ?'),
      children: this.db.prepare('select * from entries where parent = ?'),
      insert: this.db.prepare('insert into entries (path, parent, name, is_dir, size, mtime, type, depth, total) values (?, ?, ?, ?, ?, ?, ?, ?, ?)'),
      depthSize: this.db.prepare('select count(*) as n from (select 1 from entries where depth = ? limit ?)'),
      update: this.db.prepare('update entries set size = ?, mtime = ? where path = ?'),
      deleteTree: this.db.prepare('delete from entries where path = ?1 or (path > ?2 and path < ?3)'),
      addTotal: this.db.prepare('update entries set total = total + ? where path = ?'),
      setTotal: this.db.prepare('update entries set total = ? where path = ?'),
      childTotals: this.db.prepare('select name, total from entries where parent = ? and is_dir = 1'),
      range: this.db.prepare('select path, is_dir, size, total from entries where path >= ? and path < ? order by path limit ?'),
      dotRange: this.db.prepare("select path, is_dir, size, total from entries where substr(name, 1, 1) = '.' and path >= ? and path < ? order by path limit ?"),
    };
  }

  /** Drops everything and creates the empty schema (a new schema version, a new files root, `index rebuild`). */
  reset(): void {
    this.db.exec(`
      drop table if exists names; drop table if exists entries; delete from meta;
      create table entries (id integer primary key, path text not null unique, parent text not null, name text not null,
        is_dir integer not null, size integer not null, mtime integer not null, type text not null, depth integer not null, total integer);
      create index entries_parent on entries (parent);
      create index entries_depth on entries (depth);
      create index entries_dot on entries (path) where substr(name, 1, 1) = '.';
      create virtual table names using fts5 (name, content = 'entries', content_rowid = 'id', tokenize = 'trigram');
      ${TRIGGERS}`);
    this.setMeta('schema', String(SCHEMA));
    this.committed();
  }

  meta(key: string): string | null {
    return this.db.query<{ value: string }, [string]>('select value from meta where key = ?').get(key)?.value ?? null;
  }

  /** True when the index is built and for `root`: one query (listings ask it on every request, for folder sizes). */
  readyFor(root: string): boolean {
    const q = this.db.query<{ n: number }, [string]>("select count(*) as n from meta where (key = 'state' and value = 'ready') or (key = 'root' and value = ?)");
    return q.get(root)?.n === 2;
  }

  setMeta(key: string, value: string | number): void {
    this.db.query('insert into meta (key, value) values (?, ?) on conflict (key) do update set value = excluded.value').run(key, String(value));
    this.committed();
  }

  /** Before a bulk load: no per-row FTS work (the load ends with finishBulk). */
  startBulk(): void {
    this.db.exec("drop trigger if exists entries_ai; drop trigger if exists entries_ad; delete from entries; insert into names(names) values ('delete-all');");
    this.committed();
  }

  /** After a bulk load: the FTS table built in one pass, triggers back for incremental changes. */
  finishBulk(): void {
    this.db.exec(`insert into names(names) values ('rebuild'); ${TRIGGERS}`);
    this.committed();
  }

  get(path: string): StoredRow | null {
    const r = this.st.get.get(path) as RawRow | null;
    return r ? toRow(r) : null;
  }

  children(parent: string): StoredRow[] {
    return (this.st.children.all(parent) as RawRow[]).map(toRow);
  }

  /** Several writes as one transaction (the builder's batches). */
  batch(fn: () => void): void {
    this.db.transaction(fn)();
    this.committed();
  }

  /**
   * Commits of this connection are counted here (every write method and batch() end with committed()), in memory
   * the index's owner shares with its threads: readers see a commit there at no cost (name-index.service.ts).
   */
  commits: Int32Array | null = null;

  /** A write just ended: outside a transaction it is committed. */
  private committed(): void {
    if (this.commits && !this.db.inTransaction) Atomics.add(this.commits, 0, 1);
  }

  /**
   * Reads as one snapshot (a deferred transaction: WAL readers never block the writer). Folder sizes subtract
   * hidden totals from a folder's total: read at different moments, a shrinking hidden folder would show its change.
   */
  snapshot<T>(fn: () => T): T {
    return this.db.transaction(fn)();
  }

  insert(r: IndexRow, total: number | null = null): void {
    this.st.insert.run(r.path, r.parent, r.name, r.isDir ? 1 : 0, r.size, r.mtime, r.type, r.depth, r.isDir ? (total ?? 0) : null);
    this.committed();
  }

  update(path: string, size: number, mtime: number): void {
    this.st.update.run(size, mtime, path);
    this.committed();
  }

  deleteTree(path: string): void {
    const [lo, hi] = below(path);
    this.st.deleteTree.run(path, lo, hi);
    this.committed();
  }

  /** Adds `delta` bytes to the totals of the given folders (a file's ancestors). */
  addTotal(paths: string[], delta: number): void {
    if (delta) for (const p of paths) this.st.addTotal.run(delta, p);
    this.committed();
  }

  setTotal(path: string, total: number): void {
    this.st.setTotal.run(total, path);
    this.committed();
  }

  /** Sizes of the sub-folders of `parent`, by name (one indexed query; listings). */
  childTotals(parent: string): Map<string, number> {
    const out = new Map<string, number>();
    for (const r of this.st.childTotals.all(parent) as { name: string; total: number | null }[]) out.set(r.name, r.total ?? 0);
    return out;
  }

  /** Bytes and files (non-folders) beneath an indexed path, for quotas; null when the index does not hold it. */
  usageUnder(path: string): { bytes: number; files: number } | null {
    const row = this.get(path);
    if (!row) return null;
    if (!row.isDir) return { bytes: row.size, files: 1 };
    const [lo, hi] = below(path);
    const r = this.db.query<{ n: number }, [string, string]>('select count(*) as n from entries where path >= ? and path < ? and is_dir = 0').get(lo, hi);
    return { bytes: row.total, files: r?.n ?? 0 };
  }

  counts(): { entries: number; folders: number } {
    const r = this.db.query<{ n: number; d: number }, []>('select count(*) as n, coalesce(sum(is_dir), 0) as d from entries').get()!;
    return { entries: Math.max(0, r.n - 1), folders: Math.max(0, r.d - 1) };
  }

  maxDepth(): number {
    return this.db.query<{ d: number | null }, []>('select max(depth) as d from entries').get()?.d ?? 0;
  }

  /**
   * One page of search candidates below `lo`..`hi` at one depth, in id order after `afterId`: names containing
   * any of `terms` (FTS trigram when every term has 3+ characters, else a scan at that depth), limited to
   * `types` when given. The caller re-checks every candidate exactly (case, rules, dotfiles).
   */
  candidates(q: { terms: string[]; types: string[]; lo: string; hi: string; depth?: number; afterId: number; limit: number; dirsOnly?: boolean }): (StoredRow & { id: number })[] {
    const where = ['e.path > ?', 'e.path < ?', 'e.id > ?'];
    const params: (string | number)[] = [q.lo, q.hi, q.afterId];
    if (q.depth !== undefined) {
      where.unshift('e.depth = ?');
      params.unshift(q.depth);
    }
    if (q.dirsOnly) where.push('e.is_dir = 1');
    const fts = q.terms.length > 0 && q.terms.every((t) => [...t].length >= 3);
    if (fts) {
      where.unshift('names match ?');
      params.unshift(q.terms.map((t) => `"${t.replaceAll('"', '""')}"`).join(' OR '));
    } else if (q.terms.length && q.terms.every((t) => /^[\x00-\x7f]*$/.test(t))) {
      // LIKE folds ASCII case only; with other letters every name at this depth is a candidate.
      where.push(`(${q.terms.map(() => "e.name like ? escape '\\'").join(' or ')})`);
      params.push(...q.terms.map((t) => `%${escapeLike(t)}%`));
    }
    if (q.types.length) {
      const ors: string[] = [];
      for (const t of q.types) {
        const k = t === 'music' ? 'audio' : t;
        if (k === 'image' || k === 'audio' || k === 'video') {
          ors.push('e.type like ?');
          params.push(`${k}/%`);
        } else {
          ors.push("e.name like ? escape '\\'");
          params.push(`%.${escapeLike(k)}`);
        }
      }
      where.push(`e.is_dir = 0 and (${ors.join(' or ')})`);
    }
    // With FTS, the trigram index must drive (rowid order and keyset from the FTS table; `+` keeps the planner off
    // the depth index, which would test every name at that depth against the FTS query: measured 98 s vs 2 ms).
    const from = fts ? 'names join entries e on e.id = names.rowid' : 'entries e';
    const text = fts ? where.join(' and ').replace('e.id > ?', 'names.rowid > ?').replace(/e\.(depth|path)/g, '+e.$1') : where.join(' and ');
    const sql = `select e.* from ${from} where ${text} order by ${fts ? 'names.rowid' : 'e.id'} limit ${q.limit | 0}`;
    return (this.db.query(sql).all(...params) as (RawRow & { id: number })[]).map((r) => ({ ...toRow(r), id: r.id }));
  }

  /**
   * How many entries the index holds at `depth` (anywhere in the tree), counted up to `cap` + 1 at most: a search
   * reads a depth holding no more than `cap` whole rather than through the trigram index (index-search.ts).
   */
  depthSize(depth: number, cap: number): number {
    return (this.st.depthSize.get(depth, cap + 1) as { n: number } | null)?.n ?? 0;
  }

  /** Entries below `lo`..`hi` in path order after `after` (the subtree of a folder whose name matched). */
  subtree(lo: string, hi: string, after: string, limit: number): StoredRow[] {
    return (this.db.query('select * from entries where path > ? and path > ? and path < ? order by path limit ?').all(lo, after, hi, limit) as RawRow[]).map(toRow);
  }

  /** Up to `limit` folders after `after` in path order (the periodic sweep of index-builder.ts walks them a slice at a time). */
  foldersAfter(after: string, limit: number): string[] {
    return (this.db.query('select path from entries where path > ? and is_dir = 1 order by path limit ?').all(after, limit) as { path: string }[]).map((r) => r.path);
  }

  /**
   * Up to `limit` entries from `from` (inclusive) to `hi` (exclusive) in path order, with a name starting with "."
   * when `dotsOnly` (served by the partial index entries_dot). Folder sizes under rules read hidden subtrees here.
   */
  range(from: string, hi: string, limit: number, dotsOnly: boolean): SizeRow[] {
    return (dotsOnly ? this.st.dotRange : this.st.range).all(from, hi, limit) as SizeRow[];
  }

  /**
   * A value that changes with every commit to this file, by any connection of any thread or process (the WAL index
   * header, wal-header.ts): what was read after one mark is current while the mark is unchanged. Null when it cannot
   * be read now (no index header yet, or a commit writing it): nothing read may then be trusted later.
   */
  changeMark(): string | null {
    return this.wal.mark();
  }

  /** Writes the WAL back and closes. */
  /** Closes for good: prepared statements are finalized first, or SQLite keeps the files open until they are collected. */
  close(): void {
    this.wal.close();
    for (const st of Object.values(this.st)) st.finalize();
    this.db.close();
  }
}

export type { RawRow };
export { toRow };
