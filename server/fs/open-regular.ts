import { close, constants, existsSync, fstat, open, read, readlinkSync, stat, type Stats } from 'node:fs';
import { promisify } from 'node:util';
import { invalid } from '../core/errors';
import { fromFsError, wrapFs } from './fs-errors';

const openP = promisify(open);
const readP = promisify(read);
const fstatP = promisify(fstat);
const statP = promisify(stat);
const closeP = promisify(close);

/**
 * A descriptor a consumer may drop without closing: node's FileHandle turns a handle collected while open into a
 * thrown error (which ends the process), and an archive whose client vanished, or a response body nobody read,
 * can drop one. A plain descriptor is closed here when its owner is collected, silently.
 */
const leaked = new FinalizationRegistry<number>((fd) => close(fd, () => {}));

/** Whether /proc names this process's open files (/proc/self/fd). */
const hasProcFd = existsSync('/proc/self/fd');

/** A read-only descriptor of a regular file, closed exactly once. */
export class ReadHandle {
  private open = true;

  /** @param at the path it was opened at (the fallback of `path` where there is no /proc). */
  constructor(
    readonly fd: number,
    private readonly at?: string,
  ) {
    leaked.register(this, fd, this);
  }

  /**
   * A path that opens exactly this open file, for a call that takes only paths (copyFile): /proc/self/fd/N, the
   * kernel's link to this very file, never a name looked up again. Valid while the handle is open. Where there is
   * no /proc, the path it was opened at (whose checks then stand alone, as in openRegular).
   */
  get path(): string {
    return hasProcFd || this.at === undefined ? `/proc/self/fd/${this.fd}` : this.at;
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
 * The location the kernel gives the file open as `fd` (/proc/self/fd): where the opened file really is, whatever
 * path led to it. Null where the kernel cannot say (no /proc).
 */
function openedAt(fd: number): string | null {
  try {
    return readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    return null;
  }
}

/**
 * Opens, for reading, a file a ScopedFs already resolved (a stat, listing or walk result), only when it is a
 * regular file. FIFOs, sockets and devices are refused from a stat, before any open() (opening a FIFO blocks
 * until a writer comes; opening a device can act on it). The open itself is O_NONBLOCK (a FIFO swapped in since
 * the stat cannot block it) and O_NOFOLLOW (nor can a symlink swapped in at the last name). A folder on the way
 * may have been swapped for a link since the path was checked: `where` is then given the location the kernel
 * reports for the opened descriptor (what was really opened; never the path again) and throws to refuse it, before
 * a byte is read (ScopedFs passes its scope, trash and rule checks). Where the kernel cannot name the descriptor
 * (no /proc) the path's own checks stand alone. Throws AppError: NOT_FOUND, FORBIDDEN (permission denied, or
 * refused by `where`), INVALID "not a regular file". The caller closes the handle.
 */
export async function openRegular(real: string, where?: (opened: string) => void): Promise<{ handle: ReadHandle; stats: Stats }> {
  const before = await wrapFs(() => statP(real));
  if (!before.isFile()) throw invalid('not a regular file');
  const handle = new ReadHandle(await wrapFs(() => openP(real, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW)), real);
  try {
    if (where) {
      const at = openedAt(handle.fd);
      if (at !== null) where(at);
    }
    const stats = await handle.stat();
    if (!stats.isFile()) throw invalid('not a regular file');
    return { handle, stats };
  } catch (e) {
    await handle.close().catch(() => {});
    throw fromFsError(e);
  }
}

