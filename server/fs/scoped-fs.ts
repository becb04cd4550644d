import { copyFile, lstat, mkdir, open, readdir, readlink, realpath, rename, rm, rmdir, stat, statfs, unlink, utimes } from 'node:fs/promises';
import type { Dirent, Stats } from 'node:fs';
import { lstatSync, mkdirSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { AppError, forbidden } from '../core/errors';
import { fromFsError } from './fs-errors';
import { joinVirtual, parentOf } from './virtual-path';

const MAX_HOPS = 40;
export const FILE_MODE = 0o640;
export const DIR_MODE = 0o750;
/** Our in-progress files (uploads being written). Hidden from listings, search and archives. */
export const TEMP_NAME = /^\.filedeck-[A-Za-z0-9_-]+\.part$/;

export const tempName = () => `.filedeck-${Buffer.from(crypto.getRandomValues(new Uint8Array(12))).toString('base64url')}.part`;

function inside(real: string, root: string): boolean {
  return real === root || real.startsWith(root.endsWith(sep) ? root : root + sep);
}

/**
 * Resolves a path to its real location even when the last components do not exist yet or a symlink dangles:
 * existing prefixes go through realpath, a dangling link is followed hop by hop (each hop resolved the same way).
 */
async function realLocation(p: string, hops = 0): Promise<string> {
  if (hops > MAX_HOPS) throw new AppError('FORBIDDEN', 'too many symbolic links');
  try {
    return await realpath(p);
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

/** One entry of a folder listing, before rules and type detection. */
export interface DirEntry {
  name: string;
  stats: Stats;
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
  constructor(root: string, private readonly followExternalSymlinks = false, private readonly guard?: (vpath: string) => boolean) {
    this.root = resolve(root);
    try {
      this.realRoot = realpathSync(this.root);
    } catch {
      throw new AppError('NOT_FOUND', 'scope folder does not exist');
    }
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
    if (this.followExternalSymlinks) return disk;
    const real = await wrap(() => realLocation(disk));
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
    return wrap(async () => {
      const l = await lstat(this.lexical(vpath));
      return { real, stats: l.isSymbolicLink() ? await stat(real) : l, isSymlink: l.isSymbolicLink() };
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
  private classify(dirReal: string, name: string): DirEntry | null {
    const p = dirReal.endsWith('/') ? dirReal + name : `${dirReal}/${name}`; // path.join costs more than the stat here
    const l = lstatSync(p, { throwIfNoEntry: false });
    if (!l) return null; // vanished meanwhile
    if (!l.isSymbolicLink()) return { name, stats: l, isSymlink: false, broken: false };
    let real: string;
    try {
      real = realpathSync(p);
    } catch {
      return { name, stats: l, isSymlink: true, broken: true }; // dangling: list() checks where it points
    }
    if (!this.followExternalSymlinks && !inside(real, this.realRoot)) return null; // escaping links are omitted
    if (!this.targetAllowed(real)) return null; // so are links to what the rules deny
    return { name, stats: statSync(p), isSymlink: true, broken: false };
  }

  /** Lists a folder: escaping symlinks omitted, broken ones marked, in-scope ones with their target's stats. */
  async list(vpath: string): Promise<DirEntry[]> {
    const dir = await this.real(vpath);
    const names = await wrap(() => readdir(dir));
    const out: DirEntry[] = [];
    for (const n of names) {
      if (TEMP_NAME.test(n)) continue;
      const e = this.classify(dir, n);
      if (e) out.push(e);
    }
    // Broken links: keep only those whose dangling target would stay inside the scope.
    const kept: DirEntry[] = [];
    for (const e of out) {
      if (e.broken && !this.followExternalSymlinks) {
        const target = await realLocation(join(dir, e.name)).catch(() => null);
        if (!target || !inside(target, this.realRoot)) continue;
      }
      kept.push(e);
    }
    return kept;
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
        if (TEMP_NAME.test(d.name)) continue;
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
          if (!this.targetAllowed(target)) continue;
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
    if (!this.followExternalSymlinks && !inside(real, this.realRoot)) throw forbidden();
  }

  /** The first `n` bytes of a file this scope already resolved (a stat or listing result), for type sniffing. */
  async head(real: string, n = 512): Promise<{ bytes: Uint8Array; truncated: boolean }> {
    this.checkReal(real);
    return wrap(async () => {
      const fh = await open(real, 'r');
      try {
        const buf = Buffer.alloc(n);
        const { bytesRead } = await fh.read(buf, 0, n, 0);
        return { bytes: buf.subarray(0, bytesRead), truncated: bytesRead === n };
      } finally {
        await fh.close();
      }
    });
  }

  /** A whole (small) text file. Callers cap the size first. */
  async readText(real: string): Promise<string> {
    this.checkReal(real);
    return wrap(() => Bun.file(real).text());
  }

  /** Hex digest of a file, streamed. */
  async hash(real: string, algo: 'md5' | 'sha1' | 'sha256' | 'sha512'): Promise<string> {
    this.checkReal(real);
    return wrap(async () => {
      const h = new Bun.CryptoHasher(algo);
      for await (const chunk of Bun.file(real).stream()) h.update(chunk);
      return h.digest('hex');
    });
  }

  /** Creates a folder and its missing parents inside the scope. */
  async mkdirp(vpath: string): Promise<void> {
    const real = await this.real(vpath);
    await wrap(() => mkdir(real, { recursive: true, mode: DIR_MODE }));
    await this.real(vpath); // re-check: a racing symlink swap must not leave us pointing outside
  }

  /**
   * Writes a file atomically: the body streams into a temporary file in the target's folder, is synced, and is
   * renamed over the target only when complete. On any error (client abort, disk full) the temporary file is
   * removed and the previous file is untouched. `exclusive` refuses an existing target (checked again at the end).
   */
  async writeFile(vpath: string, body: AsyncIterable<Uint8Array> | null, opts: { exclusive?: boolean; mode?: number } = {}): Promise<Stats> {
    await this.mkdirp(parentOf(vpath));
    const target = await this.real(vpath);
    const tmp = join(dirname(target), tempName());
    await wrap(async () => {
      const fh = await open(tmp, 'wx', opts.mode ?? FILE_MODE);
      try {
        if (body) for await (const chunk of body) await fh.write(chunk);
        await fh.sync();
      } finally {
        await fh.close();
      }
    }).catch(async (e) => {
      await unlink(tmp).catch(() => {});
      throw e;
    });
    return this.commitTemp(tmp, vpath, opts.exclusive ?? false);
  }

  /** Creates an empty temporary file next to a target (for resumable uploads); returns its real path. */
  async createTemp(vpath: string): Promise<string> {
    await this.mkdirp(parentOf(vpath));
    const target = await this.real(vpath);
    const tmp = join(dirname(target), tempName());
    await wrap(async () => (await open(tmp, 'wx', FILE_MODE)).close());
    return tmp;
  }

  /** Renames a finished temporary file over the target (re-checking the scope first). */
  async commitTemp(tmp: string, vpath: string, exclusive: boolean): Promise<Stats> {
    try {
      const target = await this.real(vpath);
      if (dirname(target) !== dirname(tmp)) throw forbidden(); // the folder moved or was swapped meanwhile
      if (exclusive && (await lstat(target).then(() => true, () => false))) throw new AppError('EXISTS');
      const st = await lstat(target).catch(() => null);
      if (st?.isDirectory()) throw new AppError('EXISTS', 'a folder has that name');
      await wrap(() => rename(tmp, target));
      return await wrap(() => stat(target));
    } catch (e) {
      await unlink(tmp).catch(() => {});
      throw e;
    }
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

  /** Moves within the scope: a rename, or copy-then-delete across devices. */
  async move(src: string, dst: string): Promise<void> {
    const from = this.lexical(src);
    await this.real(src);
    await this.mkdirp(parentOf(dst));
    const to = await this.real(dst);
    try {
      await rename(from, to);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EXDEV') throw fromFsError(e);
      await this.copy(src, dst);
      await this.remove(src);
    }
  }

  /**
   * Copies a file or a tree within the scope. Files are copied to a temporary name and renamed, so a failed
   * copy never leaves a half-written file. Links are copied as the data they point to (inside the scope).
   */
  async copy(src: string, dst: string): Promise<void> {
    const { real, stats } = await this.stat(src);
    await this.mkdirp(parentOf(dst));
    if (!stats.isDirectory()) {
      const target = await this.real(dst);
      const tmp = join(dirname(target), tempName());
      await wrap(() => copyFile(real, tmp)).catch(async (e) => {
        await unlink(tmp).catch(() => {});
        throw e;
      });
      await utimes(tmp, stats.atime, stats.mtime).catch(() => {});
      await this.commitTemp(tmp, dst, false);
      return;
    }
    await this.mkdirp(dst);
    const into = await this.real(dst);
    for await (const e of this.walk(src, (d) => d.real !== into)) {
      if (e.real === into) continue; // never walk into the copy being made
      const rel = e.path.slice(src === '/' ? 0 : src.length);
      const out = dst === '/' ? rel : dst + rel;
      if (e.isDir) await this.mkdirp(out);
      else await this.copy(e.path, out);
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

