import type { Stats } from 'node:fs';
import { wrapFs } from './fs-errors';
import { openRegular, type ReadHandle } from './open-regular';
import { ScopePaths } from './scope-paths';
import { forbidden } from '../core/errors';

/** ScopedFs's reads of file content: only regular files, only after the scope checks (server/fs/scoped-fs.ts). */
export class ScopeReads extends ScopePaths {
  /**
   * THE way a user file's content is opened (downloads, previews, subtitles, archives, hashes, sniffing): a file this
   * scope already resolved (a stat, listing or walk result), only when it is a regular file (fs/open-regular.ts:
   * FIFOs, sockets and devices are a 400 before any open), handed out OPEN. Callers read the descriptor and never
   * open the path again. What was really opened is checked, not only the path: a folder on the way swapped for a
   * link since the path was resolved (out of the scope, into the trash, onto what the rules deny) is refused
   * before a byte is read (checkOpened). The caller closes the handle.
   */
  async openReal(real: string): Promise<{ handle: ReadHandle; stats: Stats }> {
    this.checkReal(real);
    return openRegular(real, (opened) => this.checkOpened(real, opened));
  }

  /**
   * The checks on the location the kernel reports for a descriptor opened at `real`: the same location passes (it
   * is what the scope checked); another one (a link swapped in on the way, or a rename since) must pass the checks
   * of any resolved location: not in the trash, inside the scope (unless external links are followed), allowed by
   * the rules there.
   */
  private checkOpened(real: string, opened: string): void {
    if (opened === real) return;
    this.checkReal(opened);
    if (!this.followExternalSymlinks && !this.targetAllowed(opened)) throw forbidden();
  }

  /**
   * The first `n` bytes of a file this scope already resolved (a stat or listing result), for type sniffing, with
   * the stats of what was opened (what the sniff is remembered by: services/files/sniff-cache.ts).
   */
  async head(real: string, n = 512): Promise<{ bytes: Uint8Array; truncated: boolean; stats: Stats }> {
    const { handle, stats } = await this.openReal(real);
    try {
      const buf = Buffer.alloc(n);
      const { bytesRead } = await wrapFs(() => handle.read(buf, 0, n, 0));
      return { bytes: buf.subarray(0, bytesRead), truncated: bytesRead === n, stats };
    } finally {
      await handle.close();
    }
  }

  /** A whole (small) text file. Callers cap the size first; bytes appended since the open are not read. */
  async readText(real: string): Promise<string> {
    const { handle, stats } = await this.openReal(real);
    try {
      const buf = Buffer.alloc(stats.size);
      let len = 0;
      while (len < buf.length) {
        const { bytesRead } = await wrapFs(() => handle.read(buf, len, buf.length - len, len));
        if (bytesRead === 0) break;
        len += bytesRead;
      }
      return buf.toString('utf8', 0, len);
    } finally {
      await handle.close();
    }
  }

  /**
   * Hex digest of a regular file, computed by `digest` off the event loop (services/work: a worker thread reads
   * the descriptor). The descriptor stays open until `digest` says the reader has truly stopped (`settled`), even
   * when the answer came earlier (cancelled, timed out): a closed, reused descriptor must never be read.
   */
  async hash(real: string, algo: 'md5' | 'sha1' | 'sha256' | 'sha512', digest: (fd: number, algo: string, settled: () => void) => Promise<string>): Promise<string> {
    const { handle } = await this.openReal(real);
    return digest(handle.fd, algo, () => void handle.close().catch(() => {}));
  }

  /** Opens a regular file of the scope for reading (FIFOs, sockets and devices refused before any open). The caller closes it. */
  async openRead(vpath: string): Promise<{ handle: ReadHandle; stats: Stats }> {
    return this.openReal(await this.real(vpath));
  }
}
