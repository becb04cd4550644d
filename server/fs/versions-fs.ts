import { realpathSync, type Stats } from 'node:fs';
import { link, lstat, opendir, statfs, unlink } from 'node:fs/promises';
import { basename, dirname, join, relative, sep } from 'node:path';
import { AppError, exists } from '../core/errors';
import { fromFsError } from './fs-errors';
import { openRegular, type ReadHandle } from './open-regular';
import { NO_HARDLINKS, renameNoReplace } from './place';
import { inTrash, ownFolder, trashBaseFor, VERSIONS_DIR } from './trash-fs';

/**
 * The versions folder: the old content of overwritten files, one file per version named by its id
 * (`<root>/.filedeck-versions/<id>`), beside the trash folder of the same filesystem (a mount inside the root
 * gets its own), so keeping a version never copies a byte. No scope reaches it (trash-fs.ts `inTrash`).
 */
export { VERSIONS_DIR };

/** The versions folder for a file at `real`: beside the trash of its filesystem. */
export async function versionsBaseFor(root: string, real: string): Promise<string> {
  return join(dirname(await trashBaseFor(root, real)), VERSIONS_DIR);
}

/** Makes the root's versions folder (server start), so no one else claims its name first. */
export async function ensureVersionsBase(root: string): Promise<void> {
  await ownFolder(join(root, VERSIONS_DIR));
}

/** The file's path relative to the files root ('/'-separated), or null when it lies outside it. */
export function rootRelative(realRoot: string, real: string): string | null {
  const rel = relative(realRoot, real);
  if (!rel || rel.startsWith('..') || rel.startsWith(sep)) return null;
  return rel.split(sep).join('/');
}

/**
 * Keeps a file that is about to be overwritten at `versionReal`: a hard link, so the file stays at its name until
 * the overwrite's rename replaces it atomically, and the version holds the very same bytes (no copy). Where hard
 * links are unavailable the file is renamed there instead (`moved`), leaving the name free for a moment.
 */
export async function keepVersion(fileReal: string, versionReal: string): Promise<{ moved: boolean }> {
  try {
    await ownFolder(dirname(versionReal));
    try {
      await link(fileReal, versionReal);
      return { moved: false };
    } catch (e) {
      if (!NO_HARDLINKS.has((e as NodeJS.ErrnoException).code ?? '')) throw e;
    }
    if (!(await renameNoReplace(fileReal, versionReal, false))) throw exists('the version slot is taken');
    return { moved: true };
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EXDEV') throw new AppError('UNSUPPORTED', 'this file is on another filesystem than its versions');
    throw e instanceof AppError ? e : fromFsError(e);
  }
}

/** Undoes a keep whose overwrite did not happen: a moved file goes back to its name, a link just goes. */
export async function unkeepVersion(versionReal: string, fileReal: string, moved: boolean): Promise<void> {
  if (moved && (await renameNoReplace(versionReal, fileReal, false).catch(() => false))) return;
  await removeVersionFile(versionReal);
}

/** Deletes a version's file (only ever inside a versions folder); gone already is fine. */
export async function removeVersionFile(versionReal: string): Promise<void> {
  if (!inVersions(versionReal)) throw new AppError('INTERNAL', 'not a versions location');
  await unlink(versionReal).catch((e) => ((e as NodeJS.ErrnoException).code === 'ENOENT' ? undefined : Promise.reject(fromFsError(e))));
}

/** True when a real location lies directly inside a versions folder. */
export const inVersions = (real: string): boolean => basename(dirname(real)) === VERSIONS_DIR && inTrash(real);

/** A version's file as it is now (null: gone). */
export async function versionStat(versionReal: string): Promise<Stats | null> {
  return lstat(versionReal).catch(() => null);
}

/** Whether two locations are the same file (a keep whose overwrite never happened: the link still is the file). */
export async function sameFile(a: string, b: string): Promise<boolean> {
  const [x, y] = await Promise.all([lstat(a).catch(() => null), lstat(b).catch(() => null)]);
  return !!x && !!y && x.dev === y.dev && x.ino === y.ino;
}

/** Puts a moved-away file back at its name (a crash between the rename and the overwrite); false when taken. */
export async function restoreMoved(versionReal: string, fileReal: string): Promise<boolean> {
  return renameNoReplace(versionReal, fileReal, false).catch(() => false);
}

/** Every file in a versions folder, with the time it last changed (the orphan scan). */
export async function* versionFiles(base: string): AsyncGenerator<{ real: string; changedMs: number }> {
  if (basename(base) !== VERSIONS_DIR) return;
  const dir = await opendir(base).catch(() => null);
  if (!dir) return;
  for await (const d of dir) {
    if (!d.isFile()) continue;
    const real = join(base, d.name);
    const st = await lstat(real).catch(() => null);
    if (st) yield { real, changedMs: st.ctimeMs };
  }
}

/** The versions folder that holds a version location. */
export const versionsBaseOf = (versionReal: string): string => dirname(versionReal);

/** The root's trash folder's sibling check: the versions folder of the root. */
export const rootVersionsBase = (root: string): string => join(root, VERSIONS_DIR);

/** Free and total bytes of the filesystem holding `real` (the free-space share versions may take). */
export async function diskSpace(real: string): Promise<{ free: number; total: number }> {
  const s = await statfs(real);
  return { free: s.bavail * s.bsize, total: s.blocks * s.bsize };
}


/** Opens a version for reading: a regular file, and the descriptor must really be inside a versions folder. */
export function openVersion(versionReal: string): Promise<{ handle: ReadHandle; stats: Stats }> {
  if (!inVersions(versionReal)) throw new AppError('NOT_FOUND');
  return openRegular(versionReal, (at) => {
    if (!inVersions(at)) throw new AppError('NOT_FOUND');
  });
}

/** The bytes of an opened version, in chunks (a restore writes them through the usual overwrite path). */
export async function* versionChunks(handle: ReadHandle, chunk = 1024 * 1024): AsyncGenerator<Uint8Array> {
  for (let pos = 0; ; ) {
    const buf = new Uint8Array(chunk);
    const { bytesRead } = await handle.read(buf, 0, chunk, pos);
    if (bytesRead === 0) return;
    pos += bytesRead;
    yield bytesRead === chunk ? buf : buf.subarray(0, bytesRead);
  }
}

/** The kill -9 test's marker (version-test-pause.ts): where the paused keep's version lies. */
export async function markPause(marker: string, versionReal: string): Promise<void> {
  await Bun.write(marker, versionReal);
}

/** The files root as the kernel names it (version paths are relative to it). */
export const realRootOf = (root: string): string => realpathSync(root);
