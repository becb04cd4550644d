import { constants } from 'node:fs';
import { open, stat, type FileHandle } from 'node:fs/promises';
import { AppError, invalid } from '../core/errors';
import { fromFsError } from './fs-errors';

/**
 * A file outside the files root that an admin names on the command line (another product's database, to import
 * from), opened for reading only: O_RDONLY, no lock of any kind, never written. Reads are positioned (pread), so a
 * parser pulls only the pages it needs and a large file never sits in memory whole.
 */
export interface ReadOnlyFile {
  /** The size when opened. Reads never go past it. */
  readonly size: number;
  /** Exactly `length` bytes at `offset`; throws INVALID when they are not all there (the file shrank meanwhile). */
  read(offset: number, length: number): Promise<Uint8Array>;
  close(): Promise<void>;
}

/**
 * Opens `path` read-only after checking it is a regular file (a FIFO would block the open, a device could act on
 * it). `what` names the file in messages ("filebrowser database"). Throws AppError NOT_FOUND, FORBIDDEN or INVALID
 * with a detail that says which file and why.
 */
export async function openReadOnlyFile(path: string, what: string): Promise<ReadOnlyFile> {
  const described = (e: unknown): AppError => {
    const app = fromFsError(e);
    if (app.detail) return app;
    const why = app.code === 'NOT_FOUND' ? 'no such file' : app.code === 'FORBIDDEN' ? 'permission denied' : 'cannot be read';
    return new AppError(app.code, `${what} ${path}: ${why}`, { cause: e });
  };
  let handle: FileHandle;
  try {
    if (!(await stat(path)).isFile()) throw invalid(`${what} ${path}: not a regular file`);
    handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (e) {
    throw described(e);
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) throw invalid(`${what} ${path}: not a regular file`);
    return new PositionedReader(handle, stats.size);
  } catch (e) {
    await handle.close().catch(() => {});
    throw described(e);
  }
}

class PositionedReader implements ReadOnlyFile {
  constructor(
    private readonly handle: FileHandle,
    readonly size: number,
  ) {}

  // Messages carry no file name: the caller says which file it was reading, and why.
  async read(offset: number, length: number): Promise<Uint8Array> {
    if (!Number.isSafeInteger(offset) || !Number.isSafeInteger(length) || offset < 0 || length < 0 || offset + length > this.size)
      throw invalid(`a read of ${length} bytes at ${offset} is outside the file (${this.size} bytes)`);
    const buf = new Uint8Array(length);
    let done = 0;
    while (done < length) {
      let n: number;
      try {
        ({ bytesRead: n } = await this.handle.read(buf, done, length - done, offset + done));
      } catch (e) {
        const app = fromFsError(e);
        throw new AppError(app.code, app.detail ?? `reading ${length} bytes at ${offset} failed (${(e as NodeJS.ErrnoException).code ?? 'error'})`, { cause: e });
      }
      if (n === 0) throw invalid(`the file ended at ${offset + done} bytes while being read (changed meanwhile?)`);
      done += n;
    }
    return buf;
  }

  async close(): Promise<void> {
    await this.handle.close();
  }
}
