import { AppError, type ErrorCode } from '../../core/errors';
import { workerSpecifier, type WorkerThread } from '../../core/worker-url';

/** What a worker answers for one job (see work.worker.ts). */
export type WorkReply = { id: number; ok: true; value: unknown } | { id: number; ok: false; code: ErrorCode; detail?: string; cause?: string };

interface Busy {
  resolve: (v: unknown) => void;
  reject: (e: unknown) => void;
}

/**
 * Up to `max` worker threads, started on demand, each running one job at a time; idle ones stop after `idleMs`.
 * Callers bound concurrency themselves (FairSlots) so a job always finds a thread; extra jobs wait in order.
 * A busy worker keeps the process alive (the CLI awaits it); an idle one does not. A worker that dies fails its
 * job with a 500 and is replaced by the next job.
 */
export class WorkerPool {
  private readonly idle: { w: WorkerThread; since: number }[] = [];
  private readonly busy = new Map<WorkerThread, Busy>();
  private readonly queue: { job: object; done: Busy }[] = [];
  private nextId = 1;
  private reaper: ReturnType<typeof setInterval> | null = null;

  constructor(private readonly max: number, private readonly idleMs = 30_000) {}

  /** Runs one job on a worker thread; settles when the worker answers (or dies). */
  run<T>(job: object): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ job, done: { resolve: resolve as (v: unknown) => void, reject } });
      this.dispatch();
    });
  }

  /** Threads alive (busy and idle), for tests. */
  threads(): { busy: number; idle: number } {
    return { busy: this.busy.size, idle: this.idle.length };
  }

  private spawn(): WorkerThread {
    const w = new Worker(workerSpecifier('server/services/work/work.worker.ts', import.meta.url)) as WorkerThread;
    w.addEventListener('message', (e: MessageEvent<WorkReply>) => {
      const b = this.busy.get(w);
      if (!b) return;
      this.busy.delete(w);
      const r = e.data;
      if (r.ok) b.resolve(r.value);
      else b.reject(new AppError(r.code, r.detail, r.cause ? { cause: new Error(r.cause) } : undefined));
      w.unref();
      this.idle.push({ w, since: Date.now() });
      this.dispatch();
    });
    const died = (why: string) => {
      const b = this.busy.get(w);
      this.busy.delete(w);
      const i = this.idle.findIndex((x) => x.w === w);
      if (i >= 0) this.idle.splice(i, 1);
      b?.reject(new AppError('INTERNAL', undefined, { cause: new Error(`worker ${why}`) }));
      this.dispatch();
    };
    w.addEventListener('error', (e) => {
      died(`failed: ${(e as ErrorEvent).message}`);
      w.terminate();
    });
    w.addEventListener('close', () => died('exited'));
    return w;
  }

  private dispatch(): void {
    while (this.queue.length) {
      let w = this.idle.pop()?.w;
      if (!w) {
        if (this.busy.size >= this.max) return;
        w = this.spawn();
      }
      const { job, done } = this.queue.shift()!;
      this.busy.set(w, done);
      w.ref();
      w.postMessage({ ...job, id: this.nextId++ });
    }
    this.scheduleReap();
  }

  private scheduleReap(): void {
    if (this.reaper || !this.idle.length) return;
    this.reaper = setInterval(() => {
      const now = Date.now();
      for (let i = this.idle.length - 1; i >= 0; i--) {
        if (now - this.idle[i]!.since < this.idleMs) continue;
        this.idle.splice(i, 1)[0]!.w.terminate();
      }
      if (!this.idle.length && this.reaper) {
        clearInterval(this.reaper);
        this.reaper = null;
      }
    }, Math.min(this.idleMs, 5_000));
    (this.reaper as { unref?: () => void }).unref?.();
  }

  /** Stops every thread (server shutdown, tests); jobs in flight fail. */
  close(): void {
    for (const { w } of this.idle.splice(0)) w.terminate();
    for (const w of [...this.busy.keys()]) w.terminate();
    if (this.reaper) clearInterval(this.reaper);
    this.reaper = null;
  }
}
