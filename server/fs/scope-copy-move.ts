import { lstat, mkdir, open, utimes } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import { dirname, join } from 'node:path';
import { AppError, exists, forbidden } from '../core/errors';
import type { ReadHandle } from './open-regular';
import { fromFsError, wrapFs } from './fs-errors';
import { place } from './place';
import { DIR_MODE, FILE_MODE, ScopeWrites, stagedHolds, wrapMoved } from './scope-writes';
import { copyFileData } from './sparse-copy';
import { TempEntry } from './temp-file';
import { parentOf } from './virtual-path';
import { leftAt, NO_HOLD, reserveMoveAt, type WriteHold } from './write-gate';

/** Options of move() and copy(): replace what is there, or claim the name (asking `next` for another when taken). */
export interface PlaceOpts {
  replace: boolean;
  next?: (taken: string) => Promise<string>;
}

/**
 * ScopedFs's moves and copies (server/fs/scoped-fs.ts): whole items and trees staged under a hidden, locked temp
 * and claimed at their final name (atomically no-replace unless replacing), with a job's observer told of progress.
 */
export class ScopeCopyMove extends ScopeWrites {
  /**
   * Moves within the scope: a rename, or copy-then-delete across devices. With `replace` a file lands over an
   * existing one; without, the name is claimed atomically, and `next` (if given) is asked for another name each
   * time the one tried is taken. Returns the virtual path it landed at.
   */
  async move(src: string, dst: string, opts: PlaceOpts = { replace: true }): Promise<string> {
    const from = this.lexical(src);
    await this.entryReal(src); // the checks on what moves (a folder holding state files never does)
    await this.mkdirp(parentOf(dst));
    const isDir = (await wrapFs(() => lstat(from))).isDirectory();
    for (let target = dst; ; ) {
      const to = await this.destination(target);
      // Within one quota a move adds nothing; into another quota's scope it adds the whole item.
      const hold = await reserveMoveAt(from, to);
      try {
        if (await (opts.replace ? this.overwriting(target, to, () => place(from, to, isDir, true)) : place(from, to, isDir, false))) {
          await hold.settle();
          await leftAt(from); // a quota holding the source but not the destination has room again
          return target;
        }
        await hold.release();
      } catch (e) {
        await hold.release();
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
    const first = await this.destination(dst);
    if (isDir && opts.replace && (await lstat(first).catch(() => null))?.isDirectory()) {
      await this.mergeTree(src, dst);
      return dst;
    }
    const tmp = await TempEntry.create(dirname(first), isDir ? { dir: true, mode: DIR_MODE } : { mode: FILE_MODE });
    this.observer?.temp?.(tmp.path);
    try {
      // A copy adds its bytes: a file's reserved before a byte is copied, a tree's file by file as it is filled.
      const replacing = !isDir && !!(await lstat(first).catch(() => null));
      const hold = await this.holdFor(tmp, first, isDir ? 0 : stats.size, isDir || replacing ? 0 : 1);
      stagedHolds.set(tmp, hold);
      if (isDir) await this.fillTree(src, tmp.path, hold);
      else {
        await copyOneFile(await this.openReal(real), tmp.path, tmp);
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
    const at = await this.destination(dst);
    const tmp = await TempEntry.create(dirname(at), { dir: true, mode: DIR_MODE });
    this.observer?.temp?.(tmp.path);
    try {
      stagedHolds.set(tmp, await this.holdFor(tmp, at, 0, 0)); // grown entry by entry by its filler (holdOf)
    } catch (e) {
      await tmp.discard();
      throw e;
    }
    return tmp;
  }

  /**
   * Places a finished temp (file or folder) at `dst`, re-checking the scope: over a file with `replace`, else only
   * while the name is free (atomically), asking `next` for another name each time it is taken. Returns where it landed.
   */
  async placeStaged(tmp: TempEntry, dst: string, opts: PlaceOpts): Promise<string> {
    for (let target = dst; ; ) {
      const to = await this.destination(target);
      await this.stillBeside(tmp, to);
      const replace = opts.replace && !tmp.isDir;
      const put = () => wrapMoved(() => place(tmp.path, to, tmp.isDir, replace));
      if (await (replace ? this.overwriting(target, to, put) : put())) {
        tmp.committed();
        await (stagedHolds.get(tmp) ?? NO_HOLD).settle();
        return target;
      }
      if (!opts.next) throw exists();
      target = await this.nextName(target, opts.next);
    }
  }

  /** Copies the tree below `src` into the (hidden, fresh) real folder `into`. */
  private async fillTree(src: string, into: string, hold: WriteHold): Promise<void> {
    for await (const e of this.walk(src)) {
      this.observer?.signal?.throwIfAborted(); // a job's cancel stops the copy here; the caller discards the temp
      const out = join(into, ...e.path.slice(src === '/' ? 1 : src.length + 1).split('/'));
      if (e.isDir) {
        await wrapFs(() => mkdir(out, { mode: DIR_MODE }));
        continue;
      }
      // Opened through the scope's reads (what the kernel opened is checked), read by descriptor below.
      const from = await this.openReal(e.real).catch((err: unknown) => (err instanceof AppError && (err.code === 'NOT_FOUND' || err.code === 'INVALID') ? null : Promise.reject(err)));
      if (!from) continue; // vanished meanwhile, or not a regular file: nothing to copy
      await hold.grow(from.stats.size, 1).catch(async (err: unknown) => {
        await from.handle.close().catch(() => {});
        throw err;
      });
      await copyOneFile(from, out);
      this.observer?.copied?.(from.stats.size, e.path);
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
}

/**
 * Copies one regular file's bytes (holes kept) and times into `out`, a new file, or into the open temp `into`,
 * from the source opened by ScopedFs.openReal: read through its descriptor (ReadHandle.path), never looked up again
 * by name, and closed here.
 */
async function copyOneFile(from: { handle: ReadHandle; stats: Stats }, out: string, into?: TempEntry): Promise<void> {
  const st = from.stats;
  try {
    await wrapFs(async () => {
      const fh = into?.fh ?? (await open(out, 'wx', FILE_MODE));
      try {
        await copyFileData(from.handle.path, st, fh, out);
      } finally {
        if (!into) await fh.close();
      }
      await utimes(out, st.atime, st.mtime).catch(() => {});
    });
  } finally {
    await from.handle.close().catch(() => {});
  }
}
