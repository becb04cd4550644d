import { dlopen, FFIType } from 'bun:ffi';
import { closeSync, lstatSync, openSync, constants } from 'node:fs';
import { endianness } from 'node:os';

/**
 * What a listing needs of an entry's metadata: the mode, size and modification time. node:fs Stats has this shape,
 * so one-off callers pass their Stats; big listings build the lighter `EntryStats` from one statx(2) call.
 */
export interface EntryInfo {
  readonly mode: number;
  readonly size: number;
  readonly mtimeMs: number;
  isFile(): boolean;
  isDirectory(): boolean;
  isSymbolicLink(): boolean;
}

const S_IFMT = 0o170000;

/** The three numbers of an entry and the type tests on its mode (one small object, not node's 20-field Stats). */
export class EntryStats implements EntryInfo {
  constructor(readonly mode: number, readonly size: number, readonly mtimeMs: number) {}
  isFile(): boolean {
    return (this.mode & S_IFMT) === 0o100000;
  }
  isDirectory(): boolean {
    return (this.mode & S_IFMT) === 0o040000;
  }
  isSymbolicLink(): boolean {
    return (this.mode & S_IFMT) === 0o120000;
  }
}

interface Statx {
  statx(dirfd: number, path: Uint8Array, flags: number, mask: number, out: Uint8Array): number;
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
 * An open folder whose entries are stat-ed by name relative to its descriptor (no path walk per entry: measured
 * ~30% less CPU than lstatSync of full paths on 10,000 entries). Without statx it is just the path, and lstat()
 * falls back to lstatSync. Always close() it (listings do so in a finally, also when the client leaves).
 */
export class DirReader {
  private fd: number | null = null;

  constructor(readonly path: string) {
    if (!libc) return;
    try {
      this.fd = openSync(path, constants.O_RDONLY | constants.O_DIRECTORY);
    } catch {
      this.fd = null; // the path-based fallback reports the error, if it persists
    }
  }

  /** lstat of one entry name (no "/" in it: a readdir name); null when it vanished. */
  lstat(name: string): EntryInfo | null {
    if (this.fd !== null) {
      const r = enc.encodeInto(name, nameBuf);
      if (r.read === name.length && r.written < nameBuf.length) {
        nameBuf[r.written] = 0;
        if (libc!.statx(this.fd, nameBuf, AT_SYMLINK_NOFOLLOW, STATX_BASIC, out) === 0) {
          // struct statx: stx_mode u16 at byte 28, stx_size u64 at 40, stx_mtime {i64 sec, u32 nsec} at 112.
          const mtimeMs = (u32[28]! + i32[29]! * 4294967296) * 1000 + u32[30]! / 1e6;
          return new EntryStats(u16[14]!, u32[10]! + u32[11]! * 4294967296, mtimeMs);
        }
      }
    }
    const p = this.path.endsWith('/') ? this.path + name : `${this.path}/${name}`;
    return lstatSync(p, { throwIfNoEntry: false }) ?? null;
  }

  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }
}
