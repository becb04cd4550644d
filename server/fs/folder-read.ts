import { dlopen, FFIType, ptr, toArrayBuffer } from 'bun:ffi';
import { closeSync, constants, openSync, readlinkSync } from 'node:fs';
import { EntryStats, statsOfLast } from './entry-stats';
import { cachedFolder, folderCacheCounts, folderCacheOn, forgetFolder, rememberFolder, watchInUse } from './folder-cache';
import { onLocalFs, unwatch, watchFolder } from './inotify';
import { hasStatx, lastIdentity, statxAt, statxAtAddress, statxFd } from './statx';

/**
 * A small folder read through one descriptor: opened once (the path's links followed, as realpath does), its real
 * location asked of the kernel for that very descriptor (/proc/self/fd), or known from the path when the kernel
 * opened it refusing any link on the way (openPlain); then its own stats, its names and the first names' stats read
 * from it. Five or six system calls where realpath, lstat and readdir made eight, no second open to stat the
 * entries, and no window between resolving the folder and reading it: the names are those of the folder whose
 * location was checked. Callers check the location (scope, trash, rules) exactly as for any resolved path; this
 * module only reads.
 */

interface Libc {
  getdents64(fd: number, buf: Uint8Array, size: number): number | bigint;
  syscall(nr: number, dirfd: number, path: Uint8Array, how: Uint8Array, size: number): number | bigint;
  __errno_location(): number;
}

function load(): Libc | null {
  if (!hasStatx || process.platform !== 'linux') return null;
  try {
    return dlopen('libc.so.6', {
      getdents64: { args: [FFIType.i32, FFIType.ptr, FFIType.u64], returns: FFIType.i64 },
      syscall: { args: [FFIType.i64, FFIType.i64, FFIType.ptr, FFIType.ptr, FFIType.u64], returns: FFIType.i64 },
      __errno_location: { args: [], returns: FFIType.ptr },
    }).symbols as unknown as Libc;
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
const view = new DataView(buf.buffer);
/** One read's names end to end (a NUL after each: no name holds one), decoded in one call; where each record starts. */
const joined = new Uint8Array(new ArrayBuffer(32 * 1024));
const recAt = new Int32Array(2048); // a record takes at least 24 bytes: at most 1366 per read
const recNul = new Uint8Array(2048);
const nums = new Float64Array(3);
const utf8 = new TextDecoder();
const O_FLAGS = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NONBLOCK; // libuv adds O_CLOEXEC itself

// openat2(2) (Linux 5.6): the same system call number on every architecture. struct open_how: flags, mode, resolve.
const SYS_OPENAT2 = 437;
const AT_FDCWD = -100;
const O_CLOEXEC = 0o2000000;
const RESOLVE_NO_SYMLINKS = 0x04;
const ENOSYS = 38;
const EPERM = 1;
// Passed as typed arrays (bun:ffi takes their address at each call), each on an ArrayBuffer of its own.
const how = new Uint8Array(new ArrayBuffer(64));
new DataView(how.buffer).setBigUint64(0, BigInt(O_FLAGS | O_CLOEXEC), true);
new DataView(how.buffer).setBigUint64(16, BigInt(RESOLVE_NO_SYMLINKS), true);
const pathBuf = new Uint8Array(new ArrayBuffer(3 * 4096 + 1));
const enc = new TextEncoder();
/** Off once the kernel or a seccomp filter refuses openat2 itself (not a path): every folder then takes open + readlink. */
let openat2Works = libc !== null;

/** The calling thread's errno after a failed call. */
const errno = () => new Int32Array(toArrayBuffer(libc!.__errno_location(), 0, 4))[0]!;

/**
 * Opens the folder at `path` only when no component of the path is a link (RESOLVE_NO_SYMLINKS): the path is then
 * the folder's real location, and no readlink of the descriptor is needed to learn it. -1 when it did not open (a
 * link on the way, not a folder, missing…, or no openat2 here): the caller opens it the general way.
 */
function openPlain(path: string): number {
  if (!openat2Works) return -1;
  const r = enc.encodeInto(path, pathBuf);
  if (r.read !== path.length || r.written >= pathBuf.length) return -1;
  pathBuf[r.written] = 0;
  const fd = Number(libc!.syscall(SYS_OPENAT2, AT_FDCWD, pathBuf, how, 24));
  if (fd >= 0) return fd;
  const code = errno();
  if (code === ENOSYS || code === EPERM) openat2Works = false;
  return -1;
}

const DONE: string[] = [];

/**
 * One getdents64 read of the open folder `fd` into `buf`: the names of its records (in record order, `.` and `..`
 * included), with where each record starts in `buf` (recAt) and whether its name ends there (recNul), valid until
 * the next read on this thread. DONE at the end of the folder, null on an error.
 */
function readRecords(fd: number): string[] | null {
  const n = Number(libc!.getdents64(fd, buf, buf.length));
  if (n < 0) return null;
  if (n === 0) return DONE;
  let w = 0;
  let count = 0;
  for (let at = 0; at < n; ) {
    const stop = at + view.getUint16(at + 16, true);
    let i = at + 19;
    while (i < stop && buf[i] !== 0) joined[w++] = buf[i++]!;
    joined[w++] = 0;
    recAt[count] = at;
    recNul[count++] = i < stop ? 1 : 0;
    at = stop;
  }
  return utf8.decode(joined.subarray(0, w - 1)).split('\0');
}

/** A folder's kind of entry from its record's d_type: 0 file or special, 1 folder, 2 link or unknown (ask lstat). */
const kindOf = (type: number) => (type === DT_DIR ? 1 : type === DT_LNK || type === DT_UNKNOWN ? 2 : 0);

/** Work done between two yields to the event loop while a big folder is read (ms). */
const SLICE_MS = 4;

/**
 * The names and kinds of the folder at `real` (its real location, resolved and checked by the caller), read in
 * slices of getdents64 calls with a turn of the event loop between them: a 100,000-entry folder costs no object per
 * entry (readdir's Dirents) and never holds the thread for long. `hidden` names are left out. Null only where this
 * reader is unavailable (the caller takes readdir). A real location has no link in it: one that became a link
 * since the check fails to open (O_NOFOLLOW with O_DIRECTORY: ENOTDIR), as a folder gone (ENOENT) or a file does;
 * those errors are thrown.
 */
export async function readNamesSliced(real: string, hidden: (name: string) => boolean): Promise<{ names: string[]; kinds: Uint8Array } | null> {
  if (!libc) return null;
  const fd = openSync(real, O_FLAGS | constants.O_NOFOLLOW);
  try {
    const names: string[] = [];
    let kinds = new Uint8Array(4096);
    let slice = performance.now();
    for (;;) {
      const batch = readRecords(fd);
      if (batch === null) throw Object.assign(new Error(`reading the folder failed (errno ${errno()})`), { code: 'EIO' });
      if (batch === DONE) break;
      if (kinds.length < names.length + batch.length) {
        const more = new Uint8Array(Math.max(kinds.length * 2, names.length + batch.length));
        more.set(kinds);
        kinds = more;
      }
      for (let j = 0; j < batch.length; j++) {
        const name = batch[j]!;
        if (name === '.' || name === '..' || hidden(name)) continue;
        kinds[names.length] = kindOf(buf[recAt[j]! + 18]!);
        names.push(name);
      }
      // Everything of this read is taken out of the shared buffers before the yield (other reads may use them).
      if (performance.now() - slice >= SLICE_MS) {
        await new Promise<void>((r) => setImmediate(r));
        slice = performance.now();
      }
    }
    return { names, kinds: kinds.subarray(0, names.length) };
  } finally {
    closeSync(fd);
  }
}

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
  /**
   * `names` is the array remembered for this folder (folder-cache.ts), handed out again, the same array, while the
   * folder is unchanged: to be read, never changed (what is derived from the names alone may be kept with it).
   */
  shared?: boolean;
}

/** The folder's identity read after its statxFd (inode, device), and a scratch copy for the entries' link counts. */
const folderId = new Uint32Array(4);
const entryId = new Uint32Array(4);
const S_IFMT = 0o170000;
const S_IFREG = 0o100000;
const S_IFLNK = 0o120000;

/**
 * Opens the folder at `disk` and reads it whole when its own size (st_size) is at most `maxBytes`. `check` is given
 * the real location before anything is read and throws to refuse it. Null when the path is not an openable folder or
 * the folder is larger (callers then resolve and read it the usual way, which also produces the usual errors), or
 * when the kernel cannot name the descriptor. `hidden` names are left out. The first `statNames` names are also
 * lstat-ed through the descriptor (relative to it: no path walk), as a listing of the folder would. `plain`: where
 * the folder really is if no link is on its way, tried first (openPlain: no readlink then).
 * A folder opened plain, on a local filesystem, with at most `statNames` names, is remembered (folder-cache.ts): the
 * next read of the same path, after the same opening, check and fstat, takes its names and stats from there while
 * the folder is the same one and its watch reported no change.
 */
export function readFolderAt(disk: string, maxBytes: number, hidden: (name: string) => boolean, check: (real: string) => void, statNames = 0, plain?: string): FolderRead | null {
  if (!libc) return null;
  let fd = plain === undefined ? -1 : openPlain(plain);
  const isPlain = fd >= 0;
  let real = plain ?? '';
  if (fd < 0) {
    try {
      fd = openSync(disk, O_FLAGS);
    } catch {
      return null; // ENOTDIR (a file), ENOENT, EACCES, ELOOP…: the usual path answers
    }
    try {
      real = readlinkSync(`/proc/self/fd/${fd}`);
    } catch {
      real = ''; // no /proc
    }
    // A removed folder reads as "<path> (deleted)"; a folder really named so is left to the usual path too.
    if (!real.startsWith('/') || real.endsWith(' (deleted)')) {
      closeSync(fd);
      return null;
    }
  }
  let wd = -1;
  try {
    check(real);
    if (!statxFd(fd, nums, 0)) return null;
    const stats = new EntryStats(nums[0]!, nums[1]!, nums[2]!);
    if (!stats.isDirectory() || stats.size > maxBytes) return null;
    if (isPlain && statNames > 0 && folderCacheOn()) {
      lastIdentity(folderId);
      const kept = cachedFolder(real);
      if (kept && sameFolder(kept.id)) {
        folderCacheCounts.hits++;
        return shown(kept, real, stats, hidden, statNames, true, fd);
      }
      if (kept) forgetFolder(real);
      // Watched before it is read: a change made while it is read is reported at the next check.
      if (onLocalFs(fd)) wd = watchFolder(fd);
    }
    const read = readWhole(fd, statNames);
    if (!read) return null;
    // Remembered only with every name stat-ed; the watch is the remembered folder's then.
    const remembered = wd >= 0 && read.complete && rememberFolder(real, { wd, id: Uint32Array.from(folderId), names: read.names, kinds: read.kinds, known: read.known as EntryStats[], restat: read.restat });
    if (remembered) wd = -1;
    return shown(read, real, stats, hidden, statNames, remembered, -1);
  } finally {
    if (wd >= 0 && !watchInUse(wd)) unwatch(wd);
    closeSync(fd);
  }
}

const sameFolder = (id: Uint32Array) => id[0] === folderId[0] && id[1] === folderId[1] && id[2] === folderId[2] && id[3] === folderId[3];

/** One read of a whole folder, nothing hidden yet (the names a remembered folder keeps, and every read starts from). */
interface WholeRead {
  names: string[];
  kinds: Uint8Array;
  /** The lstat of the first `statNames` names (null where it failed). */
  known: (EntryStats | null)[];
  /** 1 where a remembered entry must be stat-ed again at each use. */
  restat: Uint8Array;
  /** Every name has its lstat: the folder can be remembered. */
  complete: boolean;
}

/**
 * Every name of the open folder and the lstat of the first `statNames`, through the descriptor (the name as the kernel
 * gave it, NUL-terminated in place: stat-ed without encoding it again). Null when the read failed.
 */
function readWhole(fd: number, statNames: number): WholeRead | null {
  const names: string[] = [];
  const kinds: number[] = [];
  const known: (EntryStats | null)[] = [];
  const restat: number[] = [];
  let complete = true;
  const bufAt = ptr(buf); // taken per call, as the stat worker does, never kept across calls
  for (;;) {
    const batch = readRecords(fd);
    if (batch === null) return null;
    if (batch === DONE) break;
    for (let j = 0; j < batch.length; j++) {
      const name = batch[j]!;
      if (name === '.' || name === '..') continue;
      const at = recAt[j]!;
      names.push(name);
      kinds.push(kindOf(buf[at + 18]!));
      if (known.length >= statNames) {
        complete = false;
        continue;
      }
      if (recNul[j] !== 1 || !statxAtAddress(fd, bufAt + at + 19, nums, 0)) {
        known.push(null);
        restat.push(1);
        complete = false;
        continue;
      }
      const links = lastIdentity(entryId);
      const type = nums[0]! & S_IFMT;
      known.push(statsOfLast(nums));
      // Read again at each use: subfolders, files with other links, and special files (a FIFO's or a device's time
      // moves with writes that raise no event); a link's own lstat changes only by replacing it (an event).
      restat.push(type === S_IFREG ? (links > 1 ? 1 : 0) : type === S_IFLNK ? 0 : 1);
    }
  }
  return { names, kinds: Uint8Array.from(kinds), known, restat: Uint8Array.from(restat), complete };
}

/**
 * A folder's read as readFolderAt() answers it: `hidden` names left out, the first `statNames` shown names with their
 * lstat, those marked `restat` stat-ed again through `restatFd` (a remembered folder in use; -1: just read).
 * `remembered`: the names array is the remembered folder's own.
 */
function shown(r: Omit<WholeRead, 'complete'>, real: string, stats: EntryStats, hidden: (name: string) => boolean, statNames: number, remembered: boolean, restatFd: number): FolderRead {
  const all = r.names.length;
  const names: string[] = [];
  const kinds = new Uint8Array(all);
  const known: (EntryStats | null)[] = [];
  for (let i = 0; i < all; i++) {
    const name = r.names[i]!;
    if (hidden(name)) continue;
    kinds[names.length] = r.kinds[i]!;
    names.push(name);
    if (known.length < statNames) known.push(restatFd < 0 || r.restat[i] === 0 ? (r.known[i] ?? null) : statxAt(restatFd, name, nums, 0) ? statsOfLast(nums) : null);
  }
  // Nothing hidden, remembered: the remembered array itself, the same one at every use while the folder is unchanged
  // (a listing keys what it derives from the names alone on it: folder-listing.ts nameOrderOf). Not frozen: reading
  // a frozen array's elements costs ten times more here, and Object.isFrozen of one ~1 µs.
  if (names.length !== all) return { real, stats, names, kinds: kinds.subarray(0, names.length), known };
  return remembered ? { real, stats, names: r.names, kinds, known, shared: true } : { real, stats, names, kinds, known };
}
