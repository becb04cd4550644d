import type { Dirent, Stats } from 'node:fs';
import { link, lstat, mkdir, opendir, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join, sep } from 'node:path';
import { AppError, exists } from '../core/errors';
import { fromFsError } from './fs-errors';
import { NO_HARDLINKS, renameNoReplace } from './place';
import { leftAt } from './write-gate';

/**
 * The trash folder's name. It sits at the files root (or at the top of another filesystem mounted inside the
 * root), holds `<user id>/<random id>/<original name>`, and is unreachable from every scope: ScopedFs refuses any
 * real location inside it and never lists or walks it; the sandbox masks it; links into it answer 404.
 */
export const TRASH_DIR = '.filedeck-trash';

/**
 * The versions folder's name (server/fs/versions-fs.ts): beside each trash folder, holding the old content of
 * overwritten files. Unreachable exactly like the trash: every check below covers both.
 */
export const VERSIONS_DIR = '.filedeck-versions';

const AREAS = [TRASH_DIR, VERSIONS_DIR];

/** True when a real location is the trash or versions folder or lies inside one (no scope ever reaches them). */
export function inTrash(real: string): boolean {
  return AREAS.some((a) => real.includes(`${sep}${a}${sep}`) || real.endsWith(`${sep}${a}`));
}

/** The names listings and walks skip (besides temps): the trash and the versions folders. */
export const isTrashName = (name: string) => name === TRASH_DIR || name === VERSIONS_DIR;

/**
 * Where an item's trash lives: `<root>/.filedeck-trash` when the item is on the root's filesystem, otherwise the
 * trash at the top of the filesystem it sits on (the highest folder inside the root on the item's device), so a
 * move to the trash is always a rename, never a copy.
 */
export async function trashBaseFor(root: string, entryReal: string): Promise<string> {
  const dev = (await lstat(entryReal).catch((e) => Promise.reject(fromFsError(e)))).dev; // a missing item is a 404
  if ((await stat(root)).dev === dev) return join(root, TRASH_DIR);
  let top = dirname(entryReal);
  for (let dir = dirname(top); dir.startsWith(root + sep) || dir === root; dir = dirname(dir)) {
    if (dir === root || (await stat(dir)).dev !== dev) break;
    top = dir;
  }
  return join(top, TRASH_DIR);
}

/** A folder of ours: made if missing (private), refused when something else (a link, a file) holds the name. */
export async function ownFolder(path: string): Promise<void> {
  await mkdir(path, { mode: 0o700 }).catch((e) => ((e as NodeJS.ErrnoException).code === 'EEXIST' ? undefined : Promise.reject(e)));
  const st = await lstat(path);
  if (!st.isDirectory() || st.isSymbolicLink()) throw new AppError('INTERNAL', `${path} is not a folder of the trash`);
}

/** Makes the root's trash folder (server start), so no one else can claim its name first. */
export async function ensureTrashBase(root: string): Promise<void> {
  await ownFolder(join(root, TRASH_DIR));
}

/** Makes (owner-only) the folders of the slot `<base>/<userId>/<id>/` and answers where `real` lands in it. */
async function slotFor(base: string, userId: number | string, id: string, real: string): Promise<string> {
  await ownFolder(base);
  await ownFolder(join(base, String(userId)));
  const slot = join(base, String(userId), id);
  await ownFolder(slot);
  return join(slot, basename(real));
}

/**
 * Moves an entry (its real location, links moved as links) into `<base>/<userId>/<id>/<name>` by a no-replace
 * rename. Returns the trash location. EXDEV (a bind mount the device check could not see) is refused, never copied.
 */
export async function moveIntoTrash(base: string, userId: number | string, id: string, entryReal: string): Promise<string> {
  try {
    const to = await slotFor(base, userId, id, entryReal);
    const isDir = (await lstat(entryReal)).isDirectory();
    if (!(await renameNoReplace(entryReal, to, isDir))) throw exists('the trash slot is taken');
    await leftAt(entryReal); // from the scope's usage to the trash's (counted by the trash rows)
    return to;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EXDEV') throw new AppError('UNSUPPORTED', 'this item is on another filesystem than its trash: delete it permanently instead');
    throw e instanceof AppError ? e : fromFsError(e);
  }
}

/**
 * Keeps a file that is about to be overwritten (its real location) in `<base>/<userId>/<id>/<name>`: a hard link,
 * so the file stays where it is until the overwrite's rename replaces it atomically and the trash holds the very
 * same bytes. Where hard links are unavailable the file is moved (renamed) instead (`moved`: true), leaving the
 * name free for a moment. Returns the trash location.
 */
export async function keepInTrash(base: string, userId: number | string, id: string, fileReal: string): Promise<{ trashReal: string; moved: boolean }> {
  try {
    const to = await slotFor(base, userId, id, fileReal);
    try {
      await link(fileReal, to);
      return { trashReal: to, moved: false };
    } catch (e) {
      if (!NO_HARDLINKS.has((e as NodeJS.ErrnoException).code ?? '')) throw e;
    }
    if (!(await renameNoReplace(fileReal, to, false))) throw exists('the trash slot is taken');
    return { trashReal: to, moved: true };
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EXDEV') throw new AppError('UNSUPPORTED', 'this item is on another filesystem than its trash');
    throw e instanceof AppError ? e : fromFsError(e);
  }
}

/**
 * Puts a trashed entry back at `to` (a real location whose parent exists) only while the name is free. Returns
 * false when it is taken. The emptied trash slot is removed.
 */
export async function claimFromTrash(trashReal: string, to: string): Promise<boolean> {
  try {
    const isDir = (await lstat(trashReal)).isDirectory();
    if (!(await renameNoReplace(trashReal, to, isDir))) return false;
  } catch (e) {
    throw fromFsError(e);
  }
  await rm(dirname(trashReal), { recursive: true, force: true }).catch(() => {});
  return true;
}

/** Puts a trashed file over the file at `to` (a restore that replaces; the caller kept the old one first). */
export async function replaceFromTrash(trashReal: string, to: string): Promise<void> {
  await rename(trashReal, to).catch((e) => Promise.reject(fromFsError(e)));
  await rm(dirname(trashReal), { recursive: true, force: true }).catch(() => {});
}

/** Deletes a trashed entry for good, with its slot. Links inside are removed as links, never followed. */
export async function removeTrashed(trashReal: string): Promise<void> {
  if (!inTrash(trashReal)) throw new AppError('INTERNAL', 'not a trash location');
  await rm(dirname(trashReal), { recursive: true, force: true }).catch((e) => Promise.reject(fromFsError(e)));
}

/** Whether a trashed entry is still there (something outside the server may have removed it). */
export async function trashedStat(trashReal: string): Promise<Stats | null> {
  return lstat(trashReal).catch(() => null);
}

/**
 * Every entry beneath a real folder, as paths relative to it ("a", "a/b.txt"), streamed (opendir), links never
 * followed. For sizes and for the rules on a tree that is restored.
 */
export async function* walkRelative(real: string, signal?: AbortSignal): AsyncGenerator<{ rel: string; isDir: boolean; dirent: Dirent; full: string }> {
  const stack: string[] = [''];
  while (stack.length) {
    if (signal?.aborted) return;
    const rel = stack.pop()!;
    let handle;
    try {
      handle = await opendir(rel ? join(real, rel) : real, { bufferSize: 64 });
    } catch {
      continue;
    }
    try {
      for await (const d of handle) {
        const r = rel ? `${rel}/${d.name}` : d.name;
        yield { rel: r, isDir: d.isDirectory(), dirent: d, full: join(real, r) };
        if (d.isDirectory()) stack.push(r);
      }
    } catch {
      // vanished while being read
    }
  }
}

/** Bytes a file or tree occupies (apparent sizes of regular files; links count as nothing). */
export async function treeSize(real: string): Promise<number> {
  const top = await lstat(real).catch(() => null);
  if (!top) return 0;
  if (!top.isDirectory()) return top.isFile() ? top.size : 0;
  let total = 0;
  for await (const e of walkRelative(real)) {
    if (!e.dirent.isFile()) continue;
    const st = await lstat(e.full).catch(() => null);
    if (st) total += st.size;
  }
  return total;
}
