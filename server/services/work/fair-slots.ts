import { AppError } from '../../core/errors';

export interface SlotLimits {
  /** Jobs running at once, all users together. */
  global: number;
  /** Jobs one user may have running at once; the rest of theirs wait. */
  perUser: number;
  /** Jobs allowed to wait (all users); beyond that a new one is refused at once. */
  maxWaiting: number;
  /** How long a job may wait for its slot before it is refused. */
  waitMs: number;
}

interface Waiter {
  user: string;
  grant: () => void;
}

/** The error a job gets when its client went away; nobody reads it (the response is gone), it only ends the work. */
export const cancelled = () => new AppError('INVALID', 'the request was cancelled');

const busy = (what: string, retry: number) =>
  new AppError('RATE_LIMITED', `the server is busy with other ${what}, try again shortly`, { headers: { 'Retry-After': String(retry) } });

/**
 * Slots for heavy work: at most `global` jobs run, at most `perUser` of one user, and the others wait in arrival
 * order (a waiting job whose user is at their limit lets later jobs of other users pass). A wait ends with a 429
 * (Retry-After) when the queue is full or the wait exceeds `waitMs`, and silently when the client goes away, so
 * neither a flood from one user nor abandoned requests can hold the slots others need.
 */
export class FairSlots {
  private running = 0;
  private started = 0;
  private readonly byUser = new Map<string, number>();
  private readonly waiting: Waiter[] = [];

  constructor(private readonly limits: SlotLimits, private readonly what: string) {}

  /** Current load, for tests and diagnostics. */
  stats(): { running: number; waiting: number; started: number } {
    return { running: this.running, waiting: this.waiting.length, started: this.started };
  }

  private eligible(user: string): boolean {
    return this.running < this.limits.global && (this.byUser.get(user) ?? 0) < this.limits.perUser;
  }

  private take(user: string): () => void {
    this.running++;
    this.started++;
    this.byUser.set(user, (this.byUser.get(user) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return; // release is idempotent: settle paths may race
      released = true;
      this.running--;
      const n = (this.byUser.get(user) ?? 1) - 1;
      if (n > 0) this.byUser.set(user, n);
      else this.byUser.delete(user);
      this.pump();
    };
  }

  private pump(): void {
    for (let i = 0; i < this.waiting.length && this.running < this.limits.global; ) {
      const w = this.waiting[i]!;
      if (this.eligible(w.user)) {
        this.waiting.splice(i, 1);
        w.grant();
      } else i++;
    }
  }

  /** Waits for a slot; resolves to its release function (call it exactly when the work has really stopped). */
  acquire(user: string, signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted) return Promise.reject(cancelled());
    if (this.eligible(user)) return Promise.resolve(this.take(user));
    if (this.waiting.length >= this.limits.maxWaiting) return Promise.reject(busy(this.what, 5));
    return new Promise((resolve, reject) => {
      const leave = (err: AppError) => {
        const i = this.waiting.indexOf(w);
        if (i >= 0) this.waiting.splice(i, 1);
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        reject(err);
      };
      const onAbort = () => leave(cancelled());
      const timer = setTimeout(() => leave(busy(this.what, Math.ceil(this.limits.waitMs / 1000))), this.limits.waitMs);
      const w: Waiter = {
        user,
        grant: () => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
          resolve(this.take(user));
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(w);
    });
  }
}
