import { dlopen, FFIType } from 'bun:ffi';

/**
 * The C library calls node:fs lacks: lseek with SEEK_DATA/SEEK_HOLE (to copy sparse files hole by hole), flock (so
 * a temp file being written is recognisably alive, to this and every other process, and a crashed writer's lock is
 * dropped by the kernel), and sync_file_range with SYNC_FILE_RANGE_WRITE only (to start the writeback of what an
 * upload wrote while more arrives: writeback.ts). All three return without waiting for the disk, so they are made
 * synchronously.
 * Where the library cannot be loaded (not glibc), `libc` is null and callers take their documented fallbacks.
 */
interface Libc {
  lseek(fd: number, offset: number, whence: number): number | bigint;
  flock(fd: number, op: number): number;
  sync_file_range(fd: number, offset: number, nbytes: number, flags: number): number;
}

function load(): Libc | null {
  try {
    const lib = dlopen('libc.so.6', {
      lseek: { args: [FFIType.i32, FFIType.i64, FFIType.i32], returns: FFIType.i64 },
      flock: { args: [FFIType.i32, FFIType.i32], returns: FFIType.i32 },
      sync_file_range: { args: [FFIType.i32, FFIType.i64, FFIType.i64, FFIType.u32], returns: FFIType.i32 },
    });
    return lib.symbols as unknown as Libc;
  } catch {
    return null;
  }
}

const libc = load();

const SEEK_DATA = 3;
const SEEK_HOLE = 4;
const LOCK_EX = 2;
const LOCK_NB = 4;

/** True when sparse copies and temp-file locks are available. */
export const hasLibc = libc !== null;

/**
 * The data extents of an open file, as [start, end) pairs, found with SEEK_DATA/SEEK_HOLE. A filesystem without
 * hole support reports one extent covering the whole file. Null when the calls are unavailable.
 */
export function dataExtents(fd: number, size: number): [number, number][] | null {
  if (!libc) return null;
  const out: [number, number][] = [];
  let off = 0;
  while (off < size) {
    const data = Number(libc.lseek(fd, off, SEEK_DATA));
    if (data < 0 || data >= size) break; // ENXIO: only a hole remains
    const hole = Number(libc.lseek(fd, data, SEEK_HOLE));
    const end = hole < 0 || hole > size ? size : hole;
    out.push([data, end]);
    off = end;
  }
  return out;
}

/** Takes an exclusive lock without waiting; false when another open file holds one (or locks are unavailable). */
export function tryLock(fd: number): boolean {
  return libc !== null && libc.flock(fd, LOCK_EX | LOCK_NB) === 0;
}

const SYNC_FILE_RANGE_WRITE = 2;

/**
 * Starts writing `[offset, offset + length)` of an open file to its device without waiting for it (dirty pages not
 * yet under write-out are queued). False when unavailable; the later fsync then does all the work, as before.
 */
export function startWriteback(fd: number, offset: number, length: number): boolean {
  return libc !== null && libc.sync_file_range(fd, offset, length, SYNC_FILE_RANGE_WRITE) === 0;
}
