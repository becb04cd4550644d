import type { Stats } from 'node:fs';
import type { Resource } from '../../contract/resource';
import type { VersionCause } from '../../contract/versions';
import { identityOf } from '../../fs/file-identity';
import { invalid } from '../../core/errors';
import type { SharesStore } from '../../db/shares.store';
import { baseName, joinVirtual, parentOf } from '../../fs/virtual-path';
import type { FsObserver, ScopedFs, WalkEntry } from '../../fs/scoped-fs';
import type { Actor } from '../actor';
import type { Hooks } from '../hooks/hooks';
import type { HeavyWork } from '../work/heavy-work';
import type { AuditService } from '../audit/audit.service';
import { authorizePath, permitted, visible, type Access } from '../policy/file-policy';
import { describe, extensionOf } from './describe';
import { scanFolder, type FolderListing } from './folder-listing';
import { SUBTITLE_DIRS, TEXT_LIMIT, detectType, isSubtitle, needsSniff } from './detect-type';
import { sniffFile } from './sniff-cache';

export const CHECKSUMS = ['md5', 'sha1', 'sha256', 'sha512'] as const;
export type ChecksumAlgo = (typeof CHECKSUMS)[number];

export interface FilesDeps {
  hooks: Hooks;
  shares: SharesStore;
  /** Drops cached previews of a real path and everything beneath it. */
  evictPreviews: (realPath: string) => Promise<void>;
  typeDetectionByHeader: boolean;
  /** Checksums run here: worker threads, fair global and per-user slots, a time limit (services/work). */
  checksums: HeavyWork;
  /** Folder sizes from the name index (services/index), per caller; absent answers while it is not ready. */
  folderSizes?: FolderSizes;
  /** Deletes are recorded here. */
  audit?: AuditService;
}

/**
 * Bytes beneath a folder (virtual `path`, real `absDir`) and beneath each sub-folder, counting only what the
 * actor can see (the name index answers; null, or a size left out: unknown, shown as such, never guessed).
 */
export interface FolderSizes {
  visibleSizes(actor: Actor, path: string, absDir: string): { own?: number; children: Map<string, number> } | null;
}

/**
 * The one delete sequence (trash.service.ts): before-hooks, the item into the trash (or removed for good), its row,
 * links, previews, the audit entry, after-hooks. Used by delete, by an override that replaces a tree (dispose) and
 * by every write that overwrites a file (keeper), so nothing replaced is lost that a delete would have kept.
 */
export interface DeleteSequence {
  /** Deletes `path` (already authorised as a delete): into the actor's trash when on (or `trash`), else for good. */
  dispose(actor: Actor, path: string, opts?: { permanent?: boolean; trash?: boolean; detail?: Record<string, unknown> }): Promise<unknown>;
  /**
   * What keeps a file an actor's write is about to overwrite (ScopedFs's FsObserver.replacing): a version (`cause`
   * says what replaced it; `kept` hears the version's id) or, with versions off, the trash.
   */
  keeper(actor: Actor, cause?: VersionCause, kept?: (versionId: string) => void): NonNullable<FsObserver['replacing']>;
}

/** Told when files move or go for good, after the bookkeeping of links and previews (versions follow their file). */
/**
 * What keeps records about files by their place (versions, WebDAV properties and locks) and must follow them. Real
 * locations throughout. A delete to the trash is neither a move nor a removal: the item may come back (untrashed) or
 * go for good (trashGone), and what a follower keeps of it goes along.
 */
export interface FileFollower {
  moved(from: string, to: string): Promise<void>;
  removed(entry: string): Promise<void>;
  /** `entry` went into the trash as item `trashId`. */
  trashed?(entry: string, trashId: string): Promise<void>;
  /** Trash item `trashId`, deleted from `from`, is back at `to`. */
  untrashed?(trashId: string, from: string, to: string): Promise<void>;
  /** Trash item `trashId` was deleted for good (emptied, purged). */
  trashGone?(trashId: string): Promise<void>;
}

/** Reading files and folders inside the actor's scope, under its rules. Writes live in files-write.ts. */
export class FilesService {
  private sequence: DeleteSequence | null = null;
  /** Registered by the composition root (services/versions). */
  readonly followers: FileFollower[] = [];

  constructor(readonly deps: FilesDeps) {}

  /** The trash service registers the delete sequence here when it is made (createServices). */
  useDeleteSequence(d: DeleteSequence): void {
    this.sequence = d;
  }

  /** The one delete sequence. */
  get deletes(): DeleteSequence {
    if (!this.sequence) throw new Error('no delete sequence: the trash service was not made');
    return this.sequence;
  }

  /**
   * The actor's scope for a write that may overwrite files: whatever it replaces is kept by the delete sequence
   * (the trash, hooks, audit) right before the overwrite. Every overwrite goes through this (upload, save, tus,
   * copy, move, jobs). `cause` names the write for the version it keeps; `kept` hears that version's id.
   */
  keeping(actor: Actor, cause: VersionCause = 'upload', kept?: (versionId: string) => void): ScopedFs {
    return this.sequence ? actor.fs.observed({ replacing: this.sequence.keeper(actor, cause, kept) }) : actor.fs;
  }

  /** Something at `real` now holds new bytes (save, override): its cached previews go, links to it follow the new file. */
  async replaced(real: string, st: Stats): Promise<void> {
    await this.deps.evictPreviews(real);
    await this.deps.shares.retarget(real, identityOf(st));
  }

  /** `entry` (a real location) and everything beneath it are gone: their previews and every link to them, whoever made it. */
  async removed(entry: string, real = entry): Promise<void> {
    await this.deps.evictPreviews(real);
    await this.deps.shares.deleteUnderTarget(entry);
    for (const f of this.followers) await f.removed(entry);
  }

  /** `from` now lives at `to` (real locations): links to it and beneath it follow, whoever made them. */
  async moved(from: string, to: string, real = from): Promise<void> {
    await this.deps.evictPreviews(real);
    await this.deps.shares.moveTarget(from, to);
    for (const f of this.followers) await f.moved(from, to);
  }

  /** Throws 403 unless the policy allows this kind of access to the path (file-policy.ts decides). */
  check(actor: Actor, path: string, access: Access = 'read'): void {
    authorizePath(actor, access, path);
  }

  /**
   * A file's description (with `content` for text the actor may download, or a checksum), or a folder with all its
   * allowed children sorted as the user prefers (materialised: for big folders the HTTP layer streams `open()`).
   */
  async get(actor: Actor, path: string, opts: { checksum?: string; content?: boolean; signal?: AbortSignal } = {}): Promise<Resource> {
    const r = await this.open(actor, path, opts);
    if (!r.listing) return r.res;
    const items = await r.listing.all();
    const { numDirs, numFiles, sorting } = r.listing;
    return { ...r.res, items, numDirs, numFiles, sorting };
  }

  /**
   * As get(), but a folder comes back as its description plus a FolderListing, whose items are described as they
   * are read (streamed listings, pages).
   */
  async open(actor: Actor, path: string, opts: { checksum?: string; content?: boolean; signal?: AbortSignal; folder?: boolean } = {}): Promise<{ res: Resource; listing?: FolderListing }> {
    this.check(actor, path);
    // A small folder is resolved, described and read through one descriptor; anything else the usual way. A caller
    // that knows the path names a file (`folder: false`) skips the attempt (an open that would fail).
    const folder = opts.checksum === undefined && opts.folder !== false ? actor.fs.readFolder(path) : null;
    const { real, stats, isSymlink } = folder ?? (await actor.fs.stat(path));
    const res = describe(path, baseName(path), stats, isSymlink);
    if (res.isDir) {
      if (opts.checksum !== undefined) throw invalid('checksums are computed for files only');
      const sorting = actor.user?.sorting ?? { by: 'name' as const, asc: false };
      const listing = await scanFolder(actor, path, { by: sorting.by || 'name', asc: sorting.asc }, this.deps.typeDetectionByHeader, stats.size, real, folder);
      const sizes = this.deps.folderSizes?.visibleSizes(actor, path, real) ?? null;
      if (sizes?.own !== undefined) res.folderSize = sizes.own;
      listing.folderSizes = sizes?.children ?? null;
      return { res, listing };
    }
    const sniffed = needsSniff(res.name, res.size) && stats.isFile() ? await sniffFile(actor.fs, real, stats) : undefined;
    // FIFOs, sockets and devices are described, never opened (a read could block or act on a device).
    res.type = stats.isFile() ? detectType(res.name, res.size, sniffed) : 'blob';
    if (res.type === 'video') res.subtitles = await this.subtitles(actor, path);
    if (opts.checksum !== undefined) {
      this.check(actor, path, 'download');
      if (!(CHECKSUMS as readonly string[]).includes(opts.checksum)) throw invalid(`unknown checksum algorithm "${opts.checksum}"`);
      // Off the event loop, bounded and cancelled with the request; only a regular file is opened (ScopedFs.hash).
      const user = String(actor.user?.id ?? 'system');
      const sum = await actor.fs.hash(real, opts.checksum as ChecksumAlgo, (fd, algo, settled) =>
        this.deps.checksums.run<string>(user, { kind: 'hash', fd, algo: algo as ChecksumAlgo }, { signal: opts.signal, settled }));
      return { res: { ...res, checksums: { [opts.checksum]: sum } } as Resource };
    }
    if (res.type === 'text') {
      if (!permitted(actor, 'modify')) res.type = 'textImmutable';
      if (opts.content !== false && permitted(actor, 'download') && res.size <= TEXT_LIMIT) res.content = await actor.fs.readText(real);
    }
    return { res };
  }

  /** Subtitle files for a video: siblings named after it, and files in sub/subs/subtitles folders next to it. */
  private async subtitles(actor: Actor, path: string): Promise<string[]> {
    const parent = parentOf(path);
    const name = baseName(path);
    const siblings = await actor.fs.list(parent);
    const out = siblingSubtitles(parent, name, siblings.map((s) => s.name));
    const stem = name.slice(0, name.length - extensionOf(name).length);
    for (const dir of siblings.filter((s) => s.stats.isDirectory() && SUBTITLE_DIRS.test(s.name))) {
      const dirPath = joinVirtual(parent, dir.name);
      for (const e of await actor.fs.list(dirPath)) {
        const p = joinVirtual(dirPath, e.name);
        if (!e.stats.isDirectory() && isSubtitle(e.name)) out.push(p);
        else if (e.stats.isDirectory() && e.name.startsWith(stem))
          for (const f of await actor.fs.list(p)) if (!f.stats.isDirectory() && isSubtitle(f.name)) out.push(joinVirtual(p, f.name));
      }
    }
    return out.filter((p) => visible(actor, p));
  }

  /** Every allowed descendant of a folder, as a flat stream (denied folders are skipped with their subtree). */
  async *recursive(actor: Actor, path: string, signal?: AbortSignal): AsyncGenerator<WalkEntry> {
    this.check(actor, path);
    const { stats } = await actor.fs.stat(path);
    if (!stats.isDirectory()) throw invalid('path is not a directory');
    for await (const e of actor.fs.walk(path, (d) => visible(actor, d.path, d.at), signal)) if (visible(actor, e.path, e.at)) yield e;
  }

  /** Disk usage of the volume holding a folder. */
  async usage(actor: Actor, path: string): Promise<{ total: number; used: number }> {
    this.check(actor, path);
    return actor.fs.usage(path);
  }
}

function siblingSubtitles(parent: string, video: string, names: string[]): string[] {
  const stem = video.slice(0, video.length - extensionOf(video).length);
  return names.filter((n) => n !== video && n.startsWith(stem) && isSubtitle(n)).map((n) => joinVirtual(parent, n));
}
