import { dlopen, FFIType, ptr } from 'bun:ffi';
import { closeSync, constants, openSync, readlinkSync } from 'node:fs';
import { EntryStats } from './entry-stats';
import { hasStatx, statxAtAddress, statxFd } from './statx';

/**
 * A small folder read through one descriptor: opened once (the path's links followed, as realpath does), its real
 * location asked of the kernel for that very descriptor (/proc/self/fd), its own stats, its names and the first
 * names' stats read from it. Six system calls where realpath, lstat and readdir made eight, no second open to stat
 * the entries, and no window between resolving the folder and reading it: the names are those of the folder whose
 * location was checked. Callers check the location (scope, trash, rules) exactly as for any resolved path; this
 * module only reads.
 */

interface Getdents {
  getdents64(fd: number, buf: Uint8Array, size: number): number | bigint;
}

function load(): Getdents | null {
  if (!hasStatx || process.platform !== 'linux') return null;
  try {
    return dlopen('libc.so.6', { getdents64: { args: [FFIType.i32, FFIType.ptr, FFIType.u64], returns: FFIType.i64 } }).symbols as unknown as Getdents;
  } catch {
    return null; // glibc before 2.30, or another C library: callers take realpath + readdir
  }
}
const libc = load();

/** Whether readFolderAt() can answer here. */
export const hasFolderRead = libc !== null;

// linux_dirent64: d_ino u64 @0, d_off i64 @8, d_reclen u16 @16, d_type u8 @18, d_name NUL-terminated @19.
const DT_DIR = 4;
const DT_LNK = 10;
const DT_UNKNOWN = 0;
/** Reused by every call on this thread (the calls are synchronous); a small folder's names fit a few reads of it. */
const buf = new Uint8Array(new ArrayBuffer(32 * 1024));
const bufAt = libc ? ptr(buf) : 0;
const view = new DataView(buf.buffer);
const nums = new Float64Array(3);
const utf8 = new TextDecoder();
const O_FLAGS = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NONBLOCK; // libuv adds O_CLOEXEC itself

/**
 * What readFolderAt() found: kinds as scan() gives them (0 file or special, 1 folder, 2 link or unknown: ask entry()),
 * and `known`, the lstat of each of the first `statNames` names at the same position (null: not stat-ed, or it
 * failed; the reader then stats it itself).
 */
export interface FolderRead {
  real: string;
  stats: EntryStats;
  names: string[];
  kinds: Uint8Array;
  known: (EntryStats | null)[];
}

/**
 * Opens the folder at `disk` and reads it whole when its own size (st_size) is at most `maxBytes`. `check` is given
 * the real location before anything is read and throws to refuse it. Null when the path is not an openable folder or
 * the folder is larger (callers then resolve and read it the usual way, which also produces the usual errors), or
 * when the kernel cannot name the descriptor. `hidden` names are left out. The first `statNames` names are also
 * lstat-ed through the descriptor (relative to it: no path walk), as a listing of the folder would.
 */
export function readFolderAt(disk: string, maxBytes: number, hidden: (name: string) => boolean, check: (real: string) => void, statNames = 0): FolderRead | null {
  if (!libc) return null;
  let fd: number;
  try {
    fd = openSync(disk, O_FLAGS);
  } catch {
    return null; // ENOTDIR (a file), ENOENT, EACCES, ELOOP…: the usual path answers
  }
  try {
    let real: string;
    try {
      real = readlinkSync(`/proc/self/fd/${fd}`);
    } catch {
      return null; // no /proc
    }
    // A removed folder reads as "<path> (deleted)"; a folder really named so is left to the usual path too.
    if (!real.startsWith('/') || real.endsWith(' (deleted)')) return null;
    check(real);
    if (!statxFd(fd, nums, 0)) return null;
    const stats = new EntryStats(nums[0]!, nums[1]!, nums[2]!);
    if (!stats.isDirectory() || stats.size > maxBytes) return null;
    const names: string[] = [];
    const kinds: number[] = [];
    const known: (EntryStats | null)[] = [];
    for (;;) {
      const n = Number(libc.getdents64(fd, buf, buf.length));
      if (n < 0) return null;
      if (n === 0) break;
      for (let at = 0; at < n; ) {
        const len = view.getUint16(at + 16, true);
        const type = buf[at + 18]!;
        const end = buf.indexOf(0, at + 19);
        const terminated = end >= 0 && end < at + len;
        const name = utf8.decode(buf.subarray(at + 19, terminated ? end : at + len));
        const nameAt = at + 19;
        at += len;
        if (name === '.' || name === '..' || hidden(name)) continue;
        names.push(name);
        kinds.push(type === DT_DIR ? 1 : type === DT_LNK || type === DT_UNKNOWN ? 2 : 0);
        // The name as the kernel gave it, NUL-terminated in place: stat-ed without encoding it again.
        if (known.length < statNames) known.push(terminated && statxAtAddress(fd, bufAt + nameAt, nums, 0) ? new EntryStats(nums[0]!, nums[1]!, nums[2]!) : null);
      }
    }
    return { real, stats, names, kinds: Uint8Array.from(kinds), known };
  } finally {
    closeSync(fd);
  }
}
