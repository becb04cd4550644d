import { link, lstat, mkdir, rename, rmdir, unlink } from 'node:fs/promises';

/** Filesystems without hard links answer link() with one of these (FAT, some FUSE and network mounts). */
export const NO_HARDLINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'EMLINK', 'ENOSYS']);

const code = (e: unknown) => (e as NodeJS.ErrnoException)?.code;

/**
 * Moves `from` to `to` only while `to` is free, atomically against every other request and process: a file is
 * hard-linked at its new name (link() fails with EEXIST when anything is there) and then unlinked at its old one;
 * a folder first claims its name with mkdir() (atomic too) and is then renamed over that empty folder of ours.
 * Returns false when the name is taken; throws the OS error otherwise (ENOENT: a folder moved meanwhile).
 * On a filesystem without hard links a file falls back to check-then-rename, which is not atomic.
 */
export async function renameNoReplace(from: string, to: string, isDir: boolean): Promise<boolean> {
  if (isDir) {
    try {
      await mkdir(to, { mode: 0o700 });
    } catch (e) {
      if (code(e) === 'EEXIST') return false;
      throw e;
    }
    try {
      await rename(from, to);
    } catch (e) {
      await rmdir(to).catch(() => {});
      throw e;
    }
    return true;
  }
  try {
    await link(from, to);
  } catch (e) {
    if (code(e) === 'EEXIST') return false;
    if (!NO_HARDLINKS.has(code(e) ?? '')) throw e;
    if (await lstat(to).then(() => true, () => false)) return false;
    await rename(from, to);
    return true;
  }
  await unlink(from);
  return true;
}

/** Puts a finished temp at its final name: over whatever file is there (`replace`), or only if the name is free. */
export async function place(tmp: string, to: string, isDir: boolean, replace: boolean): Promise<boolean> {
  if (!replace) return renameNoReplace(tmp, to, isDir);
  await rename(tmp, to);
  return true;
}
