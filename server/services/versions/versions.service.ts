import { randomUUID } from 'node:crypto';
import type { VersionCause, VersionInfo, VersionSettings } from '../../contract/versions';
import type { Logger } from '../../core/log';
import { invalid, notFound } from '../../core/errors';
import type { UsersStore } from '../../db/users.store';
import type { VersionRow, VersionsStore } from '../../db/versions.store';
import type { ReadHandle } from '../../fs/open-regular';
import { keepVersion, openVersion, realRootOf, removeVersionFile, rootRelative, unkeepVersion, versionChunks, versionsBaseFor, versionStat } from '../../fs/versions-fs';
import type { Actor } from '../actor';
import type { AuditService } from '../audit/audit.service';
import type { FilesService } from '../files/files.service';
import { authorizePath } from '../policy/file-policy';
import { effectiveVersions } from './version-settings';

export interface VersionsDeps {
  store: VersionsStore;
  users: UsersStore;
  files: FilesService;
  root: string;
  settings: () => VersionSettings;
  audit?: AuditService;
  log?: Logger;
  now?: () => number;
  /** Test hook: runs after a keep's link and after its overwrite (the kill -9 test pauses at one of them). */
  afterLink?: (versionReal: string, phase: 'linked' | 'overwritten') => Promise<void>;
}

/** A keep in flight: `done(true)` once the overwrite happened (the version is listed), `done(false)` undoes it. */
export interface KeptVersion {
  id: string;
  size: number;
  done(ok: boolean): Promise<void>;
}

/**
 * File versions: the old content of an overwritten file, kept by a hard link (or a rename) into the versions folder
 * of its filesystem, never a copy, with a row naming the file by its path under the files root. The keep is the
 * delete sequence's keeper (TrashService.keeper) when versions are on for the writer, so every overwrite path keeps
 * one. Crash order: the row first (pending), then the link, then the overwrite, then the row settled; whatever a
 * kill leaves between those steps is resolved at start (version-upkeep.ts `recover`).
 */
export class VersionsService {
  private realRootCache: string | null = null;
  /** Called after each keep with the file's path (retention of that file only; version-upkeep.ts). */
  afterKeep: ((path: string) => void) | null = null;

  constructor(readonly d: VersionsDeps) {}

  now(): number {
    return this.d.now?.() ?? Date.now();
  }

  get realRoot(): string {
    return (this.realRootCache ??= realRootOf(this.d.root));
  }

  /** The settings that apply to an actor (the global ones under the user's override; the CLI: the global ones). */
  settingsFor(actor: Pick<Actor, 'user'>): VersionSettings {
    return effectiveVersions(this.d.settings(), actor.user ?? null);
  }

  /**
   * Keeps the file at `real` (virtual `path` of the actor) as a version, right before it is overwritten. Null when
   * versions are off for the actor or the file lies outside the files root: the caller keeps it the old way.
   */
  async keep(actor: Actor, real: string, cause: VersionCause): Promise<KeptVersion | null> {
    if (!this.settingsFor(actor).enabled) return null;
    const rel = rootRelative(this.realRoot, real);
    const st = rel === null ? null : await versionStat(real);
    if (rel === null || !st?.isFile()) return null;
    const id = randomUUID();
    const versionReal = `${await versionsBaseFor(this.d.root, real)}/${id}`;
    const row: VersionRow = {
      id, path: rel, versionReal, size: st.size, modified: Math.floor(st.mtimeMs), replacedAt: this.now(),
      replacedBy: actor.user?.id ?? null, cause, pending: true, trashId: null,
    };
    await this.d.store.insert(row); // the row first: a crash after it leaves a pending row the recovery resolves
    let moved = false;
    try {
      moved = (await keepVersion(real, versionReal)).moved;
    } catch (e) {
      await this.d.store.delete(id).catch(() => {});
      throw e;
    }
    await this.d.afterLink?.(versionReal, 'linked');
    return {
      id, size: st.size,
      done: async (ok) => {
        if (!ok) {
          await unkeepVersion(versionReal, real, moved).catch(() => {});
          await this.d.store.delete(id).catch(() => {});
          return;
        }
        await this.d.afterLink?.(versionReal, 'overwritten');
        await this.d.store.markKept(id);
        this.afterKeep?.(rel);
      },
    };
  }

  /** The versions of a file the actor may download, newest first. */
  async list(actor: Actor, path: string): Promise<VersionInfo[]> {
    const rel = await this.fileOf(actor, path, 'download');
    const names = new Map((await this.d.users.all()).map((u) => [u.id, u.username]));
    return (await this.d.store.ofFile(rel)).map((r) => ({
      id: r.id, replacedAt: r.replacedAt, modified: r.modified, size: r.size, replacedBy: r.replacedBy === null ? '' : names.get(r.replacedBy) ?? '', cause: r.cause,
    }));
  }

  /** One version's bytes, opened (the caller streams and closes it), with the file's name. */
  async open(actor: Actor, path: string, id: string): Promise<{ handle: ReadHandle; stats: { size: number; mtimeMs: number }; row: VersionRow }> {
    const row = await this.rowOf(actor, path, id, 'download');
    return { ...(await openVersion(row.versionReal)), row };
  }

  /**
   * Makes a version current again: its bytes are written to the file through the same overwrite path as any save
   * (so the current content becomes a version first: the restore is undone by restoring `kept`). Needs modify.
   */
  async restore(actor: Actor, path: string, id: string): Promise<{ restored: string; kept: string }> {
    const row = await this.rowOf(actor, path, id, 'modify');
    const { handle } = await openVersion(row.versionReal);
    let kept = '';
    const fs = this.d.files.keeping(actor, 'version-restore', (k) => (kept = k));
    try {
      const { real, stats } = await actor.fs.stat(path);
      const st = await fs.writeFile(path, versionChunks(handle), { mode: stats.mode & 0o777 });
      await this.d.files.replaced(real, st);
    } finally {
      await handle.close().catch(() => {});
    }
    await this.d.audit?.record(actor, 'version.restore', path, { version: id, kept });
    return { restored: id, kept };
  }

  /** Deletes one version for good (needs delete). */
  async remove(actor: Actor, path: string, id: string): Promise<void> {
    const row = await this.rowOf(actor, path, id, 'delete');
    await this.drop(row);
    await this.d.audit?.record(actor, 'version.delete', path, { version: id });
  }

  /** Deletes a version's file, then its row (a crash between leaves a row whose file is gone: the recovery drops it). */
  async drop(row: VersionRow): Promise<boolean> {
    await removeVersionFile(row.versionReal);
    return this.d.store.delete(row.id);
  }

  /** `from` (a real location) now lives at `to`: the versions of it, or of files beneath it, follow. */
  async moved(from: string, to: string): Promise<void> {
    const a = rootRelative(this.realRoot, from);
    const b = rootRelative(this.realRoot, to);
    if (a === null || a === b) return;
    if (b === null) return void (await this.removed(from));
    await this.d.store.movePaths(a, b);
  }

  /** `entry` and everything beneath it are gone for good: so are their versions. */
  async removed(entry: string): Promise<void> {
    const rel = rootRelative(this.realRoot, entry);
    if (rel !== null) for (const r of await this.d.store.under(rel)) await this.drop(r).catch((e) => this.d.log?.warn(`versions: ${(e as Error).message}`));
  }

  /** `entry` went into the trash as item `trashId`: its versions go along. */
  async trashed(entry: string, trashId: string): Promise<void> {
    const rel = rootRelative(this.realRoot, entry);
    if (rel !== null) await this.d.store.attachToTrash(rel, trashId);
  }

  /** Trash item `trashId`, deleted from `from`, is back at `to` (real locations): its versions are the file's again. */
  async untrashed(trashId: string, from: string, to: string): Promise<void> {
    const a = rootRelative(this.realRoot, from);
    const b = rootRelative(this.realRoot, to);
    if (a === null || b === null) return this.trashGone(trashId);
    await this.d.store.detachFromTrash(trashId, a, b);
  }

  /** Trash item `trashId` was deleted for good (emptied, purged): the versions it took along go too. */
  async trashGone(trashId: string): Promise<void> {
    for (const r of await this.d.store.ofTrash(trashId)) await this.drop(r).catch(() => {});
  }

  /** A file of the actor's scope with the access asked for: its path under the files root. */
  private async fileOf(actor: Actor, path: string, access: 'download' | 'modify' | 'delete'): Promise<string> {
    authorizePath(actor, access, path);
    const { stats } = await actor.fs.stat(path);
    if (!stats.isFile()) throw invalid('only files have versions');
    const rel = rootRelative(this.realRoot, await actor.fs.entryReal(path));
    if (rel === null) throw notFound('no versions outside the files root');
    return rel;
  }

  private async rowOf(actor: Actor, path: string, id: string, access: 'download' | 'modify' | 'delete'): Promise<VersionRow> {
    if (!id) throw invalid('version is missing');
    const rel = await this.fileOf(actor, path, access);
    const row = await this.d.store.byId(id);
    if (!row || row.path !== rel || row.pending || row.trashId !== null) throw notFound('no such version of this file');
    return row;
  }
}
