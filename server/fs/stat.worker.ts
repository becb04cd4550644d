/**
 * The stat worker (stat-ahead.ts starts it): lstat numbers of names inside folders, for big listings, so that the
 * syscalls run on the second core while the main thread describes and writes JSON. It decides nothing: it is given
 * the descriptor (by number: descriptors belong to the process) of the folder the main thread's ScopedFs already
 * resolved and opened (O_RDONLY|O_DIRECTORY, DirReader), statx's the names it is sent RELATIVE to it without
 * following links, and writes three numbers per name into the listing's shared memory, one block at a time, the
 * blocks claimed as stat-blocks.ts says (the main thread claims blocks too). It never opens or closes anything: the
 * listing closes its descriptor once this thread is out of its last block (ctl[BUSY] back to 0, said by 'ran').
 * Every listing has its own id; names of an id that ended (or never opened) are dropped.
 */
import { ptr } from 'bun:ffi';
import { BLOCK, BUSY, NEXT, claim, statBlock } from './stat-blocks';
import { statxAtAddress } from './statx';

declare const self: Worker;

export type StatJob =
  /** A listing of `count` names: its control counters, done marks and numbers, shared with the main thread. */
  | { t: 'open'; id: number; fd: number; ctl: Int32Array; done: Int32Array; nums: Float64Array; count: number }
  /** Names `from`..`from + count - 1` of the listing, as UTF-8, each ended by a NUL (which no name contains): the C
   * strings statx takes, passed by address with no string made per name. */
  | { t: 'names'; id: number; from: number; count: number; names: Uint8Array }
  | { t: 'end'; id: number };

/** After a run of claims for a listing: how many names this thread stat-ed in it (it no longer uses the fd). */
export type StatReply = { t: 'ran'; id: number; names: number };

interface Listing {
  fd: number;
  ctl: Int32Array;
  done: Int32Array;
  nums: Float64Array;
  count: number;
  /** Names received so far (from 0: they come in order). */
  have: number;
  /** The received names' bytes (held while a block of theirs may still be claimed) and, per name, the address of
   * its first byte. */
  chunks: { end: number; bytes: Uint8Array }[];
  addr: Float64Array;
}

const listings = new Map<number, Listing>();

/** A listing just ended: with none left, collect its garbage soon, or this idle thread would hold it until its next
 * listing (measured: tens of MB of RSS after a 100,000-name listing). */
let sweep: ReturnType<typeof setTimeout> | null = null;
function ended(id: number): void {
  listings.delete(id);
  if (listings.size > 0 || sweep) return;
  sweep = setTimeout(() => {
    sweep = null;
    if (listings.size === 0) Bun.gc(true);
  }, 200);
}

/** Claims and stats every block whose names are here, then says so. */
function run(id: number, l: Listing): void {
  const { ctl, fd, addr } = l;
  Atomics.store(ctl, BUSY, 1);
  let n = 0;
  try {
    // A block is claimed only when all its names are here (the last one may be short).
    const limit = l.have === l.count ? Math.ceil(l.count / BLOCK) : Math.floor(l.have / BLOCK);
    for (let b = claim(ctl, limit); b >= 0; b = claim(ctl, limit)) n += statBlock(b, l.count, l.nums, l.done, (j) => statxAtAddress(fd, addr[j]!, l.nums, j * 3));
  } finally {
    Atomics.store(ctl, BUSY, 0);
  }
  const claimed = Atomics.load(ctl, NEXT) * BLOCK;
  while (l.chunks.length && l.chunks[0]!.end <= claimed) l.chunks.shift();
  self.postMessage({ t: 'ran', id, names: n } satisfies StatReply);
}

self.onmessage = (e: MessageEvent<StatJob>) => {
  const job = e.data;
  if (job.t === 'open') {
    listings.set(job.id, { fd: job.fd, ctl: job.ctl, done: job.done, nums: job.nums, count: job.count, have: 0, chunks: [], addr: new Float64Array(job.count) });
  } else if (job.t === 'names') {
    const l = listings.get(job.id);
    if (!l || job.from !== l.have) return; // ended: drop it
    const bytes = job.names;
    const base = ptr(bytes);
    l.chunks.push({ end: job.from + job.count, bytes });
    for (let i = 0, at = 0; i < job.count; i++) {
      l.addr[job.from + i] = base + at;
      at = bytes.indexOf(0, at) + 1;
    }
    l.have += job.count;
    run(job.id, l);
  } else ended(job.id);
};
