import type { Stats } from 'node:fs';
import type { WebdavSettings } from '../../contract/dav';
import { AppError, exists, forbidden, notFound } from '../../core/errors';
import { baseName, parentOf } from '../../fs/virtual-path';
import type { Actor } from '../actor';
import { copyOrMove, upload } from '../files/files-write';
import type { FilesService } from '../files/files.service';
import type { FolderListing } from '../files/folder-listing';
import { authorizePath } from '../policy/file-policy';
import type { QuotaService } from '../quota/quota.service';
import type { TrashService } from '../trash/trash.service';
import type { DavLockGate } from './dav-lock-gate';
import { isMacMetadata, type DavItem } from './dav-live';
import { downloadEtag } from '../files/download-etag';
import type { DavPropsService } from './dav-props.service';

export interface DavDeps {
  files: FilesService;
  trash: TrashService;
  quota: QuotaService;
  props: DavPropsService;
  settings: () => WebdavSettings;
  /** The lock service (helper D2) or NO_LOCKS; asked before every change. */
  locks: () => DavLockGate;
}

type LockPaths = { path: string; depth: '0' | 'infinity' }[];

const missing = (e: unknown) => e instanceof AppError && e.code === 'NOT_FOUND';

/**
 * The WebDAV methods over the services the web API uses (docs/decisions/0050-webdav.md): the same actor, file policy,
 * upload path (versions, quotas, hooks, temp then claim), the one delete sequence (the trash), copyOrMove (shares
 * and versions follow). Plain values in, data or AppError out.
 */
export class DavService {
  constructor(readonly d: DavDeps) {}

  get locks(): DavLockGate {
    return this.d.locks();
  }

  /** The ETag of an item (If headers, the lock gate): null when it is not there. */
  etagOf = (actor: Actor) => async (path: string): Promise<string | null> => {
    const st = await actor.fs.stat(path).catch(() => null);
    return st ? downloadEtag(st.stats.size, st.stats.mtimeMs) : null;
  };

  /** A name the macOS switch drops ('ignore'): never listed, never stored. */
  ignored(path: string): boolean {
    return this.d.settings().macMetadata === 'ignore' && isMacMetadata(baseName(path));
  }

  /** One item the actor may read, for PROPFIND depth 0 and GET; 404 when missing or ignored. */
  async item(actor: Actor, path: string): Promise<DavItem> {
    if (this.ignored(path)) throw notFound();
    authorizePath(actor, 'read', path);
    const { stats } = await actor.fs.stat(path);
    return itemOf(path, stats);
  }

  /** A folder's visible entries, described in batches (FolderListing: flat memory for large folders). */
  async listing(actor: Actor, path: string): Promise<FolderListing | null> {
    const { listing } = await this.d.files.open(actor, path, { content: false, folder: true });
    return listing ?? null;
  }

  /** quota-used-bytes and quota-available-bytes: the user's quota when there is one, else the free space of the disk. */
  async quota(actor: Actor, path: string): Promise<{ used: number; available: number } | null> {
    const user = actor.user;
    if (!user) return null;
    const usage = await this.d.quota.usage(user);
    if (usage.quota?.bytes) return { used: usage.bytes, available: Math.max(0, usage.quota.bytes - usage.bytes) };
    const folder = (await actor.fs.stat(path)).stats.isDirectory() ? path : parentOf(path);
    const disk = await actor.fs.usage(folder);
    return { used: usage.bytes, available: Math.max(0, disk.total - disk.used) };
  }

  /**
   * PUT: the body streams through the web API's upload (override), so versions, quotas, hooks and temp-then-claim
   * apply; a cut-off body leaves the old file. `mtimeMs` (X-OC-Mtime) is applied after. Created or replaced.
   */
  async put(actor: Actor, path: string, body: AsyncIterable<Uint8Array> | null, opts: { mtimeMs?: number; ifHeader: string | null }): Promise<{ created: boolean; etag: string | null }> {
    if (path === '/') throw new AppError('METHOD_NOT_ALLOWED', 'PUT on a collection');
    if (this.ignored(path)) return { created: true, etag: null };
    authorizePath(actor, 'create', path);
    await this.parentFolder(actor, path);
    const existing = await actor.fs.stat(path).catch((e) => (missing(e) ? null : Promise.reject(e)));
    if (existing?.stats.isDirectory()) throw new AppError('METHOD_NOT_ALLOWED', 'PUT on a collection');
    await this.locks.assertMayChange(actor, existing ? [{ path, depth: '0' }] : [{ path: parentOf(path), depth: '0' }, { path, depth: '0' }], opts.ifHeader, this.etagOf(actor));
    let st = (await upload(this.d.files, actor, path, false, body, true))!;
    if (opts.mtimeMs !== undefined) st = await actor.fs.setModified(path, opts.mtimeMs);
    return { created: !existing, etag: downloadEtag(st.size, st.mtimeMs) };
  }

  /** MKCOL: 405 when something has the name, 409 when the parent is missing. */
  async mkcol(actor: Actor, path: string, ifHeader: string | null): Promise<void> {
    if (path === '/' || (await actor.fs.exists(path).catch(() => false))) throw new AppError('METHOD_NOT_ALLOWED', 'something has that name');
    authorizePath(actor, 'create', path);
    if (this.ignored(path)) throw forbidden('macOS metadata names are not stored');
    await this.parentFolder(actor, path);
    await this.locks.assertMayChange(actor, [{ path: parentOf(path), depth: '0' }, { path, depth: '0' }], ifHeader, this.etagOf(actor));
    await upload(this.d.files, actor, path, true, null, false);
  }

  /** DELETE: into the trash through the one delete sequence (or for good when the trash is off for the user). */
  async delete(actor: Actor, path: string, ifHeader: string | null): Promise<void> {
    if (path === '/') throw forbidden();
    if (this.ignored(path)) return;
    await actor.fs.stat(path);
    await this.locks.assertMayChange(actor, [{ path: parentOf(path), depth: '0' }, { path, depth: 'infinity' }], ifHeader, this.etagOf(actor));
    // The properties follow the item into the trash (DavPropsService is a follower of the delete sequence).
    await this.d.trash.delete(actor, path);
    await this.locks.removed(actor, path);
  }

  /**
   * COPY and MOVE (RFC 4918 §9.8, §9.9) through copyOrMove: Overwrite F on an existing target is 412; Overwrite T
   * replaces it (a file over a file keeps a version; anything else deletes the target first, into the trash, since
   * WebDAV replaces where copyOrMove would merge). COPY Depth 0 copies a collection without its members. Dead
   * properties are copied by COPY and follow MOVE. Created (201) or replaced (204).
   */
  async copyMove(actor: Actor, op: 'copy' | 'move', src: string, dst: string, opts: { overwrite: boolean; shallow: boolean; ifHeader: string | null }): Promise<{ created: boolean }> {
    if (this.ignored(src)) throw notFound();
    if (src === '/' || dst === '/') throw forbidden();
    authorizePath(actor, 'read', src, dst);
    const source = await actor.fs.stat(src);
    if (src === dst) throw forbidden('the source and the destination are the same');
    await this.parentFolder(actor, dst);
    const target = await actor.fs.stat(dst).catch((e) => (missing(e) ? null : Promise.reject(e)));
    if (target && !opts.overwrite) throw new AppError('PRECONDITION_FAILED', 'the destination exists and Overwrite is F');
    const lockPaths: LockPaths = [{ path: parentOf(dst), depth: '0' }, { path: dst, depth: 'infinity' }];
    if (op === 'move') lockPaths.unshift({ path: parentOf(src), depth: '0' }, { path: src, depth: 'infinity' });
    await this.locks.assertMayChange(actor, lockPaths, opts.ifHeader, this.etagOf(actor));
    const fileOverFile = !!target && !target.stats.isDirectory() && !source.stats.isDirectory();
    if (target && !fileOverFile) {
      await this.delete(actor, dst, opts.ifHeader);
    }
    const shallowDir = op === 'copy' && opts.shallow && source.stats.isDirectory();
    if (shallowDir) {
      authorizePath(actor, 'create', dst);
      await upload(this.d.files, actor, dst, true, null, false);
      await this.d.props.copied(actor, src, dst, false);
      return { created: !target };
    }
    const landed = await copyOrMove(this.d.files, actor, op === 'copy' ? 'copy' : 'rename', src, dst, { override: fileOverFile, rename: false });
    if (op === 'copy') await this.d.props.copied(actor, src, landed, true);
    else await this.locks.moved(actor, src, landed);
    return { created: !target };
  }

  /** The parent of `path` must be an existing folder (409 otherwise: RFC 4918 §9.3.1, §9.7.1). */
  private async parentFolder(actor: Actor, path: string): Promise<void> {
    const parent = await actor.fs.stat(parentOf(path)).catch((e) => (missing(e) ? null : Promise.reject(e)));
    if (!parent || !parent.stats.isDirectory()) throw exists('the parent collection does not exist');
  }
}

export function itemOf(path: string, st: Stats): DavItem {
  const birth = st.birthtimeMs > 0 ? st.birthtimeMs : st.mtimeMs;
  return { path, name: baseName(path), isDir: st.isDirectory(), size: st.isDirectory() ? 0 : st.size, mtimeMs: st.mtimeMs, ctimeMs: birth };
}
