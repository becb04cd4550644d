import { opendir } from 'node:fs/promises';
import { join } from 'node:path';
import { TEMP_NAME } from './temp-file';

/**
 * Every temp entry of ours under `root` (the whole files root, all scopes), found by a streamed walk: folders are
 * read entry by entry (opendir), links are never followed, a temp folder is reported and not entered, unreadable
 * folders are skipped. Memory is bounded by the folders still to visit, not by the tree.
 */
export async function* findTemps(root: string, signal?: AbortSignal): AsyncGenerator<string> {
  const stack = [root];
  while (stack.length) {
    if (signal?.aborted) return;
    const dir = stack.pop()!;
    let handle;
    try {
      handle = await opendir(dir, { bufferSize: 64 });
    } catch {
      continue;
    }
    try {
      for await (const d of handle) {
        if (TEMP_NAME.test(d.name)) yield join(dir, d.name);
        else if (d.isDirectory()) stack.push(join(dir, d.name));
      }
    } catch {
      // the folder vanished while being read
    }
  }
}
