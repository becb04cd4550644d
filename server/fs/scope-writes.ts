import { lstat, mkdir, rm, rmdir, stat, utimes } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import { dirname } from 'node:path';
import { AppError, exists, forbidden } from '../core/errors';
import { fromFsError, wrapFs } from './fs-errors';
import { place } from './place';
import { ScopeListing } from './scope-listing';
import { movedAway, movedOr, TempEntry } from './temp-file';
import { parentOf } from './virtual-path';
import { leftAt, NO_HOLD, reserveAt, tempHoldId, type WriteHold } from './write-gate';
import { Writeback } from './writeback';

export const FILE_MODE = 0o640;
export const DIR_MODE = 0o750;

/**
 * ScopedFs's writes of single entries (server/fs/scoped-fs.ts): folders made, files written through a temp and
 * placed whole, entries removed. Every target is re-resolved through real() right before it is touched.
 */
export class ScopeWrites extends ScopeListing {
  /** Creates a folder and its missing parents inside the scope. */
  async mkdirp(vpath: string): Promise<void> {
    const real = await this.destination(vpath);
    // A folder still to be made is a write like any other: refused when a quota over it is full.
    const hold = (await lstat(real).catch(() => null)) ? NO_HOLD : await reserveAt(real, 0, 0);
    await wrapFs(() => mkdir(real, { recursive: true, mode: DIR_MODE })).catch(async (e) => {
      await hold.release();
      throw e;
    });
    await hold.settle();
    await this.real(vpath); // re-check: a racing symlink swap must not leave us pointing outside
  }

  /**
   * Writes a file atomically: the body streams into a locked temp file in the target's folder, is synced, and is
   * placed only when complete. On any error (client abort, disk full, folder moved away) the temp file is removed
   * wherever it now is and the previous file is untouched. `exclusive` makes the create atomic no-replace: of
   * concurrent exclusive writes to one name exactly one lands, the others get EXISTS. With `next` (and
   * `exclusive`), a taken name is not an error: `next` names the following candidate in the same folder, which is
   * claimed as atomically, until one is free (a file request's "name (1).ext").
   */
  async writeFile(vpath: string, body: AsyncIterable<Uint8Array> | null, opts: { exclusive?: boolean; mode?: number; next?: (taken: string) => Promise<string> } = {}): Promise<Stats> {
    await this.mkdirp(parentOf(vpath));
    const target = await this.destination(vpath);
    const tmp = await TempEntry.create(dirname(target), { mode: opts.mode ?? FILE_MODE });
    this.observer?.temp?.(tmp.path);
    try {
      // The quotas over the target: a stream without a declared size reserves as it goes and stops at the limit
      // (507); the temp is then discarded, which releases what it held.
      const hold = await this.holdFor(tmp, target, 0, (await lstat(target).catch(() => null)) ? 0 : 1);
      const flow = new Writeback(tmp.fh.fd);
      if (body)
        for await (const chunk of body) {
          await hold.grow(chunk.length);
          await writeAll(tmp, chunk);
          flow.wrote(chunk.length);
        }
      await tmp.fh.sync();
      for (let at = vpath; ; ) {
        try {
          return await this.commitTemp(tmp, at, opts.exclusive ?? false, hold);
        } catch (e) {
          if (!opts.next || !opts.exclusive || !(e instanceof AppError && e.code === 'EXISTS') || parentOf(at) !== parentOf(vpath)) throw e;
          at = await opts.next(at);
          if (parentOf(at) !== parentOf(vpath)) throw e; // a temp is placed only beside itself
        }
      }
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
    const target = await this.destination(vpath);
    return TempEntry.create(dirname(target), { mode: FILE_MODE });
  }

  /**
   * Places a finished temp file at the target (re-checking the scope first): over an existing file, or with
   * `exclusive` only while the name is free (atomically). EXISTS when the folder moved or the name is taken; the
   * caller discards the temp on any error.
   */
  async commitTemp(tmp: TempEntry, vpath: string, exclusive: boolean, held?: WriteHold): Promise<Stats> {
    const target = await this.destination(vpath);
    await this.stillBeside(tmp, target);
    const st = await lstat(target).catch(() => null);
    if (st?.isDirectory()) throw exists('a folder has that name');
    if (exclusive && st) throw exists();
    // A finished temp (a resumable upload, a job's archive) is reserved in full before it lands, taking over what
    // its upload reserved at creation (same id); the whole new size counts, as the old content is kept.
    const hold = held ?? (await this.holdFor(tmp, target, (await tmp.fh.stat()).size, st ? 0 : 1));
    const put = () => wrapMoved(() => place(tmp.path, target, false, !exclusive));
    if (!(await (exclusive ? put() : this.overwriting(vpath, target, put)))) throw exists();
    tmp.committed();
    await hold.settle();
    return wrapFs(() => stat(target));
  }

  /** Reserves for a temp headed to the real `target` (ids tie it to the temp); discarding the temp releases it. */
  protected async holdFor(tmp: TempEntry, target: string, bytes: number, files: number): Promise<WriteHold> {
    const hold = await reserveAt(target, bytes, files, { id: tempHoldId(tmp.path) });
    if (hold !== NO_HOLD) tmp.onDiscard = () => hold.release();
    return hold;
  }

  /** The reservation of a staged temp (stageFolder), for writers filling it: grow it before each entry lands. */
  holdOf(tmp: TempEntry): WriteHold {
    return stagedHolds.get(tmp) ?? NO_HOLD;
  }

  /**
   * Runs `put`, which overwrites whatever file is at the real location `to` (virtual `vpath`), after telling the
   * scope's keeper (FsObserver.replacing), which keeps the old file and hears whether `put` succeeded. A folder or
   * nothing at `to`, or no keeper: `put` alone.
   */
  protected async overwriting<T>(vpath: string, to: string, put: () => Promise<T>): Promise<T> {
    const keeper = this.observer?.replacing;
    const st = keeper ? await lstat(to).catch(() => null) : null;
    if (!keeper || !st || st.isDirectory()) return put();
    const done = await keeper(vpath, to);
    let ok = false;
    try {
      const r = await put();
      ok = r !== false;
      return r;
    } finally {
      await done(ok);
      if (ok) await leftAt(to); // the old content now counts as a version or trash, no longer as the file
    }
  }

  /** The temp must still sit in the target's real folder: a folder renamed, deleted or swapped meanwhile is a 409. */
  protected async stillBeside(tmp: TempEntry, target: string): Promise<void> {
    if (dirname(target) !== dirname(tmp.path) || (await tmp.where()) !== tmp.path) throw movedAway();
  }

  /** Removes a file or a folder tree. Symlinks inside are removed as links, never followed. */
  async remove(vpath: string): Promise<void> {
    if (vpath === '/') throw forbidden();
    await this.entryReal(vpath); // the checks on what goes (a folder holding state files never does)
    const disk = this.lexical(vpath);
    await wrapFs(async () => {
      await lstat(disk);
      await rm(disk, { recursive: true, force: false });
    });
    await leftAt(disk);
  }

  /**
   * Sets an entry's modification time (WebDAV's Win32LastModifiedTime and X-OC-Mtime); the access time is kept. The
   * entry is resolved inside the scope first, as for any write.
   */
  async setModified(vpath: string, mtimeMs: number): Promise<Stats> {
    const real = await this.real(vpath);
    return wrapFs(async () => {
      const st = await stat(real);
      await utimes(real, st.atime, new Date(mtimeMs));
      return stat(real);
    });
  }

  /** Removes a folder only while it is empty (undoing a folder this process just made); never follows a link. */
  async removeEmptyFolder(vpath: string): Promise<void> {
    if (vpath === '/') throw forbidden();
    await this.real(vpath);
    await wrapFs(() => rmdir(this.lexical(vpath)));
  }
}

/** Reservations of staged temps (copies of trees, extractions), read by whoever fills them. */
export const stagedHolds = new WeakMap<TempEntry, WriteHold>();

async function writeAll(tmp: TempEntry, chunk: Uint8Array): Promise<void> {
  for (let off = 0; off < chunk.length; ) off += (await tmp.fh.write(chunk, off, chunk.length - off)).bytesWritten;
}

/** ENOENT while placing means the destination folder went away meanwhile: a conflict with a clear message. */
export async function wrapMoved<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    throw movedOr(e);
  }
}
