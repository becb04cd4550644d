import { mkdirSync } from 'node:fs';
import { statfs } from 'node:fs/promises';
import { wrapFs } from './fs-errors';
import { ScopeCopyMove } from './scope-copy-move';
import type { FsObserver } from './scope-paths';
import { DIR_MODE } from './scope-writes';

export { TEMP_NAME } from './temp-file';
export { inside, type FsObserver } from './scope-paths';
export type { DirEntry, FolderScan, WalkEntry } from './scope-listing';
export { DIR_MODE, FILE_MODE } from './scope-writes';
export type { PlaceOpts } from './scope-copy-move';

/**
 * The ONLY way to reach user files on disk. Rooted at a scope; every virtual path ("/a/b", already canonical)
 * is joined under the root and checked so that no symlink, existing or dangling, at any component, leads outside
 * the root (unless followExternalSymlinks is set by the admin). A file's content is handed out OPEN (openReal,
 * openRead: the checks are made again on what the kernel really opened, so a folder swapped for a link between
 * the check and the open is refused), and callers read that descriptor, never the path; writes go to a temporary
 * file in the real target folder and are renamed into place, so a failed write never leaves a partial file and
 * never replaces the old one.
 *
 * Built in layers, one file per concern, each extending the one before: scope-paths.ts (resolving a path; every
 * scope, trash and rule check), scope-reads.ts (content of regular files), scope-listing.ts (listings and walks),
 * scope-writes.ts (temp-file writes, folders, removal), scope-copy-move.ts (moves and copies). Importers use this
 * class and this module's exports only.
 */
export class ScopedFs extends ScopeCopyMove {
  /**
   * The same scope, reporting copies and temps to `o` and stopping a tree copy between files when its signal aborts
   * (jobs), or keeping what writes replace (FilesService.keeping). Added to what this scope already reports to.
   */
  observed(o: FsObserver): ScopedFs {
    return new ScopedFs(this.root, this.followExternalSymlinks, this.guard, { ...this.observer, ...o });
  }

  /** Total and used bytes of the volume holding the path (zero for a file, as in the reference). */
  async usage(vpath: string): Promise<{ total: number; used: number }> {
    const { real, stats } = await this.stat(vpath);
    if (!stats.isDirectory()) return { total: 0, used: 0 };
    const s = await wrapFs(() => statfs(real));
    return { total: s.blocks * s.bsize, used: (s.blocks - s.bfree) * s.bsize };
  }

  /** Creates the scope root itself when missing (server start, first run). */
  static ensureRoot(root: string): void {
    mkdirSync(root, { recursive: true, mode: DIR_MODE });
  }
}
