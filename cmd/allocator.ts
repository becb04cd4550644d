import { dlopen, FFIType, ptr } from 'bun:ffi';
import { readFileSync } from 'node:fs';

/**
 * The allocator setting the server runs with, unless the operator set it: `MIMALLOC_PURGE_HOLES=0`.
 *
 * Bun's allocator (its mimalloc fork) by default gives the kernel back the free blocks inside pages still in use each
 * time a thread goes idle. A server goes idle between requests, so each request after a pause of even 50 ms faults
 * those pages in again. Measured on this project's benchmark machine, a 10,000-file listing after 200 ms of idle: 76
 * -> 49 ms, page faults 1,500 -> 300 per request, the allocator's purge thread 25 -> 3.5 ms of CPU per request; back
 * to back unchanged. Whole free pages are still returned after the purge delay (a 100,000-file listing's memory still
 * goes back; scripts/bench/listing.bench.ts reports it).
 *
 * mimalloc reads its options from the environment once, as the process starts, so the server executes itself again
 * (same process id, arguments, descriptors and environment, plus the setting) before it opens anything. A value
 * already in the environment (any, including 1) is the operator's choice and is kept; that is also what stops a
 * second re-execution. Linux only; where the C library or /proc is missing, the server runs on as it is.
 */
const SETTING = 'MIMALLOC_PURGE_HOLES';

export function tuneAllocator(): void {
  if (process.platform !== 'linux' || process.env[SETTING] !== undefined) return;
  let argv: string[];
  let env: string[];
  try {
    argv = cStrings(readFileSync('/proc/self/cmdline'));
    // The environment the process was started with (Bun may have added .env files' values since; the new process
    // reads them again itself).
    env = cStrings(readFileSync('/proc/self/environ'));
  } catch {
    return;
  }
  if (!argv.length) return;
  let execve: (path: unknown, argv: unknown, envp: unknown) => number;
  try {
    execve = dlopen('libc.so.6', { execve: { args: [FFIType.ptr, FFIType.ptr, FFIType.ptr], returns: FFIType.i32 } }).symbols.execve as typeof execve;
  } catch {
    return;
  }
  const keep: Buffer[] = [];
  const table = (items: string[]) => {
    const t = new BigUint64Array(items.length + 1);
    items.forEach((s, i) => {
      const b = Buffer.from(`${s}\0`, 'latin1');
      keep.push(b);
      t[i] = BigInt(ptr(b));
    });
    return t;
  };
  // The executable by its path (so the process keeps its name; /proc/self/exe would name it "exe").
  const path = Buffer.from(`${process.execPath}\0`, 'latin1');
  // Returns only when it failed (say, a seccomp filter): the server runs on with the default setting.
  execve(path, table(argv), table([...env.filter((e) => !e.startsWith(`${SETTING}=`)), `${SETTING}=0`]));
  keep.length = 0; // `keep` held the strings the tables point to until execve had read them
}

/** NUL-terminated strings as /proc gives them, byte for byte (latin1 both ways; an empty argument stays one). */
function cStrings(b: Buffer): string[] {
  if (!b.length) return [];
  const s = b.toString('latin1');
  return (s.endsWith('\0') ? s.slice(0, -1) : s).split('\0');
}
