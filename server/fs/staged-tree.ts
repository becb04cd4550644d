import { constants } from 'node:fs';
import { lstat, mkdir, open, utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { exists } from '../core/errors';
import { fromFsError } from './fs-errors';
import type { TempEntry } from './temp-file';

const DIR_MODE = 0o750;

/**
 * Writes a tree into a fresh temp folder of ours (extraction), by relative components already checked by the
 * caller. Nothing is ever followed: each folder is made with mkdir (an existing component must be a real folder,
 * never a link), each file is created new with O_EXCL|O_NOFOLLOW, so even a link planted inside the temp meanwhile
 * cannot redirect a write. Files are never world-readable, never set-id.
 */
export class StagedTree {
  constructor(private readonly tmp: TempEntry) {}

  private at(parts: string[]): string {
    return join(this.tmp.path, ...parts);
  }

  /** Makes the folder `parts` and its missing parents inside the temp. */
  async dir(parts: string[]): Promise<void> {
    for (let i = 1; i <= parts.length; i++) {
      const p = this.at(parts.slice(0, i));
      try {
        await mkdir(p, { mode: DIR_MODE });
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw fromFsError(e);
        const st = await lstat(p);
        if (!st.isDirectory()) throw exists(`${parts.slice(0, i).join('/')} is both a file and a folder in the archive`);
      }
    }
  }

  /**
   * Writes a new file from `body`, calling `onBytes` after each chunk (which may throw to stop: limits, cancel).
   * Returns the bytes written. A name already written is a 409 (an archive holding one name twice).
   */
  async file(parts: string[], body: AsyncIterable<Uint8Array>, opts: { mode: number; mtime: Date; onBytes: (n: number, soFar: number) => void }): Promise<number> {
    await this.dir(parts.slice(0, -1));
    const p = this.at(parts);
    const mode = 0o600 | (opts.mode & 0o150);
    let fh;
    try {
      fh = await open(p, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, mode);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EEXIST') throw exists(`${parts.join('/')} appears twice in the archive`);
      throw fromFsError(e);
    }
    let written = 0;
    try {
      for await (const chunk of body) {
        opts.onBytes(chunk.length, written + chunk.length);
        for (let off = 0; off < chunk.length; ) off += (await fh.write(chunk, off, chunk.length - off)).bytesWritten;
        written += chunk.length;
      }
    } finally {
      await fh.close();
    }
    await utimes(p, opts.mtime, opts.mtime).catch(() => {});
    return written;
  }
}
