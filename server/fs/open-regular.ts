import { access, close, constants, fstat, open, read, stat, type Stats } from 'node:fs';
import { promisify } from 'node:util';
import { invalid } from '../core/errors';
import { fromFsError, wrapFs } from './fs-errors';

const openP = promisify(open);
const readP = promisify(read);
const fstatP = promisify(fstat);
const statP = promisify(stat);
const closeP = promisify(close);
const accessP = promisify(access);

/**
 * A descriptor a consumer may drop without closing: node's FileHandle turns a handle collected while open into a
 * thrown error (which ends the process), and an archive whose client vanished, or a response body nobody read,
 * can drop one. A plain descriptor is closed here when its owner is collected, silently.
 */
const leaked = new FinalizationRegistry<number>((fd) => close(fd, () => {}));

/** A read-only descriptor of a regular file, closed exactly once. */
export class ReadHandle {
  private open = true;

  constructor(readonly fd: number) {
    leaked.register(this, fd, this);
  }

  /** Reads up to `length` bytes at `position` into `buf` at `offset`. */
  async read(buf: Uint8Array, offset: number, length: number, position: number): Promise<{ bytesRead: number }> {
    if (!this.open) throw new Error('read after close');
    const bytesRead = await readP(this.fd, buf, offset, length, position);
    return { bytesRead: typeof bytesRead === 'number' ? bytesRead : (bytesRead as { bytesRead: number }).bytesRead };
  }

  stat(): Promise<Stats> {
    return fstatP(this.fd);
  }

  async close(): Promise<void> {
    if (!this.open) return;
    this.open = false;
    leaked.unregister(this);
    await closeP(this.fd);
  }
}

/**
 * Opens, for reading, a file a ScopedFs already resolved (a stat, listing or walk result), only when it is a
 * regular file. FIFOs, sockets and devices are refused from a stat, before any open() (opening a FIFO blocks
 * until a writer comes; opening a device can act on it). The open itself is O_NONBLOCK (a FIFO swapped in since
 * the stat cannot block it) and O_NOFOLLOW (nor can a symlink swapped in), and the opened handle is checked
 * again. Throws AppError: NOT_FOUND, FORBIDDEN (permission denied), INVALID "not a regular file".
 * The caller closes the handle.
 */
export async function openRegular(real: string): Promise<{ handle: ReadHandle; stats: Stats }> {
  const before = await wrapFs(() => statP(real));
  if (!before.isFile()) throw invalid('not a regular file');
  const handle = new ReadHandle(await wrapFs(() => openP(real, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW)));
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) throw invalid('not a regular file');
    return { handle, stats };
  } catch (e) {
    await handle.close().catch(() => {});
    throw fromFsError(e);
  }
}

/** Refuses, before a response is started, a path that is no longer a readable regular file (404, 403, 400). */
export async function checkReadable(real: string): Promise<void> {
  const st = await wrapFs(() => statP(real));
  if (!st.isFile()) throw invalid('not a regular file');
  await wrapFs(() => accessP(real, constants.R_OK));
}
