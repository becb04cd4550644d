import { AppError } from '../../../core/errors';
import { openReadOnlyFile } from '../../../fs/read-only-file';
import { readBoltMeta } from '../bolt/bolt-meta';
import { BoltTree } from '../bolt/bolt-tree';
import type { FilebrowserDump } from './fb-dump';
import { decodeStorm } from './storm-decode';

/**
 * Reads a filebrowser 2.x database (bbolt + storm + JSON, `../shared/reference/filebrowser-db.md`) without Go and
 * without writing or locking it: the file is opened read-only and only the pages reachable from the newest valid
 * meta page are read. A file that is not a bbolt database, a filebrowser 1.x database, a damaged file or a bbolt file
 * without filebrowser's buckets gives an INVALID AppError whose detail names the file and what is wrong.
 *
 * A server still running on the file may be writing it meanwhile; nothing here tries to read a consistent snapshot
 * of a live file, so the old server must be stopped first (the import's documentation says so).
 */
export async function readFilebrowserDb(path: string): Promise<FilebrowserDump> {
  const file = await openReadOnlyFile(path, 'filebrowser database');
  try {
    const meta = await readBoltMeta(file);
    return await decodeStorm(new BoltTree(file, meta));
  } catch (e) {
    if (e instanceof AppError && e.detail) throw new AppError(e.code, `filebrowser database ${path}: ${e.detail}`, { cause: e });
    throw e;
  } finally {
    await file.close();
  }
}
