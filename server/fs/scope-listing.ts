import { readdir, stat } from 'node:fs/promises';
import type { Dirent } from 'node:fs';
import { lstatSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { AppError } from '../core/errors';
import { DirReader, type EntryInfo, type EntryStats } from './entry-stats';
import { hasFolderRead, readFolderAt, readNamesSliced } from './folder-read';
import { wrapFs } from './fs-errors';
import { inside, realLocation } from './scope-paths';
import { ScopeReads } from './scope-reads';
import { stateNamesIn } from './state-paths';
import { TEMP_NAME } from './temp-file';
import { inTrash, isTrashName } from './trash-fs';
import { joinVirtual } from './virtual-path';

/** Names no listing, scan or walk reports: our temps and the trash. */
const hiddenName = (name: string) => TEMP_NAME.test(name) || isTrashName(name);

/** The names hidden in one real folder: hiddenName, and the server's state files when that folder holds some. */
function hiddenIn(dirReal: string): (name: string) => boolean {
  const state = stateNamesIn(dirReal);
  return state ? (name) => hiddenName(name) || state.has(name) : hiddenName;
}

/** A name in a real folder (path.join costs more than the stat it is made for). */
const childOf = (dirReal: string, name: string) => (dirReal.endsWith('/') ? dirReal + name : `${dirReal}/${name}`);

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
  /**
   * The virtual path of the entry's real location, when the walk reached it through a link (its folder, or a folder
   * above it, is a link inside the scope): the rules must allow it there too (policy/file-policy.ts visible()).
   * Absent when the entry is where its path says.
   */
  at?: string;
}

/**
 * A folder's resolved location and its entry names and kinds (0 file or special, 1 folder, 2 symlink or unknown);
 * from readFolder() also `known`, the lstat of the first names at the same positions, read through the descriptor
 * that read the names (a listing's reader takes them from there: KnownStats).
 */
export interface FolderScan {
  real: string;
  names: string[];
  kinds: Uint8Array;
  known?: (EntryStats | null)[];
  /** `names` is a remembered folder's own array (folder-read.ts FolderRead.shared): read it, never change it. */
  shared?: boolean;
}

/** readFolder() lstat-s this many names with them: a whole listing of the size sent as one body (listing-json.ts). */
const KNOWN_NAMES = 64;

/** Folders up to this st_size are read with readdirSync (ext4: four blocks; tmpfs/btrfs: a few hundred names). */
const SMALL_DIR_BYTES = 16 * 1024;

/**
 * ScopedFs's listings and walks (server/fs/scoped-fs.ts): which entries of a folder a scope shows and how each is
 * described. classify() is the one decision on an entry (entry, entryNow, list); where a link may lead is decided
 * by the base's linkShown(), for walk() too.
 */
export class ScopeListing extends ScopeReads {
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
    if (!this.linkShown(real)) return null; // escaping links, links into the trash or to what the rules deny
    return { name, stats: statSync(p), isSymlink: true, broken: false };
  }

  /**
   * A folder's entry names and kinds (temps left out), without describing them: a big listing keeps only this much
   * per entry and describes each one with entry() as it is sent. Kinds: 0 file or special, 1 folder, 2 symlink.
   */
  async scan(vpath: string, dirBytes?: number, resolved?: string): Promise<FolderScan> {
    // `resolved`: what stat(vpath) answered just before (the same checks, already passed), saving a second realpath.
    const real = resolved ?? (await this.real(vpath));
    // A folder whose own size (st_size: a few blocks, or the names' bytes) says it is small is read synchronously:
    // a few hundred names at most, cheaper than the thread-pool hop. A bigger one is read by getdents64 in slices
    // (folder-read.ts): no Dirent object per entry (100,000 names: ~35-50 ms instead of ~55-110), the thread never
    // held for long; readdir where that reader is unavailable. A folder swapped for a link since it was resolved is
    // refused (the open fails), never read through the link.
    const small = dirBytes !== undefined && dirBytes <= SMALL_DIR_BYTES;
    if (!small) {
      const read = await wrapFs(() => readNamesSliced(real, hiddenIn(real)));
      if (read) return { real, ...read };
    }
    const dirents = await wrapFs(async () => (small ? readdirSync(real, { withFileTypes: true }) : readdir(real, { withFileTypes: true })));
    const names: string[] = [];
    const kinds = new Uint8Array(dirents.length);
    const hidden = hiddenIn(real);
    for (const d of dirents) {
      if (hidden(d.name)) continue;
      kinds[names.length] = d.isDirectory() ? 1 : d.isSymbolicLink() ? 2 : 0;
      names.push(d.name);
    }
    return { real, names, kinds: kinds.subarray(0, names.length) };
  }

  /**
   * A small folder (its st_size at most SMALL_DIR_BYTES) resolved, checked and read through one descriptor
   * (folder-read.ts): its real location passes the very checks of real() before anything is read, and the names are
   * those of that folder, as scan() gives them. Null when `vpath` is no such folder, or where links are followed
   * outside the scope or the descriptor path is unavailable: callers take stat() and scan(), which also give the
   * usual errors.
   */
  readFolder(vpath: string): (FolderScan & { stats: EntryInfo; isSymlink: boolean }) | null {
    if (this.followExternalSymlinks || !hasFolderRead) return null;
    const disk = this.lexical(vpath);
    if (inTrash(disk)) throw new AppError('NOT_FOUND');
    // As stat(): whether the path's last component is a link. Below the scope root it cannot be when the real
    // location is where the path says under the real root; the root itself is a link only if it resolved elsewhere.
    const where = vpath === '/' ? this.root : `${this.realRoot}${vpath}`;
    // A root with no link in its own path: a folder whose path has none either is where the path says (openPlain).
    const plain = this.root === this.realRoot ? where : undefined;
    // The names hidden depend on the folder (state files), known once the descriptor's location passed the checks.
    let hidden = hiddenName;
    const check = (real: string) => {
      this.checkResolved(real, vpath);
      hidden = hiddenIn(real);
    };
    const r = readFolderAt(disk, SMALL_DIR_BYTES, (name) => hidden(name), check, KNOWN_NAMES, plain);
    if (!r) return null;
    const isSymlink = r.real !== where && !!lstatSync(disk, { throwIfNoEntry: false })?.isSymbolicLink();
    return { real: r.real, stats: r.stats, isSymlink, names: r.names, kinds: r.kinds, known: r.known, shared: r.shared };
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
    const names = await wrapFs(() => readdir(dir));
    const out: DirEntry[] = [];
    const hidden = hiddenIn(dir);
    for (const n of names) {
      if (hidden(n)) continue;
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
   * Where the folder `vpath`, resolved to `real` by this scope, really is for the rules: the virtual path of `real`
   * when it differs from `vpath` (the folder was reached through a link: `/l` -> `/a`), else undefined (every entry
   * below is where its path says). The one place a walk or listing learns the real location of what it reads; an
   * entry `name` below is then at joinVirtual(result, name). One comparison per folder, nothing per entry.
   */
  realPathOf(vpath: string, real: string): string | undefined {
    // Where links are followed out of the scope, real() answers the path as given: resolve it here (one realpath
    // per folder read, in that mode only).
    if (this.followExternalSymlinks) {
      try {
        real = realpathSync(real);
      } catch {
        return undefined;
      }
    }
    const v = this.virtualOf(real);
    // A folder's path may come with its trailing "/" (a listing URL): "/a/" is where "/a" is.
    const path = vpath.length > 1 && vpath.endsWith('/') ? vpath.slice(0, -1) : vpath;
    return v === null || v === path ? undefined : v;
  }

  /**
   * Walks a folder depth-first, yielding every entry below it (not the folder itself). Escaping symlinks are
   * skipped; symlinked folders are not descended (no cycles). `enter` may prune a folder (e.g. denied by rules).
   * When the folder itself was reached through a link, each entry carries its real location (`at`).
   */
  async *walk(vpath: string, enter: (e: WalkEntry) => boolean = () => true, signal?: AbortSignal): AsyncGenerator<WalkEntry> {
    const start = await this.real(vpath);
    // Links are never descended, so below the start every entry is as far from its real location as the start is.
    const startAt = this.realPathOf(vpath, start);
    const cut = vpath === '/' ? 0 : vpath.length;
    const atOf = startAt === undefined ? null : (v: string) => (startAt === '/' ? v.slice(cut) : startAt + v.slice(cut));
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
      const hidden = hiddenIn(real);
      for (const d of entries) {
        if (hidden(d.name)) continue;
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
          if (!this.linkShown(target)) continue;
          try {
            isDir = false; // never descend through links
            if ((await stat(childReal)).isDirectory()) continue; // a linked folder is not walked
          } catch {
            continue; // broken link
          }
        }
        const entry: WalkEntry = { path: childV, name: d.name, isDir, real: target };
        if (atOf) entry.at = atOf(childV);
        yield entry;
        if (isDir && enter(entry)) subdirs.push({ v: childV, real: childReal });
      }
      for (let i = subdirs.length - 1; i >= 0; i--) stack.push(subdirs[i]!);
    }
  }
}
