import { lstat, mkdir, open, readdir, readlink, rm, rmdir, stat, statfs, utimes } from 'node:fs/promises';
import type { Dirent, Stats } from 'node:fs';
import { lstatSync, mkdirSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { AppError, exists, forbidden } from '../core/errors';
import { fromFsError } from './fs-errors';
import { openRegular, type ReadHandle } from './open-regular';
import { place } from './place';
import { DirReader, type EntryInfo } from './entry-stats';
import { copyFileData } from './sparse-copy';
import { movedAway, movedOr, TEMP_NAME, TempEntry } from './temp-file';
import { inTrash, isTrashName } from './trash-fs';
import { joinVirtual, parentOf } from './virtual-path';

export { TEMP_NAME } from './temp-file';

const MAX_HOPS = 40;
export const FILE_MODE = 0o640;
export const DIR_MODE = 0o750;

/** Names no listing, scan or walk reports: our temps and the trash. */
const hiddenName = (name: string) => TEMP_NAME.test(name) || isTrashName(name);

/** A name in a real folder (path.join costs more than the stat it is made for). */
const childOf = (dirReal: string, name: string) => (dirReal.endsWith('/') ? dirReal + name : `${dirReal}/${name}`);

/** Whether `real` is `root` or lies beneath it (both canonical absolute paths; a sibling like /a/bc is not in /a/b). */
export function inside(real: string, root: string): boolean {
  return real === root || real.startsWith(root.endsWith(sep) ? root : root + sep);
}

/**
 * Resolves a path to its real location even when the last components do not exist yet or a symlink dangles:
 * existing prefixes go through realpath, a dangling link is followed hop by hop (each hop resolved the same way).
 */
async function realLocation(p: string, hops = 0): Promise<string> {
  if (hops > MAX_HOPS) throw new AppError('FORBIDDEN', 'too many symbolic links');
  try {
    // Synchronous on purpose, like classify(): one path's resolution costs less than the thread-pool round trip of
    // the async form, and every request resolves its path at least once (issue 15 item 5).
    return realpathSync(p);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'ENOTDIR') throw e;
  }
  const parent = dirname(p);
  if (parent === p) return p;
  const realParent = await realLocation(parent, hops + 1);
  const candidate = join(realParent, basename(p));
  let st: Stats;
  try {
    st = await lstat(candidate);
  } catch {
    return candidate; // truly missing: its real location is under the real parent
  }
  if (st.isSymbolicLink()) return realLocation(resolve(realParent, await readlink(candidate)), hops + 1);
  return candidate;
}

/** How long the real location of a scope root is reused: every request builds its actor's ScopedFs. */
const ROOT_TTL_MS = 1000;
const realRoots = new Map<string, { real: string; at: number }>();

/**
 * The real location of a scope root, resolved at most once a second per root. A root re-pointed meanwhile (a link
 * swapped by the admin) fails closed until then: paths resolve under the new target, outside the old real root.
 */
function realRootOf(root: string): string {
  const now = Date.now();
  const hit = realRoots.get(root);
  if (hit && now - hit.at < ROOT_TTL_MS) return hit.real;
  let real: string;
  try {
    real = realpathSync(root);
  } catch {
    realRoots.delete(root);
    throw new AppError('NOT_FOUND', 'scope folder does not exist');
  }
  if (realRoots.size >= 10_000) realRoots.clear();
  realRoots.set(root, { real, at: now });
  return real;
}

/** One entry of a folder listing, before rules and type detection. */
export interface DirEntry {
  name: string;
  /** node:fs Stats, or the lighter EntryStats of a big listing: the same mode, size and mtimeMs. */
  stats: EntryInfo;
  isSymlink: boolean;
  /** The link exists but its target does not. */
  broken: boolean;
}

/** One entry met by walk(): its virtual path and what kind it is (symlinks already resolved in scope). */
export interface WalkEntry {
  path: string;
  name: string;
  isDir: boolean;
  /** Real location on disk, for reading. */
  real: string;
}

/** Folders up to this st_size are read with readdirSync (ext4: four blocks; tmpfs/btrfs: a few hundred names). */
const SMALL_DIR_BYTES = 16 * 1024;

async function wrap<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    throw fromFsError(e);
  }
}

/**
 * The ONLY way to reach user files on disk. Rooted at a scope; every virtual path ("/a/b", already canonical)
 * is joined under the root and checked so that no symlink, existing or dangling, at any component, leads outside
 * the root (unless followExternalSymlinks is set by the admin). Reads use the checked real location; writes go
 * to a temporary file in the real target folder and are renamed into place, so a failed write never leaves a
 * partial file and never replaces the old one.
 */
export class ScopedFs {
  readonly root: string;
  readonly realRoot: string;

  /**
   * @param guard the owner's access rules on virtual paths. Checked again on the path a symlink really leads to,
   *   so an in-scope link can never open what the rules deny at its target.
   */
  constructor(root: string, private readonly followExternalSymlinks = false, private readonly guard?: (vpath: string) => boolean, private readonly observer?: FsObserver) {
    this.root = resolve(root);
    this.realRoot = realRootOf(this.root);
  }

  /** The same scope, reporting copies and temps to `o` and stopping a tree copy between files when its signal aborts (jobs). */
  observed(o: FsObserver): ScopedFs {
    return new ScopedFs(this.root, this.followExternalSymlinks, this.guard, o);
  }

  private lexical(vpath: string): string {
    const disk = vpath === '/' ? this.root : join(this.root, ...vpath.slice(1).split('/'));
    if (!inside(disk, this.root)) throw forbidden(); // defence in depth: canonical paths never get here
    return disk;
  }

  /** The virtual path of a real location inside this scope (null outside it). */
  virtualOf(real: string): string | null {
    if (!inside(real, this.realRoot)) return null;
    return real === this.realRoot ? '/' : real.slice(this.realRoot.length).replace(/^\/?/, '/');
  }

  /** True when a link's real target is allowed by the rules (or when it is the path itself). */
  private targetAllowed(real: string, vpath?: string): boolean {
    if (!this.guard) return true;
    const v = this.virtualOf(real);
    return v === null || v === vpath || this.guard(v);
  }

  /**
   * Real location of a path (existing or not); throws FORBIDDEN when it would leave the scope, or when it goes
   * through a link to something the rules deny.
   */
  async real(vpath: string): Promise<string> {
    const disk = this.lexical(vpath);
    // The trash is no scope's: nothing inside it is reachable by a path, a link or a scope set inside it.
    if (inTrash(disk)) throw new AppError('NOT_FOUND');
    if (this.followExternalSymlinks) return disk;
    const real = await wrap(() => realLocation(disk));
    if (inTrash(real)) throw new AppError('NOT_FOUND');
    if (!inside(real, this.realRoot)) throw forbidden();
    if (!this.targetAllowed(real, vpath)) throw forbidden();
    return real;
  }

  /**
   * Real location of the entry itself (its folder resolved, its own name kept): for a symlink, the link, not what
   * it points to. What moves or disappears when this path is moved or removed.
   */
  async entryReal(vpath: string): Promise<string> {
    if (vpath === '/') return this.real(vpath);
    await this.real(vpath); // the scope and rule checks on the path as given
    return join(await this.real(parentOf(vpath)), basename(this.lexical(vpath)));
  }

  /** Disk path for a canonical virtual path, after the scope check. */
  async resolve(vpath: string): Promise<string> {
    await this.real(vpath);
    return this.lexical(vpath);
  }

  /** Stats of the target (a symlink is described by its target) and whether the path itself is a link. */
  async stat(vpath: string): Promise<{ real: string; stats: Stats; isSymlink: boolean }> {
    const real = await this.real(vpath);
    // Synchronous like classify(): one or two stat calls cost less than the thread-pool round trip of each.
    return wrap(async () => {
      const l = lstatSync(this.lexical(vpath));
      return { real, stats: l.isSymbolicLink() ? statSync(real) : l, isSymlink: l.isSymbolicLink() };
    });
  }

  /** True when something exists at the path (a broken in-scope link counts as existing). */
  async exists(vpath: string): Promise<boolean> {
    try {
      await lstat(await this.real(vpath));
      return true;
    } catch (e) {
      if (e instanceof AppError && e.code === 'FORBIDDEN') throw e;
      return false;
    }
  }

  /**
   * Describes one entry of a folder. Synchronous on purpose: stat calls dominate big listings, and the thread
   * pool round trip of the async form costs ~50% more than the syscalls themselves (10,000 entries: 23 vs 35 ms).
   */
  private classify(dirReal: string, name: string, dir?: DirReader): DirEntry | null {
    if (isTrashName(name)) return null; // the trash is never listed, whatever the scope
    const l = dir ? dir.lstat(name) : lstatSync(childOf(dirReal, name), { throwIfNoEntry: false });
    if (!l) return null; // vanished meanwhile
    if (!l.isSymbolicLink()) return { name, stats: l, isSymlink: false, broken: false };
    const p = childOf(dirReal, name);
    let real: string;
    try {
      real = realpathSync(p);
    } catch {
      return { name, stats: l, isSymlink: true, broken: true }; // dangling: list() checks where it points
    }
    if (!this.followExternalSymlinks && !inside(real, this.realRoot)) return null; // escaping links are omitted
    if (inTrash(real)) return null; // so are links into the trash
    if (!this.targetAllowed(real)) return null; // so are links to what the rules deny
    return { name, stats: statSync(p), isSymlink: true, broken: false };
  }

  /**
   * A folder's entry names and kinds (temps left out), without describing them: a big listing keeps only this much
   * per entry and describes each one with entry() as it is sent. Kinds: 0 file or special, 1 folder, 2 symlink.
   */
  async scan(vpath: string, dirBytes?: number, resolved?: string): Promise<{ real: string; names: string[]; kinds: Uint8Array }> {
    // `resolved`: what stat(vpath) answered just before (the same checks, already passed), saving a second realpath.
    const real = resolved ?? (await this.real(vpath));
    // A folder whose own size (st_size: a few blocks, or the names' bytes) says it is small is read synchronously:
    // a few hundred names at most, cheaper than the thread-pool hop; big folders keep the async read.
    const small = dirBytes !== undefined && dirBytes <= SMALL_DIR_BYTES;
    const dirents = await wrap(async () => (small ? readdirSync(real, { withFileTypes: true }) : readdir(real, { withFileTypes: true })));
    const names: string[] = [];
    const kinds = new Uint8Array(dirents.length);
    for (const d of dirents) {
      if (hiddenName(d.name)) continue;
      kinds[names.length] = d.isDirectory() ? 1 : d.isSymbolicLink() ? 2 : 0;
      names.push(d.name);
    }
    return { real, names, kinds: kinds.subarray(0, names.length) };
  }

  /** A reader of one folder scan() resolved, for entry(): the caller closes it (a held descriptor). */
  dirReader(dirReal: string): DirReader {
    return new DirReader(dirReal);
  }

  /**
   * Describes one entry of a folder this scope resolved (scan()), exactly as list() would: null when it vanished,
   * when a link leads out of the scope or to what the rules deny, or when a dangling link would point outside.
   * `dir` (from dirReader() on the same `dirReal`) only makes the entry's own lstat cheaper.
   */
  async entry(dirReal: string, name: string, dir?: DirReader): Promise<DirEntry | null> {
    const e = this.classify(dirReal, name, dir);
    return this.settled(e) ? e : this.keptDangling(dirReal, e!);
  }

  /**
   * entry() without a promise for all but dangling links (a listing's 10,000 awaits cost more than their stats'
   * bookkeeping): undefined when where a dangling link points must still be checked, by calling entry().
   */
  entryNow(dirReal: string, name: string, dir?: DirReader): DirEntry | null | undefined {
    const e = this.classify(dirReal, name, dir);
    return this.settled(e) ? e : undefined;
  }

  /** Lists a folder: escaping symlinks omitted, broken ones marked, in-scope ones with their target's stats. */
  async list(vpath: string): Promise<DirEntry[]> {
    const dir = await this.real(vpath);
    const names = await wrap(() => readdir(dir));
    const out: DirEntry[] = [];
    for (const n of names) {
      if (hiddenName(n)) continue;
      const e = this.classify(dir, n);
      const kept = this.settled(e) ? e : await this.keptDangling(dir, e!);
      if (kept) out.push(kept);
    }
    return out;
  }

  /** True when classify()'s answer is final: anything but a dangling link (whose target must still be checked). */
  private settled(e: DirEntry | null): boolean {
    return !e?.broken || this.followExternalSymlinks;
  }

  /** A dangling link is kept only when the target it names would stay inside the scope. */
  private async keptDangling(dirReal: string, e: DirEntry): Promise<DirEntry | null> {
    const target = await realLocation(join(dirReal, e.name)).catch(() => null);
    return target && inside(target, this.realRoot) ? e : null;
  }

  /**
   * Walks a folder depth-first, yielding every entry below it (not the folder itself). Escaping symlinks are
   * skipped; symlinked folders are not descended (no cycles). `enter` may prune a folder (e.g. denied by rules).
   */
  async *walk(vpath: string, enter: (e: WalkEntry) => boolean = () => true, signal?: AbortSignal): AsyncGenerator<WalkEntry> {
    const start = await this.real(vpath);
    const stack: { v: string; real: string }[] = [{ v: vpath, real: start }];
    while (stack.length) {
      if (signal?.aborted) return;
      const { v, real } = stack.pop()!;
      let entries: Dirent[];
      try {
        entries = await readdir(real, { withFileTypes: true });
      } catch {
        continue; // unreadable folders are skipped
      }
      const subdirs: { v: string; real: string }[] = [];
      for (const d of entries) {
        if (hiddenName(d.name)) continue;
        const childV = joinVirtual(v, d.name);
        const childReal = join(real, d.name);
        let isDir = d.isDirectory();
        let target = childReal;
        if (d.isSymbolicLink()) {
          try {
            target = await realLocation(childReal);
          } catch {
            continue;
          }
          if (!this.followExternalSymlinks && !inside(target, this.realRoot)) continue;
          if (inTrash(target) || !this.targetAllowed(target)) continue;
          try {
            isDir = false; // never descend through links
            if ((await stat(childReal)).isDirectory()) continue; // a linked folder is not walked
          } catch {
            continue; // broken link
          }
        }
        const entry: WalkEntry = { path: childV, name: d.name, isDir, real: target };
        yield entry;
        if (isDir && enter(entry)) subdirs.push({ v: childV, real: childReal });
      }
      for (let i = subdirs.length - 1; i >= 0; i--) stack.push(subdirs[i]!);
    }
  }

  private checkReal(real: string): void {
    if (inTrash(real)) throw new AppError('NOT_FOUND');
    if (!this.followExternalSymlinks && !inside(real, this.realRoot)) throw forbidden();
  }

  /**
   * Opens a file this scope already resolved (a stat or listing result) for reading its content, only when it is a
   * regular file (fs/open-regular.ts: FIFOs, sockets and devices are a 400 before any open). The caller closes it.
   */
  private async openContent(real: string) {
    this.checkReal(real);
    return openRegular(real);
  }

  /** The first `n` bytes of a file this scope already resolved (a stat or listing result), for type sniffing. */
  async head(real: string, n = 512): Promise<{ bytes: Uint8Array; truncated: boolean }> {
    const { handle } = await this.openContent(real);
    try {
      const buf = Buffer.alloc(n);
      const { bytesRead } = await wrap(() => handle.read(buf, 0, n, 0));
      return { bytes: buf.subarray(0, bytesRead), truncated: bytesRead === n };
    } finally {
      await handle.close();
    }
  }

  /** A whole (small) text file. Callers cap the size first; bytes appended since the open are not read. */
  async readText(real: string): Promise<string> {
    const { handle, stats } = await this.openContent(real);
    try {
      const buf = Buffer.alloc(stats.size);
      let len = 0;
      while (len < buf.length) {
        const { bytesRead } = await wrap(() => handle.read(buf, len, buf.length - len, len));
        if (bytesRead === 0) break;
        len += bytesRead;
      }
      return buf.toString('utf8', 0, len);
    } finally {
      await handle.close();
    }
  }

  /**
   * Hex digest of a regular file, computed by `digest` off the event loop (services/work: a worker thread reads
   * the descriptor). The descriptor stays open until `digest` says the reader has truly stopped (`settled`), even
   * when the answer came earlier (cancelled, timed out): a closed, reused descriptor must never be read.
   */
  async hash(real: string, algo: 'md5' | 'sha1' | 'sha256' | 'sha512', digest: (fd: number, algo: string, settled: () => void) => Promise<string>): Promise<string> {
    const { handle } = await this.openContent(real);
    return digest(handle.fd, algo, () => void handle.close().catch(() => {}));
  }

  /** Opens a regular file of the scope for reading (FIFOs, sockets and devices refused before any open). The caller closes it. */
  async openRead(vpath: string): Promise<{ handle: ReadHandle; stats: Stats }> {
    return this.openContent(await this.real(vpath));
  }

  /** Creates a folder and its missing parents inside the scope. */
  async mkdirp(vpath: string): Promise<void> {
    const real = await this.real(vpath);
    await wrap(() => mkdir(real, { recursive: true, mode: DIR_MODE }));
    await this.real(vpath); // re-check: a racing symlink swap must not leave us pointing outside
  }

  /**
   * Writes a file atomically: the body streams into a locked temp file in the target's folder, is synced, and is
   * placed only when complete. On any error (client abort, disk full, folder moved away) the temp file is removed
   * wherever it now is and the previous file is untouched. `exclusive` makes the create atomic no-replace: of
   * concurrent exclusive writes to one name exactly one lands, the others get EXISTS.
   */
  async writeFile(vpath: string, body: AsyncIterable<Uint8Array> | null, opts: { exclusive?: boolean; mode?: number } = {}): Promise<Stats> {
    await this.mkdirp(parentOf(vpath));
    const target = await this.real(vpath);
    const tmp = await TempEntry.create(dirname(target), { mode: opts.mode ?? FILE_MODE });
    this.observer?.temp?.(tmp.path);
    try {
      if (body) for await (const chunk of body) await writeAll(tmp, chunk);
      await tmp.fh.sync();
      return await this.commitTemp(tmp, vpath, opts.exclusive ?? false);
    } catch (e) {
      await tmp.discard();
      throw fromFsError(e);
    } finally {
      await tmp.close();
    }
  }

  /** Creates an empty, locked temp file next to a target (for resumable uploads). The caller closes it. */
  async createTemp(vpath: string): Promise<TempEntry> {
    await this.mkdirp(parentOf(vpath));
    const target = await this.real(vpath);
    return TempEntry.create(dirname(target), { mode: FILE_MODE });
  }

  /**
   * Places a finished temp file at the target (re-checking the scope first): over an existing file, or with
   * `exclusive` only while the name is free (atomically). EXISTS when the folder moved or the name is taken; the
   * caller discards the temp on any error.
   */
  async commitTemp(tmp: TempEntry, vpath: string, exclusive: boolean): Promise<Stats> {
    const target = await this.real(vpath);
    await this.stillBeside(tmp, target);
    const st = await lstat(target).catch(() => null);
    if (st?.isDirectory()) throw exists('a folder has that name');
    if (exclusive && st) throw exists();
    if (!(await wrapMoved(() => place(tmp.path, target, false, !exclusive)))) throw exists();
    tmp.committed();
    return wrap(() => stat(target));
  }

  /** The temp must still sit in the target's real folder: a folder renamed, deleted or swapped meanwhile is a 409. */
  private async stillBeside(tmp: TempEntry, target: string): Promise<void> {
    if (dirname(target) !== dirname(tmp.path) || (await tmp.where()) !== tmp.path) throw movedAway();
  }

  /** Removes a file or a folder tree. Symlinks inside are removed as links, never followed. */
  async remove(vpath: string): Promise<void> {
    if (vpath === '/') throw forbidden();
    await this.real(vpath);
    const disk = this.lexical(vpath);
    await wrap(async () => {
      await lstat(disk);
      await rm(disk, { recursive: true, force: false });
    });
  }

  /** Removes a folder only while it is empty (undoing a folder this process just made); never follows a link. */
  async removeEmptyFolder(vpath: string): Promise<void> {
    if (vpath === '/') throw forbidden();
    await this.real(vpath);
    await wrap(() => rmdir(this.lexical(vpath)));
  }

  /**
   * Moves within the scope: a rename, or copy-then-delete across devices. With `replace` a file lands over an
   * existing one; without, the name is claimed atomically, and `next` (if given) is asked for another name each
   * time the one tried is taken. Returns the virtual path it landed at.
   */
  async move(src: string, dst: string, opts: PlaceOpts = { replace: true }): Promise<string> {
    const from = this.lexical(src);
    await this.real(src);
    await this.mkdirp(parentOf(dst));
    const isDir = (await wrap(() => lstat(from))).isDirectory();
    for (let target = dst; ; ) {
      const to = await this.real(target);
      try {
        if (await place(from, to, isDir, opts.replace)) return target;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EXDEV') throw fromFsError(e);
        const landed = await this.copy(src, target, opts);
        await this.remove(src);
        return landed;
      }
      if (!opts.next) throw exists();
      target = await this.nextName(target, opts.next);
    }
  }

  private async nextName(taken: string, next: (taken: string) => Promise<string>): Promise<string> {
    const candidate = await next(taken);
    if (parentOf(candidate) !== parentOf(taken)) throw forbidden(); // a staged temp only lands in its own folder
    return candidate;
  }

  /**
   * Copies a file or a tree within the scope. The copy is made in full under a hidden, locked temp name next to
   * the destination and placed only when complete, so a failed copy leaves nothing and a copy never merges into
   * a concurrent copy's folder. `replace` over an existing folder merges (colliding files replaced); otherwise as
   * in move(). Sparse files stay sparse. Links are copied as the data they point to (inside the scope).
   */
  async copy(src: string, dst: string, opts: PlaceOpts = { replace: true }): Promise<string> {
    const { real, stats } = await this.stat(src);
    const isDir = stats.isDirectory();
    await this.mkdirp(parentOf(dst));
    const first = await this.real(dst);
    if (isDir && opts.replace && (await lstat(first).catch(() => null))?.isDirectory()) {
      await this.mergeTree(src, dst);
      return dst;
    }
    const tmp = await TempEntry.create(dirname(first), isDir ? { dir: true, mode: DIR_MODE } : { mode: FILE_MODE });
    this.observer?.temp?.(tmp.path);
    try {
      if (isDir) await this.fillTree(src, tmp.path);
      else {
        await copyOneFile(real, stats, tmp.path, tmp);
        this.observer?.copied?.(stats.size, src);
      }
      return await this.placeStaged(tmp, dst, { ...opts, replace: opts.replace && !isDir });
    } catch (e) {
      await tmp.discard();
      throw fromFsError(e);
    } finally {
      await tmp.close();
    }
  }

  /**
   * A fresh, locked temp folder next to `dst` (its parents made), to be filled and then placed with placeStaged()
   * (extraction). The caller discards it on failure.
   */
  async stageFolder(dst: string): Promise<TempEntry> {
    await this.mkdirp(parentOf(dst));
    const tmp = await TempEntry.create(dirname(await this.real(dst)), { dir: true, mode: DIR_MODE });
    this.observer?.temp?.(tmp.path);
    return tmp;
  }

  /**
   * Places a finished temp (file or folder) at `dst`, re-checking the scope: over a file with `replace`, else only
   * while the name is free (atomically), asking `next` for another name each time it is taken. Returns where it landed.
   */
  async placeStaged(tmp: TempEntry, dst: string, opts: PlaceOpts): Promise<string> {
    for (let target = dst; ; ) {
      const to = await this.real(target);
      await this.stillBeside(tmp, to);
      if (await wrapMoved(() => place(tmp.path, to, tmp.isDir, opts.replace && !tmp.isDir))) {
        tmp.committed();
        return target;
      }
      if (!opts.next) throw exists();
      target = await this.nextName(target, opts.next);
    }
  }

  /** Copies the tree below `src` into the (hidden, fresh) real folder `into`. */
  private async fillTree(src: string, into: string): Promise<void> {
    for await (const e of this.walk(src)) {
      this.observer?.signal?.throwIfAborted(); // a job's cancel stops the copy here; the caller discards the temp
      const out = join(into, ...e.path.slice(src === '/' ? 1 : src.length + 1).split('/'));
      if (e.isDir) {
        await wrap(() => mkdir(out, { mode: DIR_MODE }));
        continue;
      }
      const st = await stat(e.real).catch(() => null);
      if (!st?.isFile()) continue; // vanished meanwhile, or not a regular file: nothing to copy
      await copyOneFile(e.real, st, out);
      this.observer?.copied?.(st.size, e.path);
    }
  }

  /** Folder over folder with override: merged in, colliding files replaced, nothing deleted. */
  private async mergeTree(src: string, dst: string): Promise<void> {
    for await (const e of this.walk(src)) {
      this.observer?.signal?.throwIfAborted();
      const out = dst + e.path.slice(src.length);
      if (e.isDir) await this.mkdirp(out);
      else await this.copy(e.path, out, { replace: true });
    }
  }

  /** Total and used bytes of the volume holding the path (zero for a file, as in the reference). */
  async usage(vpath: string): Promise<{ total: number; used: number }> {
    const { real, stats } = await this.stat(vpath);
    if (!stats.isDirectory()) return { total: 0, used: 0 };
    const s = await wrap(() => statfs(real));
    return { total: s.blocks * s.bsize, used: (s.blocks - s.bfree) * s.bsize };
  }

  /** Creates the scope root itself when missing (server start, first run). */
  static ensureRoot(root: string): void {
    mkdirSync(root, { recursive: true, mode: DIR_MODE });
  }
}

/** What a long operation (a job) learns from a scope: each file copied (bytes, virtual path) and each temp made (real path). */
export interface FsObserver {
  signal?: AbortSignal;
  copied?(bytes: number, vpath: string): void;
  temp?(real: string): void;
}

/** Options of move() and copy(): replace what is there, or claim the name (asking `next` for another when taken). */
export interface PlaceOpts {
  replace: boolean;
  next?: (taken: string) => Promise<string>;
}

async function writeAll(tmp: TempEntry, chunk: Uint8Array): Promise<void> {
  for (let off = 0; off < chunk.length; ) off += (await tmp.fh.write(chunk, off, chunk.length - off)).bytesWritten;
}

/** ENOENT while placing means the destination folder went away meanwhile: a conflict with a clear message. */
async function wrapMoved<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    throw movedOr(e);
  }
}

/** Copies one regular file's bytes (holes kept) and times into `out`, a new file, or into the open temp `into`. */
async function copyOneFile(from: string, st: Stats, out: string, into?: TempEntry): Promise<void> {
  await wrap(async () => {
    const fh = into?.fh ?? (await open(out, 'wx', FILE_MODE));
    try {
      await copyFileData(from, st, fh, out);
    } finally {
      if (!into) await fh.close();
    }
    await utimes(out, st.atime, st.mtime).catch(() => {});
  });
}
