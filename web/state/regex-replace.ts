/**
 * A user's regular expression applied to names off the main thread: a pattern such as `(a+)+$` can take
 * exponential time, and a script cannot interrupt a running RegExp. The worker is ended after `TIME_LIMIT_MS`,
 * so a catastrophic pattern costs a message, never a frozen tab. (The page's CSP allows `worker-src blob:`.)
 */

/** Longest a batch of replacements may run. */
export const TIME_LIMIT_MS = 400;

// Plain text (no bundler transform): the worker compiles the same source and flags the prompt compiled already.
// It says 'start' before it runs: the time limit is the expression's, not the worker's start-up, which takes hundreds
// of milliseconds on a busy machine or a slow phone and made a plain pattern look runaway.
const WORKER_SOURCE = `onmessage = (e) => {
  const { source, flags, replacement, names } = e.data;
  postMessage('start');
  const re = new RegExp(source, flags);
  postMessage(names.map((n) => n.replace(re, replacement)));
};`;

/** How long a worker may take to start before the replacement is given up as failed (an error, not 'timeout'). */
const START_LIMIT_MS = 15_000;

let workerUrl: string | null = null;

/** The names with `re` replaced, or 'timeout' when the expression ran too long (the worker is then ended). */
export function replaceInWorker(names: readonly string[], re: RegExp, replacement: string, signal?: AbortSignal): Promise<string[] | 'timeout'> {
  workerUrl ??= URL.createObjectURL(new Blob([WORKER_SOURCE], { type: 'text/javascript' }));
  const worker = new Worker(workerUrl);
  return new Promise((resolve, reject) => {
    const end = () => {
      clearTimeout(timer);
      worker.terminate();
      signal?.removeEventListener('abort', onAbort);
    };
    const onAbort = () => {
      end();
      reject(new DOMException('aborted', 'AbortError'));
    };
    let timer = setTimeout(() => {
      end();
      reject(new Error('the regular expression worker did not start'));
    }, START_LIMIT_MS);
    signal?.addEventListener('abort', onAbort);
    worker.onmessage = (e: MessageEvent<'start' | string[]>) => {
      if (e.data === 'start') {
        clearTimeout(timer);
        timer = setTimeout(() => {
          end();
          resolve('timeout');
        }, TIME_LIMIT_MS);
        return;
      }
      end();
      resolve(e.data);
    };
    worker.onerror = (e) => {
      end();
      reject(new Error(e.message));
    };
    worker.postMessage({ source: re.source, flags: re.flags, replacement, names });
  });
}
