import type { EntryStats } from './entry-stats';
import { drain, IN_Q_OVERFLOW, unwatch } from './inotify';

/**
 * What readFolderAt() remembers of small folders between requests: the names, kinds and entries' stats read at the
 * last listing, trusted only while the folder's inotify watch has reported nothing (inotify.ts: every change finished
 * before the check is seen), for at most FOLDER_CACHE_TTL_MS, and only for the folder with the same inode and device
 * (the caller opens the path and compares). Stats inotify cannot vouch for are read again at every use (`restat`):
 * subfolders (a change inside one raises no event in its parent), files with more than one link (a write through
 * another link notifies that link's folder only) and special files (FIFOs, devices, sockets). What it holds is what the filesystem says, for every user alike:
 * scope, trash, rules and hidden names are applied by the callers at every request, as for a fresh read.
 * One watch per remembered folder; a folder forgotten (changed, expired, evicted, or the queue overflowed) loses
 * its watch too, so the watches never outnumber MAX_FOLDERS.
 */
export interface CachedFolder {
  /** The watch on this folder. */
  wd: number;
  /** Inode (low, high) and device (major, minor) of the folder, as statx.ts lastIdentity() gives them. */
  id: Uint32Array;
  /** Every name (hidden ones too; handed out as FolderRead.names, so never changed), their kinds (0 file or special, 1 folder, 2 link or unknown) and lstat. */
  names: string[];
  kinds: Uint8Array;
  known: EntryStats[];
  /** 1 where the entry's stats must be read again at each use. */
  restat: Uint8Array;
  /** Date.now() after which it is read again whatever the events said. */
  until: number;
}

/**
 * The longest a remembered folder is used without a fresh read. Bounds what no event reports: a file changed
 * through a shared memory mapping (its time only), a filesystem mounted over a remembered folder, a path whose
 * parent folders were swapped for others leading to the same folder.
 */
export const FOLDER_CACHE_TTL_MS = 2000;
const MAX_FOLDERS = 512;

let enabled = true;
const byPath = new Map<string, CachedFolder>();
const pathOf = new Map<number, string>();
/** For tests and the benchmark: how often a remembered folder was used, and how many were remembered. */
export const folderCacheCounts = { hits: 0, fills: 0 };

/** Forgets what is remembered at `path` (changed, expired, evicted, or the folder there is another one now). */
export function forgetFolder(path: string): void {
  const e = byPath.get(path);
  if (!e) return;
  byPath.delete(path);
  pathOf.delete(e.wd);
  unwatch(e.wd);
}

function forgetAll(): void {
  for (const path of [...byPath.keys()]) forgetFolder(path);
}

/** One inotify event: its folder is forgotten (an IN_IGNORED of a watch already removed names no folder). */
export function onFolderEvent(wd: number, mask: number): void {
  if (wd === -1 || mask & IN_Q_OVERFLOW) return forgetAll();
  const path = pathOf.get(wd);
  if (path !== undefined) forgetFolder(path);
}

/** Turns remembering on or off for this process (config `folderCache`); off forgets everything at once. */
export function useFolderCache(on: boolean): void {
  enabled = on;
  if (!on) forgetAll();
}

/** Whether folders are remembered (readFolderAt asks before making a watch). */
export const folderCacheOn = (): boolean => enabled;

/** The remembered folder at `path` after taking in every queued event, or null. */
export function cachedFolder(path: string): CachedFolder | null {
  drain(onFolderEvent);
  const e = byPath.get(path);
  if (!e) return null;
  if (e.until > Date.now()) return e;
  forgetFolder(path);
  return null;
}

/**
 * Remembers a folder just read, whose watch `e.wd` was made before it was read (so a change during the read is
 * reported at the next check). False when it cannot be (its watch already serves another path to the same folder,
 * a bind mount): the caller then removes nothing, the watch being that other path's.
 */
export function rememberFolder(path: string, read: Omit<CachedFolder, 'until'>): boolean {
  const e: CachedFolder = { ...read, until: Date.now() + FOLDER_CACHE_TTL_MS };
  const old = byPath.get(path);
  if (old && old.wd !== e.wd) forgetFolder(path); // an entry with this very watch is simply replaced
  const other = pathOf.get(e.wd);
  if (other !== undefined && other !== path) return false;
  if (byPath.size >= MAX_FOLDERS) forgetFolder(byPath.keys().next().value!);
  byPath.set(path, e);
  pathOf.set(e.wd, path);
  folderCacheCounts.fills++;
  return true;
}

/** Whether `wd` is the watch of a remembered folder (so a reader that made it must not remove it). */
export function watchInUse(wd: number): boolean {
  return pathOf.has(wd);
}
