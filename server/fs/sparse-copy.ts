import type { Stats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { copyFile, open, statfs } from 'node:fs/promises';
import { dirname } from 'node:path';
import { AppError } from '../core/errors';
import { dataExtents } from './libc';

const CHUNK = 1024 * 1024;

/** A file whose allocated blocks cover less than its apparent size has holes. */
export const isSparse = (st: Stats) => st.blocks * 512 < st.size;

/**
 * Copies the regular file `src` (described by `st`) into the open, empty temp file `dst` at `dstPath`.
 * Dense files go through copyFile (the kernel's copy_file_range). On this machine's ext4 that call writes holes
 * out as zeros (measured: a 10 GB `truncate`d file became 10 GB of blocks), so a sparse file is copied extent by
 * extent (SEEK_DATA/SEEK_HOLE) and the holes are left as holes. Without those calls a sparse file is copied only
 * when its full apparent size fits in the free space, else NO_SPACE: a copy never fills the disk with zeros.
 */
export async function copyFileData(src: string, st: Stats, dst: FileHandle, dstPath: string): Promise<void> {
  if (!isSparse(st)) return copyFile(src, dstPath);
  const sfh = await open(src, 'r');
  try {
    const extents = dataExtents(sfh.fd, st.size);
    if (!extents) {
      const fs = await statfs(dirname(dstPath));
      if (st.size > fs.bavail * fs.bsize) throw new AppError('NO_SPACE', `not enough free space to copy a sparse file of ${st.size} bytes`);
      await sfh.close();
      return copyFile(src, dstPath);
    }
    const buf = Buffer.allocUnsafe(Math.min(CHUNK, Math.max(st.size, 1)));
    for (const [start, end] of extents) {
      for (let pos = start; pos < end; ) {
        const { bytesRead } = await sfh.read(buf, 0, Math.min(buf.length, end - pos), pos);
        if (bytesRead === 0) break; // the source shrank meanwhile
        let off = 0;
        while (off < bytesRead) off += (await dst.write(buf, off, bytesRead - off, pos + off)).bytesWritten;
        pos += bytesRead;
      }
    }
    await dst.truncate(st.size); // the trailing hole, if any
  } finally {
    await sfh.close().catch(() => {});
  }
}
