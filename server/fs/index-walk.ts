import { lstatSync, readdirSync, type Stats } from 'node:fs';
import { isOwnName } from './reserved-names';

/**
 * What the name index sees of the files root: entries as they are on disk (links are not followed; a link is
 * indexed as itself, never entered), read with synchronous calls because the index builder runs on its own
 * worker thread. Our own names (`.filedeck-*`: temps, the trash, caches) are never reported.
 */
export interface DiskEntry {
  name: string;
  isDir: boolean;
  size: number;
  mtime: number;
}

/** Names of ours that the index never holds: temps, the trash and anything else named `.filedeck-…` (reserved-names.ts). */
export { isOwnName };

function entryOf(name: string, st: Stats): DiskEntry {
  const isDir = st.isDirectory();
  return { name, isDir, size: isDir ? 0 : st.size, mtime: Math.floor(st.mtimeMs) };
}

/**
 * One entry by its absolute path (null when it is gone or unreadable). Symbolic links are not indexed at all:
 * whether a link may be shown depends on its target and the user's scope (ScopedFs decides that when listing),
 * so search never reports one rather than risk naming a link that leads out of someone's scope.
 */
export function diskEntry(abs: string, name: string): DiskEntry | null {
  try {
    const st = lstatSync(abs);
    return st.isSymbolicLink() ? null : entryOf(name, st);
  } catch {
    return null;
  }
}

/** A folder's entries (null when the folder is gone or unreadable); entries vanishing meanwhile are left out. */
export function readFolder(abs: string): DiskEntry[] | null {
  let names: string[];
  try {
    names = readdirSync(abs);
  } catch {
    return null;
  }
  const out: DiskEntry[] = [];
  const prefix = abs.endsWith('/') ? abs : `${abs}/`;
  for (const n of names) {
    if (isOwnName(n)) continue;
    const e = diskEntry(prefix + n, n);
    if (e) out.push(e);
  }
  return out;
}

/** Absolute path of an index path ("/a/b", relative to the files root). */
export function diskPath(root: string, path: string): string {
  return path === '/' ? root : root + path;
}

/** The index path of an absolute path inside the root, or null outside it (or through one of our own names). */
export function indexPath(root: string, abs: string): string | null {
  if (abs === root) return '/';
  if (!abs.startsWith(`${root}/`)) return null;
  const rel = abs.slice(root.length).replace(/\/+$/, '');
  if (rel.split('/').some((c) => isOwnName(c) || c === '.' || c === '..')) return null;
  return rel.replace(/\/{2,}/g, '/');
}
