import type { Stats } from 'node:fs';
import { AppError, exists, forbidden, invalid } from '../../core/errors';
import { baseName, isWithin, joinVirtual, parentOf } from '../../fs/virtual-path';
import type { Actor } from '../actor';
import { extensionOf } from './describe';
import type { FilesService } from './files.service';

/** The reference's ETag: modification time in nanoseconds and size, both hex. */
export function etagOf(st: Stats): string {
  return `"${(BigInt(Math.round(st.mtimeMs * 1e6))).toString(16)}${st.size.toString(16)}"`;
}

function need(actor: Actor, perm: 'create' | 'modify' | 'delete' | 'rename'): void {
  if (!actor.can(perm)) throw forbidden();
}

/**
 * POST /api/resources: a trailing slash creates a folder (fine if it exists); otherwise the body becomes the
 * file, written to a temporary file and renamed into place only when complete. An existing file needs
 * `override` (and the modify permission).
 */
export async function upload(svc: FilesService, actor: Actor, path: string, isDir: boolean, body: AsyncIterable<Uint8Array> | null, override: boolean): Promise<Stats | null> {
  need(actor, 'create');
  svc.check(actor, path);
  if (path === '/') throw forbidden();
  const ctx = { actor, path };
  if (isDir) {
    await svc.deps.hooks.before('upload', ctx);
    await actor.fs.mkdirp(path);
    await svc.deps.hooks.after('upload', ctx);
    return null;
  }
  const existing = await actor.fs.stat(path).catch((e) => (e instanceof AppError && e.code === 'NOT_FOUND' ? null : Promise.reject(e)));
  if (existing?.stats.isDirectory()) throw exists('a folder has that name');
  if (existing && !override) throw exists();
  if (existing) need(actor, 'modify');
  await svc.deps.hooks.before('upload', ctx);
  const st = await actor.fs.writeFile(path, body, { exclusive: !override });
  if (existing) svc.deps.evictPreviews(existing.real);
  await svc.deps.hooks.after('upload', ctx);
  return st;
}

/** PUT /api/resources: replaces an existing file's content (atomically). Never creates. */
export async function save(svc: FilesService, actor: Actor, path: string, isDir: boolean, body: AsyncIterable<Uint8Array> | null): Promise<Stats> {
  need(actor, 'modify');
  svc.check(actor, path);
  if (isDir) throw new AppError('METHOD_NOT_ALLOWED', 'folders cannot be saved');
  const { stats, real } = await actor.fs.stat(path);
  if (stats.isDirectory()) throw new AppError('METHOD_NOT_ALLOWED', 'folders cannot be saved');
  const ctx = { actor, path };
  await svc.deps.hooks.before('save', ctx);
  const st = await actor.fs.writeFile(path, body, { mode: stats.mode & 0o777 });
  svc.deps.evictPreviews(real);
  await svc.deps.hooks.after('save', ctx);
  return st;
}

/** DELETE /api/resources: removes a file or tree (rules checked on every descendant) and its shares. */
export async function remove(svc: FilesService, actor: Actor, path: string): Promise<void> {
  need(actor, 'delete');
  if (path === '/') throw forbidden();
  await svc.checkTree(actor, path);
  const real = await actor.fs.real(path);
  const ctx = { actor, path };
  await svc.deps.hooks.before('delete', ctx);
  await actor.fs.remove(path);
  if (actor.user) svc.deps.shares.deleteUnder(actor.user.id, path);
  svc.deps.evictPreviews(real);
  await svc.deps.hooks.after('delete', ctx);
}

/** "report.pdf" -> "report(1).pdf", "a.tar.gz" -> "a.tar(1).gz", "dir" -> "dir(1)": the first free name. */
export async function freeName(actor: Actor, path: string): Promise<string> {
  const parent = parentOf(path);
  const name = baseName(path);
  const ext = extensionOf(name);
  const stem = name.slice(0, name.length - ext.length);
  for (let n = 1; n < 10_000; n++) {
    const candidate = joinVirtual(parent, `${stem}(${n})${ext}`);
    if (!(await actor.fs.exists(candidate))) return candidate;
  }
  throw exists('no free name found');
}

/**
 * PATCH /api/resources: copy or move/rename `src` to `dst`. Rules are checked on the source and destination
 * and, for trees, on every descendant at both ends. Conflicts: 409 unless `override` (needs modify) or
 * `rename` (picks name(N).ext). A destination inside the source is refused.
 */
export async function copyOrMove(svc: FilesService, actor: Actor, action: string, src: string, dst: string, opts: { override: boolean; rename: boolean }): Promise<string> {
  if (action !== 'copy' && action !== 'rename') throw invalid(`unsupported action ${action}`);
  svc.check(actor, src);
  svc.check(actor, dst);
  if (src === '/' || dst === '/') throw forbidden();
  if (dst !== src && isWithin(dst, src)) throw invalid('the destination is inside the source');
  need(actor, action === 'copy' ? 'create' : 'rename');
  const source = await actor.fs.stat(src);
  // The same check on real locations: a link inside the scope must not let a folder be copied into itself.
  const realDst = await actor.fs.real(dst);
  if (source.stats.isDirectory() && dst !== src && (realDst === source.real || realDst.startsWith(source.real + '/')))
    throw invalid('the destination is inside the source');
  if (dst === src && action === 'rename') return dst;
  let target = dst;
  const dstStat = await actor.fs.stat(dst).catch((e) => (e instanceof AppError && e.code === 'NOT_FOUND' ? null : Promise.reject(e)));
  if (dstStat) {
    if (opts.rename) target = await freeName(actor, dst);
    else if (!opts.override) throw exists();
    else need(actor, 'modify');
  }
  if (target !== dst) svc.check(actor, target);
  // Every descendant must be allowed where it is and where it will be.
  if (source.stats.isDirectory() && actor.hasRules)
    for await (const e of actor.fs.walk(src)) if (!actor.rulesAllow(e.path) || !actor.rulesAllow(target + e.path.slice(src.length))) throw forbidden();
  const ctx = { actor, path: src, destination: target };
  await svc.deps.hooks.before(action, ctx);
  const replacing = target === dst && dstStat !== null;
  if (action === 'copy') {
    if (replacing && dstStat!.stats.isDirectory() !== source.stats.isDirectory()) await actor.fs.remove(target);
    await actor.fs.copy(src, target);
  } else {
    if (replacing) {
      svc.deps.evictPreviews(dstStat!.real);
      if (dstStat!.stats.isDirectory() && source.stats.isDirectory()) {
        // Merge the moved folder into the existing one, then drop what is left of the source.
        await actor.fs.copy(src, target);
        await actor.fs.remove(src);
      } else {
        if (dstStat!.stats.isDirectory() || source.stats.isDirectory()) await actor.fs.remove(target);
        await actor.fs.move(src, target);
      }
    } else await actor.fs.move(src, target);
    if (actor.user) svc.deps.shares.movePrefix(actor.user.id, src, target);
    svc.deps.evictPreviews(source.real);
  }
  await svc.deps.hooks.after(action, ctx);
  return target;
}

