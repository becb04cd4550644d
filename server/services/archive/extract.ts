import { extractableFormat, type ExtractionLimits, type JobConflict } from '../../contract/job';
import { AppError, invalid } from '../../core/errors';
import type { ReadHandle } from '../../fs/open-regular';
import { StagedTree } from '../../fs/staged-tree';
import { baseName, joinVirtual, parentOf } from '../../fs/virtual-path';
import type { Actor } from '../actor';
import { freeName } from '../files/files-write';
import { authorizePath } from '../policy/file-policy';
import { readTar, readZip, type ReadEntry } from './archive-readers';
import { DECOMPRESSORS } from './decompressors';
import { ExtractBudget, entryPath, refuseSpecial } from './extract-policy';

/** Where an extraction's progress goes (a job), and its cancel. */
export interface ExtractProgress {
  signal: AbortSignal;
  /** Bytes of the archive consumed so far, and the entry being written. */
  report(archiveBytes: number, current: string, filesDone: number, bytesWritten: number): void;
  /** The temp folder the extraction writes into (its real path). */
  temp(real: string): void;
  /** The actor as of now (a job's owner, read again; it throws when they may no longer run it), asked when the folder is claimed. */
  actorNow?(): Promise<Actor>;
}

const CHUNK = 256 * 1024;

/** The archive's bytes from an open descriptor, counting what was read. */
async function* fileBytes(h: ReadHandle, size: number, counted: (n: number) => void): AsyncGenerator<Uint8Array> {
  for (let pos = 0; pos < size; ) {
    const buf = Buffer.allocUnsafe(Math.min(CHUNK, size - pos));
    const { bytesRead } = await h.read(buf, 0, buf.length, pos);
    if (bytesRead === 0) break;
    pos += bytesRead;
    counted(bytesRead);
    yield buf.subarray(0, bytesRead);
  }
}

/** The destination folder an extraction makes: the one asked for, or beside the archive, named after it. */
export function extractTarget(archive: string, destination: string | undefined): string {
  const f = extractableFormat(baseName(archive));
  if (!f) throw new AppError('UNSUPPORTED_MEDIA', 'not an archive Filedeck can extract (zip, tar, tar.gz, tar.bz2, tar.xz, tar.lz4, tar.sz, tar.br, tar.zst)');
  return destination ?? joinVirtual(parentOf(archive), f.stem || 'extracted');
}

/**
 * Extracts an archive of the actor's scope into a new folder `target`. Every entry gets the checks an upload gets
 * (authorizePath 'create' at its landing path: permission, rules, dotfile hiding), and the archive-specific ones
 * (extract-policy.ts: names, links and special files refused, limits). Everything is written into a locked temp
 * folder next to the target and claimed at the end with an atomic no-replace rename; a refusal, a failure or a
 * cancel discards the temp, so nothing half-extracted is ever visible or left behind. Returns where it landed, or
 * null when the target exists and `conflict` is skip.
 */
export async function extractArchive(actor: Actor, archive: string, target: string, conflict: JobConflict, limits: ExtractionLimits, progress: ExtractProgress): Promise<string | null> {
  const f = extractableFormat(baseName(archive))!;
  authorizePath(actor, 'read', archive);
  authorizePath(actor, 'create', target);
  if (conflict === 'replace') throw invalid('an extraction makes a new folder; choose rename (keep both) or skip when the name is taken');
  if (await actor.fs.exists(target)) {
    if (conflict === 'skip') return null;
  }
  const { handle, stats } = await actor.fs.openRead(archive);
  const budget = new ExtractBudget(limits, stats.size);
  const landed: string[][] = [];
  let consumed = 0;
  let files = 0;
  let written = 0;
  const tmp = await actor.fs.stageFolder(target);
  progress.temp(tmp.path);
  try {
    const tree = new StagedTree(tmp);
    const entries: AsyncIterable<ReadEntry> = f.format === 'zip'
      ? readZip(handle.fd)
      : readTar((DECOMPRESSORS[f.format] ?? ((s) => s))(fileBytes(handle, stats.size, (n) => (consumed += n))) as AsyncIterable<Uint8Array>);
    for await (const e of entries) {
      progress.signal.throwIfAborted();
      refuseSpecial(e);
      const parts = entryPath(e.name);
      budget.entry(e);
      if (!parts.length) continue;
      const rel = parts.join('/');
      authorizePath(actor, 'create', `${target}/${rel}`);
      landed.push(parts);
      if (f.format === 'zip') consumed += e.packed;
      if (e.kind === 'dir') await tree.dir(parts);
      else {
        // The entry's declared size and one more file are reserved against the quotas over the target first.
        await actor.fs.holdOf(tmp).grow(e.size, 1);
        await tree.file(parts, e.body!, {
          mode: e.mode,
          mtime: e.mtime,
          onBytes: (n, soFar) => {
            progress.signal.throwIfAborted();
            budget.bytes(n, soFar, e.name);
            written += n;
          },
        });
        files++;
      }
      progress.report(consumed, `${target}/${rel}`, files, written);
    }
    progress.signal.throwIfAborted();
    // Decided when the name is taken, with the actor's rights as of now: the folder and every entry in it may be
    // created there (the same checks for every entry under another name when the one asked for was taken meanwhile).
    const now = (await progress.actorNow?.()) ?? actor;
    const mayCreate = (n: string) => {
      authorizePath(now, 'create', n);
      for (const parts of landed) authorizePath(now, 'create', `${n}/${parts.join('/')}`);
      return n;
    };
    mayCreate(target);
    const recheck = async () => mayCreate(await freeName(now, target));
    return await actor.fs.placeStaged(tmp, target, { replace: false, next: conflict === 'rename' ? recheck : undefined });
  } catch (e) {
    await tmp.discard();
    throw e;
  } finally {
    await tmp.close();
    await handle.close().catch(() => {});
  }
}
