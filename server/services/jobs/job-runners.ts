import type { ExtractionLimits, Job, JobRequest } from '../../contract/job';
import { AppError, isAppError } from '../../core/errors';
import { fromFsError } from '../../fs/fs-errors';
import { baseName, joinVirtual } from '../../fs/virtual-path';
import type { Actor } from '../actor';
import { createArchive } from '../archive/archive.service';
import { extractArchive, extractTarget } from '../archive/extract';
import { commitWrite } from '../files/commit-decision';
import type { FilesService } from '../files/files.service';
import { copyOrMove, freeName } from '../files/files-write';
import { authorize, authorizePath, rulesAllowAt } from '../policy/file-policy';
import type { ProgressTracker } from './job-progress';

/** What a running job works with. `actor.fs` reports copies and temps to the tracker and stops on `signal`. */
export interface RunContext {
  actor: Actor;
  /**
   * The owner as the database has them now (permissions, scope, rules), observed like `actor`; throws (403) when they
   * may no longer run the job. Asked before each item and when a name is taken, so nothing is decided on rights the
   * owner had when the job started.
   */
  current(): Promise<Actor>;
  files: FilesService;
  req: Required<Pick<JobRequest, 'kind' | 'items' | 'conflict'>> & JobRequest;
  tracker: ProgressTracker;
  signal: AbortSignal;
  temp(real: string): void;
  limits: ExtractionLimits;
  /** What DELETE /api/resources does (the trash when it is on; for good with `permanent`). */
  deleteItem(actor: Actor, path: string, permanent: boolean): Promise<unknown>;
}

type Result = NonNullable<Job['result']>;

/** Files (and, for copies and archives, bytes) beneath each item: a quick walk before the work, so progress has totals from the start. */
async function count(ctx: RunContext): Promise<Map<string, { files: number; bytes: number }>> {
  const bytes = ctx.req.kind === 'copy' || ctx.req.kind === 'archive'; // moves and deletes report files only: no stat per file
  const out = new Map<string, { files: number; bytes: number }>();
  ctx.tracker.set({ current: '' });
  for (const item of ctx.req.items) {
    const { stats } = await ctx.actor.fs.stat(item);
    const c = { files: stats.isDirectory() ? 0 : 1, bytes: stats.isDirectory() ? 0 : stats.size };
    if (stats.isDirectory())
      for await (const e of ctx.actor.fs.walk(item, () => true, ctx.signal)) {
        // What the rules deny (at its path or where it really is) is not counted: totals say nothing of it.
        if (e.isDir || !rulesAllowAt(ctx.actor, e.path, e.at)) continue;
        c.files++;
        if (bytes) c.bytes += (await ctx.actor.fs.stat(e.path).catch(() => null))?.stats.size ?? 0;
      }
    ctx.signal.throwIfAborted();
    out.set(item, c);
    ctx.tracker.set({ filesTotal: ctx.tracker.p.filesTotal + c.files, bytesTotal: ctx.tracker.p.bytesTotal + c.bytes });
  }
  return out;
}

const taken = (e: unknown) => isAppError(e) && e.code === 'EXISTS';

/**
 * Copy, move or delete, item by item, each through the very function the HTTP route uses (files-write.ts
 * copyOrMove; the trash service's delete), so authorization, conflicts, hooks, links and the trash are decided where they always are.
 * Each item lands whole or not at all (copies are staged in a temp and claimed); the result lists what landed.
 */
async function transfer(ctx: RunContext): Promise<Result> {
  const counts = await count(ctx);
  const { kind, conflict } = ctx.req;
  if (kind !== 'copy') ctx.tracker.set({ bytesTotal: 0 }); // moves within a filesystem and deletes move no bytes: rate in files
  const paths: string[] = [];
  const skipped: string[] = [];
  let files = 0;
  let bytes = 0;
  for (const src of ctx.req.items) {
    ctx.signal.throwIfAborted();
    ctx.actor = await ctx.current();
    ctx.tracker.set({ current: src });
    const c = counts.get(src)!;
    if (kind === 'delete') await ctx.deleteItem(ctx.actor, src, !!ctx.req.permanent);
    else {
      const dst = joinVirtual(ctx.req.destination!, baseName(src));
      if (conflict === 'skip' && dst !== src && (await ctx.actor.fs.exists(dst))) skipped.push(src);
      else
        try {
          const opts = { override: conflict === 'replace', rename: conflict === 'rename' };
          paths.push(await copyOrMove(ctx.files, ctx.actor, kind === 'copy' ? 'copy' : 'rename', src, dst, opts));
        } catch (e) {
          if (!(conflict === 'skip' && taken(e))) throw e;
          skipped.push(src); // taken meanwhile
        }
    }
    files += c.files;
    bytes += kind === 'copy' ? c.bytes : 0;
    ctx.tracker.set({ filesDone: files, bytesDone: bytes });
  }
  return { paths, skipped };
}

/** Counts bytes as they pass and stops between chunks when the job is cancelled. */
async function* counted(src: AsyncIterable<Uint8Array>, ctx: RunContext): AsyncGenerator<Uint8Array> {
  for await (const chunk of src) {
    ctx.signal.throwIfAborted();
    ctx.tracker.add(0, chunk.length);
    yield chunk;
  }
}

/**
 * An archive of the selection written as a file into a folder of the scope: read like a copy (the rules on every
 * item beneath), created like an upload (written to a temp and claimed atomically; replace needs modify).
 */
async function archive(ctx: RunContext): Promise<Result> {
  const { actor, req } = ctx;
  const counts = await count(ctx);
  ctx.tracker.set({ filesTotal: [...counts.values()].reduce((a, c) => a + c.files, 0) });
  await authorize(actor, req.items.map((path) => ({ access: 'read' as const, path, tree: true })));
  const made = await createArchive(actor, req.items, req.format ?? 'zip');
  const name = req.name ?? made.name;
  if (!name || name.includes('/') || name === '.' || name === '..') throw new AppError('INVALID', 'the archive name must be a plain file name');
  let dst = joinVirtual(req.destination!, name);
  authorizePath(actor, 'create', dst);
  const there = await actor.fs.exists(dst);
  if (there && req.conflict === 'skip') {
    await made.stream.cancel();
    return { paths: [], skipped: [dst] };
  }
  if (there && req.conflict === 'rename') dst = await freeName(actor, dst);
  if (there && req.conflict === 'replace') authorizePath(actor, 'modify', dst);
  authorizePath(actor, 'create', dst);
  ctx.tracker.set({ current: dst });
  const temp = await actor.fs.createTemp(dst);
  ctx.temp(temp.path);
  try {
    for await (const chunk of counted(made.stream, ctx)) for (let off = 0; off < chunk.length; ) off += (await temp.fh.write(chunk, off, chunk.length - off)).bytesWritten;
    await temp.fh.sync();
    // The name is taken now: create and replace are decided with the owner's rights as of now, not the job's start.
    const now = await ctx.current();
    authorizePath(now, 'create', dst);
    await commitWrite(ctx.files, now, temp, dst, req.conflict === 'replace');
  } catch (e) {
    await made.stream.cancel().catch(() => {});
    await temp.discard();
    throw fromFsError(e);
  } finally {
    await temp.close();
  }
  ctx.tracker.set({ filesDone: ctx.tracker.p.filesTotal, bytesDone: ctx.tracker.p.bytesTotal });
  return { paths: [dst] };
}

/** Extracts one archive into a new folder (services/archive/extract.ts holds every check). */
async function extract(ctx: RunContext): Promise<Result> {
  const archivePath = ctx.req.items[0]!;
  const target = extractTarget(archivePath, ctx.req.destination);
  const { stats } = await ctx.actor.fs.stat(archivePath);
  ctx.tracker.set({ bytesTotal: stats.size, current: archivePath });
  const landed = await extractArchive(ctx.actor, archivePath, target, ctx.req.conflict, ctx.limits, {
    signal: ctx.signal,
    temp: ctx.temp,
    actorNow: ctx.current,
    report: (consumed, current, files) => ctx.tracker.set({ bytesDone: Math.min(consumed, stats.size), current, filesDone: files, filesTotal: files }),
  });
  ctx.tracker.set({ bytesDone: stats.size });
  return landed ? { paths: [landed] } : { paths: [], skipped: [target] };
}

/** Runs a job's work; throws what stopped it (the signal's reason when cancelled). */
export function runJob(ctx: RunContext): Promise<Result> {
  switch (ctx.req.kind) {
    case 'archive':
      return archive(ctx);
    case 'extract':
      return extract(ctx);
    default:
      return transfer(ctx);
  }
}
