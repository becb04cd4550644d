import type { Stats } from 'node:fs';
import { AppError, exists, forbidden, invalid } from '../../core/errors';
import type { PlaceOpts } from '../../fs/scoped-fs';
import { baseName, isWithin, joinVirtual, parentOf } from '../../fs/virtual-path';
import type { Actor } from '../actor';
import { authorize, authorizePath, permitted, type Effect } from '../policy/file-policy';
import { extensionOf } from './describe';
import type { FilesService } from './files.service';

/** The reference's ETag: modification time in nanoseconds and size, both hex. */
export function etagOf(st: Stats): string {
  return `"${(BigInt(Math.round(st.mtimeMs * 1e6))).toString(16)}${st.size.toString(16)}"`;
}

/** A write that never replaces and moves on to another name when its own is taken (file requests: "name (1).ext"). */
export interface ClashRenaming {
  /** The next candidate after `taken`, in the same folder; the caller authorizes it. */
  next: (taken: string) => Promise<string>;
  /** Told where the file landed. */
  landed: (path: string) => void;
}

/**
 * POST /api/resources: a trailing slash creates a folder (fine if it exists); otherwise the body becomes the
 * file, written to a temporary file and renamed into place only when complete. An existing file needs
 * `override` (and the modify permission), or `renaming` (never replaces: another name is taken).
 */
export async function upload(svc: FilesService, actor: Actor, path: string, isDir: boolean, body: AsyncIterable<Uint8Array> | null, override: boolean, renaming?: ClashRenaming): Promise<Stats | null> {
  authorizePath(actor, 'create', path);
  if (path === '/') throw forbidden();
  const ctx = { actor, path };
  if (isDir) {
    await svc.deps.hooks.before('upload', ctx);
    await actor.fs.mkdirp(path);
    await svc.deps.hooks.after('upload', ctx);
    return null;
  }
  if (renaming) {
    // Never replaces: the name is claimed atomically, the next one when it is taken (ScopeWrites.writeFile `next`).
    await svc.deps.hooks.before('upload', ctx);
    let at = path;
    const next = async (taken: string) => (at = await renaming.next(taken));
    const st = await svc.keeping(actor).writeFile(path, body, { exclusive: true, next });
    renaming.landed(at);
    await svc.deps.hooks.after('upload', { actor, path: at });
    return st;
  }
  const existing = await actor.fs.stat(path).catch((e) => (e instanceof AppError && e.code === 'NOT_FOUND' ? null : Promise.reject(e)));
  if (existing?.stats.isDirectory()) throw exists('a folder has that name');
  if (existing && !override) throw exists();
  if (existing) authorizePath(actor, 'modify', path);
  await svc.deps.hooks.before('upload', ctx);
  // Decided when the name is taken, not only when the body started: a name free at the start stays no-replace for
  // an actor who may not modify (someone may write it while the body streams).
  const mayReplace = override && permitted(actor, 'modify') && actor.allows(path);
  const st = await svc.keeping(actor).writeFile(path, body, { exclusive: !mayReplace });
  if (existing) await svc.replaced(existing.real, st);
  await svc.deps.hooks.after('upload', ctx);
  return st;
}

/** PUT /api/resources: replaces an existing file's content (atomically). Never creates. */
export async function save(svc: FilesService, actor: Actor, path: string, isDir: boolean, body: AsyncIterable<Uint8Array> | null): Promise<Stats> {
  authorizePath(actor, 'modify', path);
  if (isDir) throw new AppError('METHOD_NOT_ALLOWED', 'folders cannot be saved');
  const { stats, real } = await actor.fs.stat(path);
  if (stats.isDirectory()) throw new AppError('METHOD_NOT_ALLOWED', 'folders cannot be saved');
  const ctx = { actor, path };
  await svc.deps.hooks.before('save', ctx);
  const st = await svc.keeping(actor, 'save').writeFile(path, body, { mode: stats.mode & 0o777 });
  await svc.replaced(real, st);
  await svc.deps.hooks.after('save', ctx);
  return st;
}

/** Deletes a file or tree for good (rules checked on every descendant), through the one delete sequence. */
export async function remove(svc: FilesService, actor: Actor, path: string): Promise<void> {
  if (path === '/') throw forbidden();
  await authorize(actor, [{ access: 'delete', path, tree: true }]);
  await svc.deletes.dispose(actor, path, { permanent: true });
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
  authorizePath(actor, 'read', src, dst);
  if (src === '/' || dst === '/') throw forbidden();
  if (dst !== src && isWithin(dst, src)) throw invalid('the destination is inside the source');
  authorizePath(actor, action === 'copy' ? 'create' : 'rename');
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
  }
  const replacing = target === dst && dstStat !== null;
  // Every descendant must be allowed where it is and where it will be; what a replacement destroys is decided too.
  const decide = async (to: string, replaces: boolean) => {
    const effects: Effect[] = [{ access: action === 'copy' ? 'read' : 'rename', path: src, tree: true, to }, { access: 'read', path: to }];
    if (action === 'copy') effects.push({ access: 'create', path: to });
    if (replaces) effects.push(...replaceEffects(to, dstStat!.stats.isDirectory(), source.stats.isDirectory()));
    await authorize(actor, effects);
  };
  await decide(target, replacing);
  if (replacing && dstStat!.stats.isDirectory() && source.stats.isDirectory()) await refuseMergeConflicts(actor, src, target);
  // Without override the name is claimed atomically when the item lands; with rename=true a name taken meanwhile
  // (a concurrent copy) moves on to the next free one, decided like the first.
  const placing: PlaceOpts = replacing
    ? { replace: true }
    : { replace: false, next: opts.rename ? async () => { const n = await freeName(actor, dst); await decide(n, false); return n; } : undefined };
  const ctx = { actor, path: src, destination: target };
  await svc.deps.hooks.before(action, ctx);
  const kindChange = replacing && dstStat!.stats.isDirectory() !== source.stats.isDirectory();
  // The implicit delete of an override (authorised above as a delete of the whole replaced tree) is a delete like
  // any other: the one delete sequence (into the trash, hooks, audit, links). Files overwritten on the way (file
  // over file, a merge's colliding files) are kept by the same sequence (`keeping`).
  if (kindChange) await svc.deletes.dispose(actor, target, { detail: { replacedBy: action } });
  const fs = svc.keeping(actor, action === 'copy' ? 'copy' : 'move');
  let landed: string;
  if (action === 'copy') {
    landed = await fs.copy(src, target, placing);
    if (replacing && !kindChange && !source.stats.isDirectory()) await svc.replaced(dstStat!.real, (await actor.fs.stat(target)).stats);
  } else {
    const from = await actor.fs.entryReal(src);
    if (replacing && !kindChange && source.stats.isDirectory()) {
      // Merge the moved folder into the existing one, then drop what is left of the source.
      landed = await fs.copy(src, target, placing);
      await actor.fs.remove(src);
    } else {
      if (replacing && !kindChange) await svc.replaced(dstStat!.real, source.stats);
      landed = await fs.move(src, target, placing);
    }
    await svc.moved(from, await actor.fs.entryReal(landed), source.real);
  }
  await svc.deps.hooks.after(action, { ...ctx, destination: landed });
  return landed;
}


/**
 * What overriding an existing destination does to it. File over file: its bytes are replaced (modify). Folder
 * over folder: the source is merged in, colliding files replaced (modify; the landing paths are checked by the
 * tree effect). A file over a folder or a folder over a file destroys the old item with all it holds: that is a
 * delete of the whole replaced tree, so it needs the delete permission and the rules on every descendant.
 */
export function replaceEffects(target: string, targetIsDir: boolean, sourceIsDir: boolean): Effect[] {
  const out: Effect[] = [{ access: 'modify', path: target }];
  if (targetIsDir !== sourceIsDir) out.push({ access: 'delete', path: target, tree: true });
  return out;
}

/** A merge never deletes: a file meeting a folder of the same name (or the reverse) anywhere inside is a 409, before anything changes. */
async function refuseMergeConflicts(actor: Actor, src: string, target: string): Promise<void> {
  for await (const e of actor.fs.walk(src)) {
    const there = await actor.fs.stat(target + e.path.slice(src.length)).catch(() => null);
    if (there && there.stats.isDirectory() !== e.isDir) throw exists(`${target + e.path.slice(src.length)} exists as a ${there.stats.isDirectory() ? 'folder' : 'file'}`);
  }
}
