import { dlopen, FFIType } from 'bun:ffi';
import { endianness } from 'node:os';

/**
 * statx(2) of one name relative to a folder descriptor, without following a final symlink: the one binding both the
 * main thread (entry-stats.ts DirReader) and the stat worker (stat.worker.ts) use. Each thread that imports this
 * module gets its own buffers (module state is per thread), so calls on two threads never share memory.
 */
interface Statx {
  /** `path`: a NUL-terminated byte string, as a buffer or as the address of one (a Pointer from bun:ffi). */
  statx(dirfd: number, path: Uint8Array | number, flags: number, mask: number, out: Uint8Array): number;
}

/** statx(2) from the C library (glibc ≥ 2.28); null elsewhere, and callers take lstatSync. Loaded apart from
 * libc.ts so that a missing symbol here cannot take flock and SEEK_DATA down with it. */
function load(): Statx | null {
  if (endianness() !== 'LE') return null; // the fields are read as little-endian halves below
  try {
    const lib = dlopen('libc.so.6', { statx: { args: [FFIType.i32, FFIType.ptr, FFIType.i32, FFIType.u32, FFIType.ptr], returns: FFIType.i32 } });
    return lib.symbols as unknown as Statx;
  } catch {
    return null;
  }
}
const libc = load();

/** Whether statxAt() can answer on this system (else callers use lstatSync of the full path). */
export const hasStatx = libc !== null;

const AT_SYMLINK_NOFOLLOW = 0x100;
const STATX_BASIC = 0x7ff;
// Buffers passed to C: backed by their own ArrayBuffers (small inline typed arrays may move), reused per call on
// this thread (the calls are synchronous, so no two listings share them at once).
const out = new Uint8Array(new ArrayBuffer(256));
// Read as 32-bit halves (little-endian layout: x86-64, arm64): DataView.getBigInt64 would allocate a BigInt per field.
const u16 = new Uint16Array(out.buffer);
const u32 = new Uint32Array(out.buffer);
const i32 = new Int32Array(out.buffer);
const nameBuf = new Uint8Array(new ArrayBuffer(4 * 256 + 1));
const enc = new TextEncoder();

/**
 * lstat of `name` (one readdir name, no "/") inside the folder open as `dirfd`: writes mode, size and mtimeMs to
 * `into` at `at` and returns true; false when it failed (vanished, a name too long to encode here, no statx).
 */
export function statxAt(dirfd: number, name: string, into: Float64Array, at: number): boolean {
  if (!libc) return false;
  const r = enc.encodeInto(name, nameBuf);
  if (r.read !== name.length || r.written >= nameBuf.length) return false;
  nameBuf[r.written] = 0;
  return statxRaw(dirfd, nameBuf, into, at);
}

/** statxAt() of a name already encoded as a NUL-terminated UTF-8 string at address `name` (no copy per name). */
export function statxAtAddress(dirfd: number, name: number, into: Float64Array, at: number): boolean {
  return libc !== null && statxRaw(dirfd, name, into, at);
}

const AT_EMPTY_PATH = 0x1000;
const emptyName = new Uint8Array(new ArrayBuffer(1));

/** The stats of what the descriptor `fd` itself is open on (fstat through statx), written as statxAt() does. */
export function statxFd(fd: number, into: Float64Array, at: number): boolean {
  return libc !== null && statxRaw(fd, emptyName, into, at, AT_EMPTY_PATH);
}

function statxRaw(dirfd: number, name: Uint8Array | number, into: Float64Array, at: number, flags = AT_SYMLINK_NOFOLLOW): boolean {
  if (libc!.statx(dirfd, name, flags, STATX_BASIC, out) !== 0) return false;
  // struct statx: stx_mode u16 at byte 28, stx_size u64 at 40, stx_mtime {i64 sec, u32 nsec} at 112.
  into[at] = u16[14]!;
  into[at + 1] = u32[10]! + u32[11]! * 4294967296;
  into[at + 2] = (u32[28]! + i32[29]! * 4294967296) * 1000 + u32[30]! / 1e6;
  return true;
}

/**
 * Of the last successful call on this thread (read before the next): the inode (two 32-bit halves) and device
 * (major, minor) into `into[0..3]`, and the link count returned.
 */
export function lastIdentity(into: Uint32Array): number {
  // struct statx: stx_nlink u32 at byte 16, stx_ino u64 at 32, stx_dev_major/minor u32 at 136/140.
  into[0] = u32[8]!;
  into[1] = u32[9]!;
  into[2] = u32[34]!;
  into[3] = u32[35]!;
  return u32[4]!;
}

/**
 * Of the last successful call on this thread (read before the next), as node's Stats names them: the inode, the
 * device as st_dev (the kernel's and glibc's makedev of major and minor) and ctimeMs, into `into[0..2]`.
 */
export function lastFileId(into: Float64Array): void {
  // struct statx: stx_ino u64 at 32, stx_ctime {i64 sec, u32 nsec} at 96, stx_dev_major/minor u32 at 136/140.
  into[0] = u32[8]! + u32[9]! * 4294967296;
  const major = u32[34]!;
  const minor = u32[35]!;
  into[1] = (minor & 0xff) + (major & 0xfff) * 256 + Math.floor(minor / 256) * 1048576 + Math.floor(major / 4096) * 17592186044416;
  into[2] = (u32[24]! + i32[25]! * 4294967296) * 1000 + u32[26]! / 1e6;
}
