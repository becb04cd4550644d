/**
 * The stat worker (stat-ahead.ts starts it): lstat numbers of names inside folders, run ahead of a big listing so
 * that the main thread's describe and JSON work overlaps with the syscalls on the second core. It decides nothing:
 * it is given the descriptor (by number: descriptors belong to the process) of the folder the main thread's ScopedFs
 * already resolved and opened (O_RDONLY|O_DIRECTORY, DirReader), statx's the names it is sent RELATIVE to it without
 * following links, and answers three numbers per name. It never opens or closes anything: the listing closes its
 * descriptor after this thread said it is done with it (the last chunk answered, or 'closed' after a cancel).
 * Every listing has its own id; chunks of an id that was cancelled (or never opened) are dropped.
 */
import { ptr } from 'bun:ffi';
import { statxAtAddress } from './statx';

declare const self: Worker;

export type StatJob =
  | { t: 'open'; id: number; fd: number }
  /** `count` names as UTF-8, each ended by a NUL (which no name contains): the C strings statx takes, passed by
   * address with no string made per name. `last`: the listing's end, its descriptor is not used after. */
  | { t: 'chunk'; id: number; seq: number; names: Uint8Array; count: number; last: boolean }
  | { t: 'cancel'; id: number };

/** Per chunk: [mode, size, mtimeMs] per name, mode NaN when that name could not be stat-ed. */
export type StatReply = { t: 'nums'; id: number; seq: number; nums: Float64Array } | { t: 'closed'; id: number };

/** The descriptor of each listing in progress, by id. */
const open = new Map<number, number>();

/** A listing just ended: with none left, collect its garbage (one name string per entry) soon, or this idle
 * thread would hold it until its next listing (measured: tens of MB of RSS after a 100,000-name listing). */
let sweep: ReturnType<typeof setTimeout> | null = null;
function ended(id: number): void {
  open.delete(id);
  if (open.size > 0 || sweep) return;
  sweep = setTimeout(() => {
    sweep = null;
    if (open.size === 0) Bun.gc(true);
  }, 200);
}

self.onmessage = (e: MessageEvent<StatJob>) => {
  const job = e.data;
  if (job.t === 'open') open.set(job.id, job.fd);
  else if (job.t === 'chunk') {
    const fd = open.get(job.id);
    if (fd === undefined) return; // cancelled: drop it
    const bytes = job.names;
    const base = ptr(bytes);
    const nums = new Float64Array(job.count * 3);
    for (let i = 0, at = 0; i < job.count; i++) {
      if (!statxAtAddress(fd, base + at, nums, i * 3)) nums[i * 3] = NaN;
      at = bytes.indexOf(0, at) + 1;
    }
    if (job.last) ended(job.id);
    self.postMessage({ t: 'nums', id: job.id, seq: job.seq, nums } satisfies StatReply, [nums.buffer]);
  } else {
    ended(job.id);
    self.postMessage({ t: 'closed', id: job.id } satisfies StatReply);
  }
};
