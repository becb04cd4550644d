import type { IndexRow, NameIndexStore, StoredRow } from '../../db/name-index.store';
import { diskEntry, diskPath, readFolder, type DiskEntry } from '../../fs/index-walk';
import { mimeOf } from '../files/detect-type';

/** Rows written per transaction: bounded memory, and the thread yields between batches (messages get in). */
const BATCH = 5000;

const yieldNow = () => new Promise<void>((r) => setTimeout(r, 0));

export const parentPath = (p: string) => (p.lastIndexOf('/') <= 0 ? '/' : p.slice(0, p.lastIndexOf('/')));
const childPath = (parent: string, name: string) => (parent === '/' ? `/${name}` : `${parent}/${name}`);
const depthOf = (p: string) => (p === '/' ? 0 : p.split('/').length - 1);

/** The folders holding `p`, root first (not `p` itself). */
export function ancestors(p: string): string[] {
  const out: string[] = [];
  for (let a = p; a !== '/'; ) {
    a = parentPath(a);
    out.push(a);
  }
  return out.reverse();
}

function rowOf(path: string, e: DiskEntry): IndexRow {
  return { path, parent: path === '/' ? '' : parentPath(path), name: e.name, isDir: e.isDir, size: e.size, mtime: e.mtime, type: e.isDir ? '' : mimeOf(e.name), depth: depthOf(path) };
}

/**
 * Keeps the index equal to the disk: a full build (bulk load), a reconcile (compare folder by folder, write only
 * differences) and `apply` for paths known to have changed (watcher events, the server's own writes). Folder
 * totals move by deltas along the ancestors, so they stay exact without re-summing the tree.
 */
export class IndexBuilder {
  private rows: IndexRow[] = [];
  private building = false;
  private reported = 0;
  done = 0;
  /**
   * Run between folders of a long reconcile (the catch-up at start, the hourly one, a rescan): the worker applies
   * the paths reported meanwhile there, so a change shows in search and folder sizes alike within one batch, not
   * after the whole pass. Never inside insertTree, whose folder totals are complete only at its end.
   */
  between: (() => Promise<void>) | null = null;
  private inBetween = false;

  constructor(private readonly store: NameIndexStore, private readonly root: string, private readonly onProgress: (done: number) => void = () => {}) {}

  /** Indexes the whole root from nothing. */
  async build(): Promise<void> {
    const s = this.store;
    s.setMeta('state', 'building');
    s.setMeta('root', this.root);
    s.setMeta('progress', 0);
    this.done = 0;
    this.building = true;
    s.startBulk();
    const top = diskEntry(this.root, '');
    s.insert(rowOf('/', { name: '', isDir: true, size: 0, mtime: top?.mtime ?? 0 }), 0);
    const total = await this.insertTree('/');
    s.setTotal('/', total);
    s.finishBulk();
    this.building = false;
    const now = Date.now();
    s.setMeta('estimate', this.done);
    s.setMeta('generation', Number(s.meta('generation') ?? 0) + 1);
    s.setMeta('built_at', now);
    s.setMeta('last_reconcile', now);
    s.setMeta('state', 'ready');
  }

  /** Inserts everything below the folder `top` (already a row) and returns the sum of its file sizes. */
  private async insertTree(top: string): Promise<number> {
    const totals = new Map<string, number>([[top, 0]]);
    const stack = [top];
    while (stack.length) {
      const dir = stack.pop()!;
      const entries = readFolder(diskPath(this.root, dir)) ?? [];
      for (const e of entries) {
        const p = childPath(dir, e.name);
        this.rows.push(rowOf(p, e));
        if (e.isDir) {
          totals.set(p, 0);
          stack.push(p);
        } else if (e.size) for (let a = dir; ; a = parentPath(a)) {
          totals.set(a, totals.get(a)! + e.size);
          if (a === top) break;
        }
      }
      this.done += entries.length;
      if (this.rows.length >= BATCH) await this.flush();
    }
    await this.flush();
    this.store.batch(() => {
      for (const [p, t] of totals) if (p !== top) this.store.setTotal(p, t);
    });
    return totals.get(top)!;
  }

  private async flush(): Promise<void> {
    const rows = this.rows;
    this.rows = [];
    if (rows.length) this.store.batch(() => rows.forEach((r) => this.store.insert(r)));
    if (this.building) this.store.setMeta('progress', this.done); // `filedeck index status` reads it from another process
    this.onProgress(this.done);
    await yieldNow();
  }

  /** `path` was removed from the index: its bytes leave every ancestor's total. */
  private drop(old: StoredRow): void {
    this.store.deleteTree(old.path);
    this.store.addTotal(ancestors(old.path), -(old.isDir ? old.total : old.size));
  }

  /** A new folder (or a file) at `path`: inserted with everything beneath it, totals added to its ancestors. */
  private async add(path: string, e: DiskEntry): Promise<void> {
    this.store.insert(rowOf(path, e), 0);
    const bytes = e.isDir ? await this.insertTree(path) : e.size;
    if (e.isDir) this.store.setTotal(path, bytes);
    this.store.addTotal(ancestors(path), bytes);
  }

  /**
   * Brings one path up to date with the disk: gone, new (with its whole subtree), changed. A folder already
   * indexed has its children compared, one level or (`deep`) all the way down. A path whose parent is not
   * indexed yet brings its parent up to date instead.
   */
  async apply(path: string, deep: boolean): Promise<void> {
    if (path !== '/' && !this.store.get(parentPath(path))) return this.apply(parentPath(path), true);
    const old = this.store.get(path);
    const now = path === '/' ? diskEntry(this.root, '') : diskEntry(diskPath(this.root, path), path.slice(path.lastIndexOf('/') + 1));
    if (!now) {
      if (old && path !== '/') this.drop(old);
      return;
    }
    if (old && old.isDir !== now.isDir) this.drop(old);
    if (!old || old.isDir !== now.isDir) return this.add(path, now);
    if (!now.isDir) {
      if (old.size !== now.size || old.mtime !== now.mtime) {
        this.store.update(path, now.size, now.mtime);
        this.store.addTotal(ancestors(path), now.size - old.size);
      }
      return;
    }
    await this.reconcile(path, deep);
  }

  /**
   * One slice of the periodic sweep: the indexed folders after `after` (path order) compared with the disk, one level
   * each, until `folders` folders or `entries` entries were read. Returns where the next slice starts ('' once the
   * end was reached: the next starts over at the root). What no event reports here (a write by another machine on a
   * shared filesystem, by no instance) is found within one full pass, at a bounded cost per slice.
   */
  async sweep(after: string, folders: number, entries: number): Promise<string> {
    const slice = this.store.foldersAfter(after, folders);
    let read = 0;
    for (const dir of slice) {
      const before = this.done;
      await this.reconcile(dir, false);
      read += this.done - before;
      if (read >= entries) return dir;
    }
    return slice.length < folders ? '' : slice[slice.length - 1]!;
  }

  /** Compares indexed folders with the disk from `top` down (`deep`) or just its children, writing only differences. */
  async reconcile(top = '/', deep = true): Promise<void> {
    const stack = [top];
    while (stack.length) {
      const dir = stack.pop()!;
      const disk = readFolder(diskPath(this.root, dir));
      const row = this.store.get(dir);
      if (!disk || !row) {
        if (dir !== '/') await this.apply(dir, true);
        continue;
      }
      const indexed = new Map(this.store.children(dir).map((r) => [r.name, r]));
      const added: [string, DiskEntry][] = [];
      this.store.batch(() => {
        const self = dir === '/' ? diskEntry(this.root, '') : diskEntry(diskPath(this.root, dir), row.name);
        if (self && self.mtime !== row.mtime) this.store.update(dir, 0, self.mtime);
        for (const e of disk) {
          const p = childPath(dir, e.name);
          const old = indexed.get(e.name);
          indexed.delete(e.name);
          if (old && old.isDir !== e.isDir) this.drop(old);
          if (!old || old.isDir !== e.isDir) added.push([p, e]);
          else if (e.isDir) {
            if (deep) stack.push(p);
          } else if (old.size !== e.size || old.mtime !== e.mtime) {
            this.store.update(p, e.size, e.mtime);
            this.store.addTotal(ancestors(p), e.size - old.size);
          }
        }
        for (const gone of indexed.values()) this.drop(gone);
      });
      for (const [p, e] of added) await this.add(p, e);
      this.done += disk.length;
      if (this.done - this.reported >= BATCH) {
        this.reported = this.done;
        this.onProgress(this.done);
        await yieldNow();
        if (this.between && !this.inBetween) {
          this.inBetween = true;
          try {
            await this.between();
          } finally {
            this.inBetween = false;
          }
        }
      }
    }
    if (top === '/' && deep) this.store.setMeta('last_reconcile', Date.now());
  }
}
