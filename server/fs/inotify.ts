import { dlopen, FFIType } from 'bun:ffi';
import { readFileSync } from 'node:fs';

/**
 * A non-blocking inotify(7) instance of this thread, read on demand (never from the event loop): folder-cache.ts
 * asks it, before trusting what it remembers of a folder, which watched folders changed. The kernel queues an event
 * inside the system call that made the change, so every change completed before `drain()` is in what it reports.
 * Null where inotify or the C library calls are unavailable (the cache is then off).
 */
interface Libc {
  inotify_init1(flags: number): number;
  inotify_add_watch(fd: number, path: Uint8Array, mask: number): number;
  inotify_rm_watch(fd: number, wd: number): number;
  read(fd: number, buf: Uint8Array, size: number): number | bigint;
  fstatfs(fd: number, buf: Uint8Array): number;
}

function load(): Libc | null {
  if (process.platform !== 'linux') return null;
  try {
    return dlopen('libc.so.6', {
      inotify_init1: { args: [FFIType.i32], returns: FFIType.i32 },
      inotify_add_watch: { args: [FFIType.i32, FFIType.ptr, FFIType.u32], returns: FFIType.i32 },
      inotify_rm_watch: { args: [FFIType.i32, FFIType.i32], returns: FFIType.i32 },
      read: { args: [FFIType.i32, FFIType.ptr, FFIType.u64], returns: FFIType.i64 },
      fstatfs: { args: [FFIType.i32, FFIType.ptr], returns: FFIType.i32 },
    }).symbols as unknown as Libc;
  } catch {
    return null;
  }
}

const IN_NONBLOCK = 0o4000;
const IN_CLOEXEC = 0o2000000;
/**
 * What makes a remembered listing wrong: a name made, removed or moved in or out; an entry's content or metadata
 * changed (size, times, mode; IN_MODIFY also covers truncation); the folder itself changed, moved or removed, or
 * its filesystem unmounted. Reads (IN_ACCESS, IN_OPEN, IN_CLOSE_NOWRITE) are not asked for: listings and previews
 * cause none of these.
 */
const MASK = 0x2 | 0x4 | 0x8 | 0x40 | 0x80 | 0x100 | 0x200 | 0x400 | 0x800 | 0x2000;
const IN_ONLYDIR = 0x1000000;
/** The queue overflowed: events were lost, so nothing remembered can be trusted (wd is -1). */
export const IN_Q_OVERFLOW = 0x4000;
/** The watch is gone (removed by us, or its folder deleted or unmounted). */
export const IN_IGNORED = 0x8000;

/**
 * Filesystems on which every change made on this machine reaches inotify (f_type of statfs(2)): ext2/3/4, XFS,
 * Btrfs, tmpfs, ZFS, F2FS, bcachefs and overlayfs (containers). Network and FUSE filesystems are left out: changes
 * made by another client raise no event here.
 */
const LOCAL_FS = new Set([0xef53, 0x58465342, 0x9123683e, 0x01021994, 0x2fc12fc1, 0xf2f52010, 0xca451a4e, 0x794c7630]);

const libc = load();
/** The instance, made at the first watch (a CLI command that lists nothing makes none); -1 where it cannot be. */
let ifd = -2;
const instance = () => (ifd === -2 ? (ifd = libc ? libc.inotify_init1(IN_NONBLOCK | IN_CLOEXEC) : -1) : ifd);
// Passed to C: each on an ArrayBuffer of its own, reused (the calls are synchronous, on this thread only).
const events = new Uint8Array(new ArrayBuffer(16 * 1024));
const eventWords = new DataView(events.buffer);
const statfsBuf = new Uint8Array(new ArrayBuffer(128));
const statfsWords = new Uint32Array(statfsBuf.buffer);
const pathBuf = new Uint8Array(new ArrayBuffer(64));
const enc = new TextEncoder();

/** Whether the folder open as `fd` is on a filesystem whose changes all raise events (LOCAL_FS). */
export function onLocalFs(fd: number): boolean {
  // f_type is the first field (a long; the values fit its low 32 bits, read little-endian as statx.ts does).
  return instance() >= 0 && libc!.fstatfs(fd, statfsBuf) === 0 && LOCAL_FS.has(statfsWords[0]!);
}

/**
 * Watches the folder open as `fd` (through /proc/self/fd: the very folder the descriptor holds, not whatever its
 * path names now). Returns the watch descriptor (the same one for a folder already watched), or -1 (the watch limit
 * reached: ENOSPC; no /proc…).
 */
export function watchFolder(fd: number): number {
  if (instance() < 0) return -1;
  const r = enc.encodeInto(`/proc/self/fd/${fd}`, pathBuf);
  pathBuf[r.written] = 0;
  return libc!.inotify_add_watch(ifd, pathBuf, MASK | IN_ONLYDIR);
}

/** How many watches this instance holds (from /proc), or -1. */
export function watchCount(): number {
  if (ifd < 0) return -1;
  try {
    return readFileSync(`/proc/self/fdinfo/${ifd}`, 'utf8').split('\n').filter((l) => l.startsWith('inotify wd:')).length;
  } catch {
    return -1;
  }
}

/** Stops a watch (its IN_IGNORED event follows, and is to be ignored). */
export function unwatch(wd: number): void {
  if (ifd >= 0) libc!.inotify_rm_watch(ifd, wd);
}

/**
 * Reads every queued event, calling `seen(wd, mask)` for each (wd -1 with IN_Q_OVERFLOW when some were lost). One
 * system call when nothing happened (EAGAIN).
 */
export function drain(seen: (wd: number, mask: number) => void): void {
  if (ifd < 0) return; // no instance yet: no watch, nothing remembered
  for (;;) {
    const n = Number(libc!.read(ifd, events, events.length));
    if (n <= 0) return; // -1: EAGAIN, nothing queued (or a read error: nothing to report)
    parseEvents(events, n, seen);
    if (n <= events.length - 272) return; // room for one more whole event was left: the queue is empty
  }
}

/** Walks `n` bytes of struct inotify_event records (wd i32, mask u32, cookie u32, len u32, name[len]). */
export function parseEvents(buf: Uint8Array, n: number, seen: (wd: number, mask: number) => void): void {
  const words = buf === events ? eventWords : new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  for (let at = 0; at + 16 <= n; at += 16 + words.getUint32(at + 12, true)) seen(words.getInt32(at, true), words.getUint32(at + 4, true));
}
