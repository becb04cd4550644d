import { AppError } from '../../core/errors';
import { cancelled, FairSlots, type SlotLimits } from './fair-slots';
import { WorkerPool } from './worker-pool';
import type { WorkJob } from './work.worker';

export interface WorkLimits extends SlotLimits {
  /** A running job's time limit: past it the caller gets a 503 and the worker is told to stop. */
  timeoutMs: number;
}

/** A job as the caller states it; the shared cancel flag is added here. */
export type JobSpec = WorkJob extends infer J ? (J extends WorkJob ? Omit<J, 'cancel'> : never) : never;

export interface RunOptions {
  /** The request's signal: when the client goes away the wait ends, and a running job is told to stop. */
  signal?: AbortSignal;
  /**
   * Called once the worker has really finished with the job (answered, stopped or died), which may be after the
   * caller got its answer: a descriptor handed to the job is closed here, never while the worker may still read it.
   */
  settled?: () => void;
}

/**
 * One kind of heavy work (checksums, previews, password hashing): fair slots (global and per user, bounded wait)
 * in front of as many worker threads as there are global slots. A slot is held until the worker has truly stopped,
 * so abandoned or timed-out jobs still count against the limit while they burn CPU, and never beyond it.
 */
export class HeavyWork {
  readonly slots: FairSlots;
  private readonly pool: WorkerPool;

  constructor(private readonly limits: WorkLimits, private readonly what: string) {
    this.slots = new FairSlots(limits, what);
    this.pool = new WorkerPool(limits.global);
  }

  /** Runs `spec` for `user` on a worker thread; see RunOptions for cancellation and cleanup. */
  async run<T>(user: string, spec: JobSpec, opts: RunOptions = {}): Promise<T> {
    let release: () => void;
    try {
      release = await this.slots.acquire(user, opts.signal);
    } catch (e) {
      opts.settled?.();
      throw e;
    }
    const cancel = new SharedArrayBuffer(4);
    const flag = new Int32Array(cancel);
    const job = this.pool.run<T>({ ...spec, cancel }).finally(() => {
      release();
      opts.settled?.();
    });
    return new Promise<T>((resolve, reject) => {
      const stop = (err: AppError) => {
        Atomics.store(flag, 0, 1);
        reject(err);
      };
      const onAbort = () => stop(cancelled());
      const timer = setTimeout(() => stop(new AppError('UNAVAILABLE', `the ${this.what} took longer than ${Math.round(this.limits.timeoutMs / 1000)} s`)), this.limits.timeoutMs);
      if (opts.signal?.aborted) onAbort();
      else opts.signal?.addEventListener('abort', onAbort, { once: true });
      job.then(resolve, reject).finally(() => {
        clearTimeout(timer);
        opts.signal?.removeEventListener('abort', onAbort);
      });
    });
  }

  /** Current load, for tests and diagnostics. */
  stats(): { running: number; waiting: number; started: number; threads: number } {
    const t = this.pool.threads();
    return { ...this.slots.stats(), threads: t.busy + t.idle };
  }

  /** Stops the worker threads (shutdown, tests). */
  close(): void {
    this.pool.close();
  }
}
