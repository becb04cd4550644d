import { lstat, opendir } from 'node:fs/promises';
import { join } from 'node:path';
import { isOwnName } from './reserved-names';

/**
 * Bytes (apparent sizes of regular files) and regular files beneath a real location, links never followed, our own
 * names (`.filedeck-…`: temps of writes in flight, the trash, the versions) left out as the name index leaves them
 * out: what a quota counts of a scope when the index cannot answer. Streams folders (opendir), a folder at a time.
 */
export async function treeUsage(real: string, signal?: AbortSignal): Promise<{ bytes: number; files: number }> {
  const top = await lstat(real).catch(() => null);
  if (!top) return { bytes: 0, files: 0 };
  if (!top.isDirectory()) return top.isFile() ? { bytes: top.size, files: 1 } : { bytes: 0, files: 0 };
  let bytes = 0;
  let files = 0;
  const stack = [real];
  while (stack.length) {
    if (signal?.aborted) break;
    const dir = stack.pop()!;
    let handle;
    try {
      handle = await opendir(dir, { bufferSize: 128 });
    } catch {
      continue; // vanished or unreadable meanwhile
    }
    try {
      for await (const d of handle) {
        if (isOwnName(d.name)) continue;
        const full = join(dir, d.name);
        if (d.isDirectory()) stack.push(full);
        else if (d.isFile()) {
          const st = await lstat(full).catch(() => null);
          if (st?.isFile()) {
            bytes += st.size;
            files++;
          }
        }
      }
    } catch {
      // vanished while being read
    }
  }
  return { bytes, files };
}

/** Apparent size and kind of one entry, for a write that moves it (null when gone). */
export async function entryUsage(real: string): Promise<{ bytes: number; files: number; isDir: boolean } | null> {
  const st = await lstat(real).catch(() => null);
  if (!st) return null;
  if (st.isDirectory()) return { ...(await treeUsage(real)), isDir: true };
  return { bytes: st.isFile() ? st.size : 0, files: st.isFile() ? 1 : 0, isDir: false };
}
