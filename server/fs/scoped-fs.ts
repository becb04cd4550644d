import { lstat, mkdir, readdir, readlink, realpath, stat } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import { mkdirSync, realpathSync } from 'node:fs';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { AppError, forbidden } from '../core/errors';
import { fromFsError } from './fs-errors';

const MAX_HOPS = 40;

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

/**
 * The ONLY way to reach user files on disk. Rooted at a scope; every virtual path ("/a/b", already canonical)
 * is joined under the root and checked so that no symlink, existing or dangling, at any component, leads outside
 * the root (unless followExternalSymlinks is set by the admin).
 */
export class ScopedFs {
  readonly root: string;
  private readonly realRoot: string;

  constructor(root: string, private readonly followExternalSymlinks = false) {
    this.root = resolve(root);
    try {
      this.realRoot = realpathSync(this.root);
    } catch {
      throw new AppError('NOT_FOUND', 'scope folder does not exist');
    }
  }

  /** Disk path for a canonical virtual path; throws FORBIDDEN when it would leave the scope. */
  async resolve(vpath: string): Promise<string> {
    const disk = vpath === '/' ? this.root : join(this.root, ...vpath.slice(1).split('/'));
    if (!inside(disk, this.root)) throw forbidden(); // defence in depth: canonical paths never get here
    if (this.followExternalSymlinks) return disk;
    try {
      const real = await realLocation(disk);
      if (!inside(real, this.realRoot)) throw forbidden();
    } catch (e) {
      throw fromFsError(e);
    }
    return disk;
  }

  async stat(vpath: string): Promise<{ disk: string; stats: Stats; isSymlink: boolean }> {
    const disk = await this.resolve(vpath);
    try {
      const l = await lstat(disk);
      const stats = l.isSymbolicLink() ? await stat(disk) : l;
      return { disk, stats, isSymlink: l.isSymbolicLink() };
    } catch (e) {
      throw fromFsError(e);
    }
  }

  /**
   * Lists a folder. Symlinks leaving the scope are omitted entirely; broken ones are reported as broken;
   * in-scope ones carry their target's stats.
   */
  async list(vpath: string): Promise<DirEntry[]> {
    const disk = await this.resolve(vpath);
    let names: string[];
    try {
      names = await readdir(disk);
    } catch (e) {
      throw fromFsError(e);
    }
    const out: DirEntry[] = [];
    for (const name of names) {
      const p = join(disk, name);
      let l: Stats;
      try {
        l = await lstat(p);
      } catch {
        continue; // vanished meanwhile
      }
      if (!l.isSymbolicLink()) {
        out.push({ name, stats: l, isSymlink: false, broken: false });
        continue;
      }
      let real: string;
      try {
        real = await realLocation(p);
      } catch {
        continue;
      }
      if (!this.followExternalSymlinks && !inside(real, this.realRoot)) continue;
      try {
        out.push({ name, stats: await stat(p), isSymlink: true, broken: false });
      } catch {
        out.push({ name, stats: l, isSymlink: true, broken: true });
      }
    }
    return out;
  }

  /** Creates a folder and its missing parents inside the scope. */
  async mkdirp(vpath: string): Promise<void> {
    const disk = await this.resolve(vpath);
    try {
      await mkdir(disk, { recursive: true, mode: 0o750 });
    } catch (e) {
      throw fromFsError(e);
    }
    await this.resolve(vpath); // re-check: a racing symlink swap must not leave us pointing outside
  }

  /** Creates the scope root itself when missing (server start, first run). */
  static ensureRoot(root: string): void {
    mkdirSync(root, { recursive: true, mode: 0o750 });
  }
}
