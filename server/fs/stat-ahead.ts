import { EntryStats, type DirReader, type StatSource } from './entry-stats';
import { BLOCK, BUSY, NEXT, claim, statBlock } from './stat-blocks';
import { statxAt } from './statx';
import type { StatJob, StatReply } from './stat.worker';
import { workerSpecifier, type WorkerThread } from '../core/worker-url';

/** Names sent to the worker per message, and chunks sent ahead of the one being read: the worker's lead, and the
 * bound on what a listing that stops early has stat-ed for nothing. */
const CHUNK = 1024;
const WINDOW = 4;
/** Blocks past the one it reads that the main thread may claim while that one is the worker's (256 names). */
const HELP_AHEAD = 8;
/** An idle worker thread ends after this long; the next big listing starts a new one. */
const IDLE_MS = 60_000;
const S_IFMT = 0o170000;
const enc = new TextEncoder();
const S_IFLNK = 0o120000;

/**
 * The one stat worker thread, started by the first big listing and ended when idle. A thread that fails to start
 * or dies leaves its listings' blocks to the main thread (the same answers, never an error).
 */
class StatWorker {
  private w: WorkerThread | null = null;
  private readonly live = new Map<number, StatAhead>();
  private nextId = 1;
  private idleSince = 0;
  private reaper: ReturnType<typeof setInterval> | null = null;
  /** A thread that died before answering anything (say, its code missing from a build) is not started again before
   * this time: big listings stat on the main thread meanwhile instead of paying a thread start each. */
  private brokenUntil = 0;
  private heard = false;
  /** Names stat-ed by a worker since start (tests and the compiled-binary check read it). */
  answered = 0;

  /** Starts a listing's session, or null when no thread can run (the caller stats by itself). */
  open(fd: number, names: string[]): StatAhead | null {
    const w = this.thread();
    if (!w) return null;
    const s = new StatAhead(this, this.nextId++, fd, names);
    this.live.set(s.id, s);
    w.ref(); // a listing may wait for the worker to leave its descriptor: keep the process alive meanwhile
    return s;
  }

  send(job: StatJob, transfer: Transferable[] = []): void {
    this.w?.postMessage(job, transfer);
  }

  end(s: StatAhead): void {
    this.live.delete(s.id);
    if (this.live.size === 0) {
      this.w?.unref();
      this.idleSince = Date.now();
    }
  }

  /** Ends the thread at once as a crash would (tests: a listing must still complete). */
  kill(): void {
    this.w?.terminate();
  }

  private thread(): WorkerThread | null {
    if (this.w) return this.w;
    if (Date.now() < this.brokenUntil) return null;
    let w: WorkerThread;
    try {
      w = new Worker(workerSpecifier('server/fs/stat.worker.ts', import.meta.url)) as WorkerThread;
    } catch {
      this.brokenUntil = Date.now() + IDLE_MS;
      return null;
    }
    this.heard = false;
    w.addEventListener('message', (e: MessageEvent<StatReply>) => {
      const r = e.data;
      this.heard = true;
      this.answered += r.names;
      this.live.get(r.id)?.receive();
    });
    const died = () => {
      if (this.w !== w) return;
      this.w = null;
      if (!this.heard) this.brokenUntil = Date.now() + IDLE_MS;
      for (const s of this.live.values()) s.fail();
      this.live.clear();
    };
    w.addEventListener('error', () => {
      died();
      w.terminate();
    });
    w.addEventListener('close', died);
    this.w = w;
    this.reaper ??= setInterval(() => {
      if (this.w && this.live.size === 0 && Date.now() - this.idleSince >= IDLE_MS) {
        const old = this.w;
        this.w = null;
        old.terminate();
      }
    }, IDLE_MS / 4);
    (this.reaper as { unref?: () => void }).unref?.();
    return w;
  }
}

export const statWorker = new StatWorker();

/**
 * One big listing's stats, shared by two threads (stat-blocks.ts): the worker and the main thread each claim the
 * lowest unclaimed block of names in the listing's order, stat it into the shared numbers and mark it done. The
 * worker claims only blocks whose names it was sent, and names are sent WINDOW chunks ahead of where the listing
 * reads. The main thread never waits for the worker: for a block it needs that is not done, it claims and stats the
 * next unclaimed block itself (at most HELP_AHEAD past its own), and when none is left (the worker is on that very
 * block) it stats the entry it needs directly. The worker uses the listing's own folder descriptor (DirReader's, by
 * number); close() stops all claiming and waits until the worker is out of the block it may be in before the caller
 * closes the descriptor. Only lstat numbers come from here; what they mean (links, scope, rules) is ScopedFs's
 * decision.
 */
export class StatAhead implements StatSource {
  /** [NEXT] the lowest unclaimed block, [BUSY] 1 while the worker claims or stats for this listing. */
  private readonly ctl = new Int32Array(new SharedArrayBuffer(8));
  /** Per block: 1 once its numbers are in `nums`. */
  private readonly done: Int32Array;
  /** [mode, size, mtimeMs] per name, mode NaN when the name could not be stat-ed. */
  private readonly nums: Float64Array;
  private readonly blocks: number;
  private readonly chunks: number;
  private sent = 0;
  private at = 0;
  private failed = false;
  private ran: (() => void) | null = null;
  /** The numbers of an entry stat-ed directly (its block being the worker's at that moment). */
  private readonly own = new Float64Array(3);
  private readonly statOne = (j: number) => statxAt(this.fd, this.names[j]!, this.nums, j * 3);

  constructor(
    private readonly owner: StatWorker,
    readonly id: number,
    private readonly fd: number,
    private readonly names: string[],
  ) {
    this.blocks = Math.ceil(names.length / BLOCK);
    this.chunks = Math.ceil(names.length / CHUNK);
    this.done = new Int32Array(new SharedArrayBuffer(this.blocks * 4));
    this.nums = new Float64Array(new SharedArrayBuffer(names.length * 24));
    owner.send({ t: 'open', id, fd, ctl: this.ctl, done: this.done, nums: this.nums, count: names.length });
    this.sendAhead(0);
  }

  /** Sends the worker the names of the chunks up to WINDOW past the one holding position `k`. */
  private sendAhead(k: number): void {
    const want = Math.min(this.chunks, Math.floor(k / CHUNK) + WINDOW);
    for (; this.sent < want; this.sent++) {
      const from = this.sent * CHUNK;
      const to = Math.min(this.names.length, from + CHUNK);
      const bytes = enc.encode(`${this.names.slice(from, to).join('\0')}\0`);
      this.owner.send({ t: 'names', id: this.id, from, count: to - from, names: bytes }, [bytes.buffer]);
    }
  }

  /** The position the listing reads next (take() answers for that name only). */
  seek(k: number): void {
    this.at = k;
    if (k % CHUNK === 0 && !this.failed) this.sendAhead(k);
  }

  take(name: string): EntryStats | null {
    const k = this.at;
    if (this.names[k] !== name) return null;
    const b = (k / BLOCK) | 0;
    let nums = this.nums;
    let i = k * 3;
    while (Atomics.load(this.done, b) === 0) {
      // Helping is bounded: at most HELP_AHEAD blocks past this one, so a worker held up on a block (descheduled on
      // a busy machine) never makes one batch stat the rest of a huge listing on this thread.
      const c = claim(this.ctl, Math.min(this.blocks, b + 1 + HELP_AHEAD));
      if (c < 0) {
        nums = this.own;
        i = 0;
        if (!statxAt(this.fd, name, nums, 0)) nums[0] = NaN;
        break;
      }
      statBlock(c, this.names.length, this.nums, this.done, this.statOne);
    }
    const mode = nums[i]!;
    // Vanished or failed: the reader stats it (and finds it gone). A symlink: the reader stats it too, so every
    // link's decision (realpath, scope, trash, rules) starts from its own lstat, exactly as without this.
    if (Number.isNaN(mode) || (mode & S_IFMT) === S_IFLNK) return null;
    return new EntryStats(mode, nums[i + 1]!, nums[i + 2]!);
  }

  /** The worker finished a run of claims for this listing: close() may go on once no run is in progress (this
   * message may be an earlier run's, delivered while a later one is on a block). */
  receive(): void {
    if (Atomics.load(this.ctl, BUSY) === 0) this.wake();
  }

  /** The worker died: nothing of it is waited for (the main thread claims every block left). */
  fail(): void {
    this.failed = true;
    this.wake();
  }

  /**
   * Ends the session: no block is claimed any more, and once the worker is out of the block it may be in (it says
   * so when a run ends; or it died; bounded), the caller may close the descriptor.
   */
  async close(): Promise<void> {
    Atomics.store(this.ctl, NEXT, this.blocks);
    if (!this.failed && Atomics.load(this.ctl, BUSY) === 1) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const out = new Promise<void>((res) => {
        this.ran = res;
        timer = setTimeout(res, 1000);
      });
      // Looked at again once `ran` is set: a run that ended just before told nobody.
      if (Atomics.load(this.ctl, BUSY) === 1) await out;
      clearTimeout(timer);
      this.ran = null;
    }
    this.owner.send({ t: 'end', id: this.id });
    this.owner.end(this);
  }

  private wake(): void {
    const w = this.ran;
    this.ran = null;
    w?.();
  }
}

/** Shares the stats of `names` (a big listing's, in its order) with the worker for `dir`; null when it cannot (no
 * statx, no thread): `dir` then stats each name itself. Attach the result to `dir` and close() it before dir.close(). */
export function statAhead(dir: DirReader, names: string[]): StatAhead | null {
  const fd = dir.descriptor;
  if (fd === null) return null;
  const s = statWorker.open(fd, names);
  if (s) dir.ahead = s;
  return s;
}
