/**
 * Where a worker thread's code is, for `new Worker(...)`. From sources it sits next to the module that starts it. In
 * the single executable, `bun build --compile` embeds it only when scripts/build.ts passes it as an extra entry
 * point, and then names it by its path from the project root under the embedded file system (measured with Bun 1.4:
 * `new URL(.., import.meta.url)` points at the executable itself there, so it cannot be used).
 * @param path the worker's file from the project root, e.g. "server/fs/stat.worker.ts"
 * @param callerUrl `import.meta.url` of the module that starts it (in the same folder)
 */
export function workerSpecifier(path: string, callerUrl: string): string {
  if (callerUrl.includes('$bunfs')) return `./${path}`;
  return new URL(`./${path.slice(path.lastIndexOf('/') + 1)}`, callerUrl).href;
}

/** Bun's Worker can stop holding the process open (the DOM typing lacks ref/unref). */
export type WorkerThread = Worker & { ref(): void; unref(): void };
