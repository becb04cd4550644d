import type { Stats } from 'node:fs';
import { AppError, exists } from '../../core/errors';
import type { TempEntry } from '../../fs/temp-file';
import type { Actor } from '../actor';
import { authorize, permitted } from '../policy/file-policy';
import type { FilesService } from './files.service';
import { replaceEffects } from './files-write';

/**
 * Places a finished temp file at `path` for a write that was requested some time ago (a tus upload completed, an
 * archive written by a job): whether it may replace what is there is decided now, when the name is taken, with
 * `actor` as it is now (the caller passes the current one), not when the write was asked for. Without `override`
 * the name must be free (atomically); with it, an existing file is replaced only when the file policy lets this actor
 * modify it (replaceEffects: the same decision as every other override), and a name still free now is placed
 * no-replace unless the actor may modify, so a file written there meanwhile is never replaced by someone who may not.
 * The caller discards the temp on any error, so a refusal writes nothing.
 */
export async function commitWrite(files: FilesService, actor: Actor, temp: TempEntry, path: string, override: boolean): Promise<Stats> {
  const existing = await actor.fs.stat(path).catch((e) => (e instanceof AppError && e.code === 'NOT_FOUND' ? null : Promise.reject(e)));
  if (existing?.stats.isDirectory()) throw exists('a folder has that name');
  if (existing && !override) throw exists();
  if (existing) await authorize(actor, replaceEffects(path, false, false));
  const mayReplace = override && permitted(actor, 'modify') && actor.allows(path);
  const st = await files.keeping(actor).commitTemp(temp, path, !mayReplace); // what it replaces goes to the trash
  if (existing) await files.replaced(existing.real, st);
  return st;
}
