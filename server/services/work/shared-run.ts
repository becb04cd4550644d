import { cancelled } from './fair-slots';

interface Run<T> {
  done: Promise<T>;
  /** Requests still waiting for it; when the last one goes away the run is told to stop. */
  waiters: number;
  stop: AbortController;
}

/**
 * Heavy runs shared by key: every request for the same result while it is being made waits for the one run
 * (previews and subtitle conversions: a burst of requests for one file costs one render, one slot). A request that goes
 * away stops waiting at once (its promise rejects as cancelled); the run itself is stopped only when no request
 * waits for it any more.
 */
export class SharedRuns<T> {
  private readonly runs = new Map<string, Run<T>>();

  /** Runs being made now, for tests and diagnostics. */
  size(): number {
    return this.runs.size;
  }

  join(key: string, start: (signal: AbortSignal) => Promise<T>, signal?: AbortSignal): Promise<T> {
    if (signal?.aborted) return Promise.reject(cancelled());
    let r = this.runs.get(key);
    if (!r || r.stop.signal.aborted) {
      const stop = new AbortController();
      const fresh: Run<T> = { done: start(stop.signal), waiters: 0, stop };
      void fresh.done.finally(() => this.runs.get(key) === fresh && this.runs.delete(key)).catch(() => {});
      this.runs.set(key, (r = fresh));
    }
    const run = r;
    run.waiters++;
    return new Promise<T>((resolve, reject) => {
      let left = false;
      const leave = () => {
        if (left) return;
        left = true;
        signal?.removeEventListener('abort', onAbort);
        if (--run.waiters === 0) run.stop.abort();
      };
      const onAbort = () => {
        leave();
        reject(cancelled());
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      run.done.then(
        (v) => {
          leave();
          resolve(v);
        },
        (e) => {
          leave();
          reject(e);
        },
      );
    });
  }
}
