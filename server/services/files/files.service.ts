import type { Stats } from 'node:fs';
import type { Resource } from '../../contract/resource';
import { identityOf } from '../../fs/file-identity';
import { invalid } from '../../core/errors';
import type { SharesStore } from '../../db/shares.store';
import { baseName, joinVirtual, parentOf } from '../../fs/virtual-path';
import type { WalkEntry } from '../../fs/scoped-fs';
import type { Actor } from '../actor';
import type { Hooks } from '../hooks/hooks';
import type { HeavyWork } from '../work/heavy-work';
import type { AuditService } from '../audit/audit.service';
import { authorizePath, permitted, visible, type Access } from '../policy/file-policy';
import { describe, extensionOf, sortItems } from './describe';
import { SUBTITLE_DIRS, TEXT_LIMIT, detectType, isSubtitle, mimeOf, needsSniff } from './detect-type';

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
  /** Deletes are recorded here. */
  audit?: AuditService;
}

/** Reading files and folders inside the actor's scope, under its rules. Writes live in files-write.ts. */
export class FilesService {
  constructor(readonly deps: FilesDeps) {}

  /** Something at `real` now holds new bytes (save, override): its cached previews go, links to it follow the new file. */
  async replaced(real: string, st: Stats): Promise<void> {
    await this.deps.evictPreviews(real);
    await this.deps.shares.retarget(real, identityOf(st));
  }

  /** `entry` (a real location) and everything beneath it are gone: their previews and every link to them, whoever made it. */
  async removed(entry: string, real = entry): Promise<void> {
    await this.deps.evictPreviews(real);
    await this.deps.shares.deleteUnderTarget(entry);
  }

  /** `from` now lives at `to` (real locations): links to it and beneath it follow, whoever made them. */
  async moved(from: string, to: string, real = from): Promise<void> {
    await this.deps.evictPreviews(real);
    await this.deps.shares.moveTarget(from, to);
  }

  /** Throws 403 unless the policy allows this kind of access to the path (file-policy.ts decides). */
  check(actor: Actor, path: string, access: Access = 'read'): void {
    authorizePath(actor, access, path);
  }

  /**
   * A file's description (with `content` for text the actor may download, or a checksum), or a folder with its
   * allowed children sorted as the user prefers.
   */
  async get(actor: Actor, path: string, opts: { checksum?: string; content?: boolean; signal?: AbortSignal } = {}): Promise<Resource> {
    this.check(actor, path);
    const { real, stats, isSymlink } = await actor.fs.stat(path);
    const res = describe(path, baseName(path), stats, isSymlink);
    if (res.isDir) {
      if (opts.checksum !== undefined) throw invalid('checksums are computed for files only');
      return this.listing(actor, path, res, real);
    }
    const sample = needsSniff(res.name, res.size) && stats.isFile() ? await actor.fs.head(real) : undefined;
    // FIFOs, sockets and devices are described, never opened (a read could block or act on a device).
    res.type = stats.isFile() ? detectType(res.name, res.size, sample) : 'blob';
    if (res.type === 'video') res.subtitles = await this.subtitles(actor, path);
    if (opts.checksum !== undefined) {
      this.check(actor, path, 'download');
      if (!(CHECKSUMS as readonly string[]).includes(opts.checksum)) throw invalid(`unknown checksum algorithm "${opts.checksum}"`);
      // Off the event loop, bounded and cancelled with the request; only a regular file is opened (ScopedFs.hash).
      const user = String(actor.user?.id ?? 'system');
      const sum = await actor.fs.hash(real, opts.checksum as ChecksumAlgo, (fd, algo, settled) =>
        this.deps.checksums.run<string>(user, { kind: 'hash', fd, algo: algo as ChecksumAlgo }, { signal: opts.signal, settled }));
      return { ...res, checksums: { [opts.checksum]: sum } } as Resource;
    }
    if (res.type === 'text') {
      if (!permitted(actor, 'modify')) res.type = 'textImmutable';
      if (opts.content !== false && permitted(actor, 'download') && res.size <= TEXT_LIMIT) res.content = await actor.fs.readText(real);
    }
    return res;
  }

  private async listing(actor: Actor, path: string, res: Resource, real: string): Promise<Resource> {
    const entries = await actor.fs.list(path);
    const names = entries.map((e) => e.name);
    const items: Resource[] = [];
    const sniffs: Promise<void>[] = [];
    for (const e of entries) {
      const childPath = joinVirtual(path, e.name);
      if (!visible(actor, childPath)) continue;
      const item = describe(childPath, e.name, e.stats, e.isSymlink);
      if (e.broken) item.type = 'invalid_link';
      else if (!item.isDir) {
        const mime = mimeOf(e.name);
        if (this.deps.typeDetectionByHeader && mime === 'application/octet-stream' && item.size <= TEXT_LIMIT && e.stats.isFile())
          sniffs.push(actor.fs.head(`${real}/${e.name}`).then((s) => void (item.type = detectType(e.name, item.size, s, mime)), () => void (item.type = 'blob')));
        else item.type = e.stats.isFile() ? detectType(e.name, item.size, undefined, mime) : 'blob';
        if (item.type === 'video') item.subtitles = siblingSubtitles(path, e.name, names);
      }
      items.push(item);
    }
    await Promise.all(sniffs);
    const sorting = actor.user?.sorting ?? { by: 'name' as const, asc: false };
    const by = sorting.by || 'name';
    sortItems(items, by, sorting.asc);
    let numDirs = 0;
    for (const i of items) if (i.isDir) numDirs++;
    return { ...res, items, numDirs, numFiles: items.length - numDirs, sorting: { by, asc: sorting.asc } };
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
    for await (const e of actor.fs.walk(path, (d) => visible(actor, d.path), signal)) if (visible(actor, e.path)) yield e;
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
