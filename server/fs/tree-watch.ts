import { watch, type FSWatcher } from 'node:fs';

/** A recursive watch on a folder (inotify on Linux, one kernel watch per folder). */
export interface TreeWatch {
  close(): void;
}

/**
 * Watches `root` and everything beneath it, reporting changed absolute paths in batches every `debounceMs`
 * (a burst of events on one path is one report). `null` in a batch means "something changed, the name is
 * unknown" (the caller reconciles). Failing to watch (the kernel's watch limit: ENOSPC, or any other error,
 * at start or later) calls `onFail` once and stops watching; the caller falls back to periodic reconciles.
 * Bun's recursive `fs.watch` was checked inside the compiled executable: new, moved and removed folders are
 * followed.
 */
export function watchTree(root: string, onChange: (paths: (string | null)[]) => void, onFail: (e: Error) => void, debounceMs = 100): TreeWatch {
  const pending = new Set<string | null>();
  let timer: ReturnType<typeof setTimeout> | null = null;
  let w: FSWatcher | null = null;
  let failed = false;
  const flush = () => {
    timer = null;
    const batch = [...pending];
    pending.clear();
    if (batch.length) onChange(batch);
  };
  const fail = (e: Error) => {
    if (failed) return;
    failed = true;
    w?.close();
    if (timer) clearTimeout(timer);
    onFail(e);
  };
  try {
    w = watch(root, { recursive: true }, (_event, name) => {
      pending.add(name ? `${root}/${name}` : null);
      timer ??= setTimeout(flush, debounceMs);
    });
    w.on('error', fail);
  } catch (e) {
    fail(e as Error);
  }
  return {
    close() {
      failed = true;
      w?.close();
      if (timer) clearTimeout(timer);
    },
  };
}
