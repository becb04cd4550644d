import { EntryStats, type DirReader, type StatSource } from './entry-stats';
import type { StatJob, StatReply } from './stat.worker';
import { workerSpecifier, type WorkerThread } from '../core/worker-url';

/** Names in the first chunk, which the main thread stats itself while the worker starts on the next ones (so it
 * never waits at the start), and in every later chunk. Multiples of a listing batch (256): a batch never spans two
 * chunks. */
const FIRST = 256;
const CHUNK = 1024;
/** Chunks asked for ahead of the one being read: the worker's lead, and the bound on what a listing holds. */
const WINDOW = 4;
/** An idle worker thread ends after this long; the next big listing starts a new one. */
const IDLE_MS = 60_000;
/** A chunk not answered within this long is stat-ed on the main thread instead (a stuck or overloaded worker). */
const STALL_MS = 2_000;
const S_IFMT = 0o170000;
const enc = new TextEncoder();
const S_IFLNK = 0o120000;

/**
 * The one stat worker thread, started by the first big listing and ended when idle. A thread that fails to start
 * or dies fails its listings' pending chunks, which then stat on the main thread as before (never an error).
 */
class StatWorker {
  private w: WorkerThread | null = null;
  private readonly live = new Map<number, StatAhead>();
  private nextId = 1;
  private idleSince = 0;
  private reaper: ReturnType<typeof setInterval> | null = null;
  /** A thread that died or stalled before answering anything (say, its code missing from a build) is not started
   * again before this time: big listings stat on the main thread meanwhile instead of paying a thread start each. */
  private brokenUntil = 0;
  private heard = false;
  /** Chunks answered by a worker since start (tests and the compiled-binary check read it). */
  answered = 0;

  /** Starts a listing's session, or null when no thread can run (the caller stats by itself). */
  open(fd: number, names: string[]): StatAhead | null {
    const w = this.thread();
    if (!w) return null;
    const s = new StatAhead(this, this.nextId++, fd, names);
    this.live.set(s.id, s);
    w.ref(); // a listing awaits its answers: keep the process alive meanwhile (the CLI, too)
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

  /** A listing waited too long for a chunk: a thread that never answered at all is given up on (see brokenUntil). */
  stalled(): void {
    if (this.w && !this.heard) this.w.dispatchEvent(new Event('error'));
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
      if (r.t === 'nums') this.answered++;
      this.live.get(r.id)?.receive(r);
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
 * One big listing's stats, asked of the worker a few chunks ahead of where the listing reads, in the listing's
 * order. The worker uses the listing's own folder descriptor (DirReader's, by number): it is closed only after
 * close(), and anything the worker answers for an id that has ended is dropped, so a late answer never lands in
 * another listing. Only lstat numbers come from here; what they mean (links, scope, rules) is ScopedFs's decision.
 */
export class StatAhead implements StatSource {
  private readonly chunks = new Map<number, Float64Array>();
  private readonly chunkCount: number;
  private sent = 1; // chunk 0 is the main thread's
  private waiting: { seq: number; wake: () => void } | null = null;
  private failed = false;
  private done = false;
  private at = 0;
  private closedAck: (() => void) | null = null;

  constructor(private readonly owner: StatWorker, readonly id: number, fd: number, private readonly names: string[]) {
    this.chunkCount = names.length <= FIRST ? 1 : 1 + Math.ceil((names.length - FIRST) / CHUNK);
    this.done = this.chunkCount === 1;
    owner.send({ t: 'open', id, fd });
  }

  /** Waits until the chunk holding position `k` (from 0, in the listing's order) is here or will not come. */
  async ready(k: number): Promise<void> {
    const seq = seqOf(k);
    while (this.sent < Math.min(this.chunkCount, seq + WINDOW)) {
      const from = startOf(this.sent);
      const to = Math.min(this.names.length, startOf(this.sent + 1));
      const bytes = enc.encode(`${this.names.slice(from, to).join('\0')}\0`);
      this.owner.send({ t: 'chunk', id: this.id, seq: this.sent, names: bytes, count: to - from, last: to === this.names.length }, [bytes.buffer]);
      this.sent++;
    }
    for (const old of this.chunks.keys()) if (old < seq) this.chunks.delete(old); // read already: memory stays flat
    if (seq === 0 || this.failed || this.chunks.has(seq)) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const stalled = await new Promise<boolean>((wake) => {
      this.waiting = { seq, wake: () => wake(false) };
      timer = setTimeout(() => wake(true), STALL_MS);
    });
    clearTimeout(timer);
    if (stalled) {
      this.waiting = null;
      this.failed = true; // the rest of this listing stats on the main thread
      this.owner.stalled();
    }
  }

  /** The position the listing reads next (take() answers for that name only). */
  seek(k: number): void {
    this.at = k;
  }

  take(name: string): EntryStats | null {
    const k = this.at;
    const nums = this.chunks.get(seqOf(k));
    if (!nums || this.names[k] !== name) return null;
    const i = (k - startOf(seqOf(k))) * 3;
    const mode = nums[i]!;
    // Vanished or failed: the main thread stats it (and finds it gone). A symlink: the main thread stats it too,
    // so every link's decision (realpath, scope, trash, rules) starts from its own lstat, exactly as before.
    if (Number.isNaN(mode) || (mode & S_IFMT) === S_IFLNK) return null;
    return new EntryStats(mode, nums[i + 1]!, nums[i + 2]!);
  }

  receive(r: StatReply): void {
    if (r.t === 'closed') {
      this.closedAck?.();
      return;
    }
    this.chunks.set(r.seq, r.nums);
    if (r.seq === this.chunkCount - 1) this.done = true;
    if (this.waiting?.seq === r.seq) this.wakeUp();
  }

  fail(): void {
    this.failed = true;
    this.wakeUp();
    this.closedAck?.();
  }

  /**
   * Ends the session: a listing stopped early (the client left) cancels the worker's queued chunks and waits until
   * the worker says it no longer uses the descriptor (or died; bounded), so the caller may close it right after.
   */
  async close(): Promise<void> {
    if (!this.done && !this.failed) {
      const acked = new Promise<void>((res) => (this.closedAck = res));
      this.owner.send({ t: 'cancel', id: this.id });
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([acked, new Promise<void>((res) => (timer = setTimeout(res, 1000)))]);
      clearTimeout(timer);
    }
    this.chunks.clear();
    this.owner.end(this);
  }

  private wakeUp(): void {
    const w = this.waiting;
    this.waiting = null;
    w?.wake();
  }
}

const seqOf = (k: number) => (k < FIRST ? 0 : 1 + Math.floor((k - FIRST) / CHUNK));
const startOf = (seq: number) => (seq === 0 ? 0 : FIRST + (seq - 1) * CHUNK);

/** Stats `names` (a big listing's, in its order) ahead on the worker for `dir`; null when it cannot (no statx, no
 * thread): `dir` then stats each name itself. Attach the result to `dir` and close() it before dir.close(). */
export function statAhead(dir: DirReader, names: string[]): StatAhead | null {
  const fd = dir.descriptor;
  if (fd === null) return null;
  const s = statWorker.open(fd, names);
  if (s) dir.ahead = s;
  return s;
}
