import { randomUUID } from 'node:crypto';
import type { RestoreConflict, TrashItem, TrashSettings } from '../../contract/trash';
import type { VersionCause } from '../../contract/versions';
import type { Rule } from '../../contract/user';
import { exists, forbidden, invalid, notFound } from '../../core/errors';
import type { SharesStore } from '../../db/shares.store';
import type { TrashRow, TrashStore } from '../../db/trash.store';
import type { UsersStore } from '../../db/users.store';
import type { FsObserver } from '../../fs/scoped-fs';
import { reserveMoveAt } from '../../fs/write-gate';
import { claimFromTrash, keepInTrash, moveIntoTrash, removeTrashed, replaceFromTrash, trashBaseFor, trashedStat, treeSize, walkRelative } from '../../fs/trash-fs';
import { baseName, parentOf } from '../../fs/virtual-path';
import { actorFor, type Actor } from '../actor';
import type { DeleteSequence, FilesService } from '../files/files.service';
import { freeName, replaceEffects } from '../files/files-write';
import { authorize, authorizePath, inReach } from '../policy/file-policy';
import { effectiveTrash } from './trash-settings';
import { TrashPurge } from './trash-purge';
import type { VersionsService } from '../versions/versions.service';

export interface TrashDeps {
  store: TrashStore;
  users: UsersStore;
  shares: SharesStore;
  files: FilesService;
  root: string;
  followExternalSymlinks: boolean;
  trashSettings: () => TrashSettings;
  globalRules: () => Rule[];
  now?: () => number;
  /** File versions: an overwritten file is kept there instead of the trash when they are on (services/versions). */
  versions?: VersionsService;
}

/**
 * The trash: a delete by a user moves the item (a rename on its own filesystem) into that user's trash, with a
 * row saying where it came from. Restores go back to the original location through the restorer's scope and the
 * file policy; links to a trashed item follow it into the trash, where they answer 404, and come back with it.
 * A row is the claim on its item: whoever deletes the row (restore, delete forever, purge) acts on the files.
 */
export class TrashService implements DeleteSequence {
  readonly purge: TrashPurge;

  constructor(private readonly d: TrashDeps) {
    this.purge = new TrashPurge(d.store, d.users, d.shares, d.trashSettings, d.now);
    // An item deleted for good takes along what the followers kept of it (its versions, its WebDAV properties).
    this.purge.onRemoved = async (id) => {
      for (const f of d.files.followers) await f.trashGone?.(id);
    };
    d.files.useDeleteSequence(this);
  }

  private now(): number {
    return this.d.now?.() ?? Date.now();
  }

  /** The settings that apply to an actor (the global ones under the user's override). */
  settingsFor(actor: Actor): TrashSettings {
    return effectiveTrash(this.d.trashSettings(), actor.user);
  }

  /**
   * DELETE of a file or folder: into the actor's trash when it is on for them, else (or with `permanent`) for
   * good. Both need delete with the rules on the whole tree. Returns the trash item, or null when deleted for good.
   */
  async delete(actor: Actor, path: string, opts: { permanent?: boolean } = {}): Promise<TrashItem | null> {
    if (path === '/') throw forbidden();
    await authorize(actor, [{ access: 'delete', path, tree: true }]);
    return this.dispose(actor, path, { permanent: opts.permanent });
  }

  /** Moves an item into the actor's trash (decided like a delete: the delete permission, the rules on every descendant). */
  async trash(actor: Actor, path: string): Promise<TrashItem> {
    if (!actor.user) throw forbidden('only users have a trash');
    if (path === '/') throw forbidden();
    await authorize(actor, [{ access: 'delete', path, tree: true }]);
    return (await this.dispose(actor, path, { trash: true }))!;
  }

  /**
   * THE delete sequence, for every delete however it comes (DELETE, jobs, the CLI, an override replacing a tree, a
   * restore over an item): the caller has authorised it as a delete. Before-hooks; the item moved into the actor's
   * trash when it is on for them (or `trash`) with its row, links following it there, or else removed for good
   * with its links ended; previews dropped; the audit entry; after-hooks; the trash's size cap. Returns the trash
   * item, or null when deleted for good.
   */
  async dispose(actor: Actor, path: string, opts: { permanent?: boolean; trash?: boolean; detail?: Record<string, unknown> } = {}): Promise<TrashItem | null> {
    if (path === '/') throw forbidden();
    const user = actor.user;
    const toTrash = !!user && !opts.permanent && (!!opts.trash || this.settingsFor(actor).enabled);
    const real = await actor.fs.real(path);
    const entry = await actor.fs.entryReal(path);
    const ctx = { actor, path };
    const hooks = this.d.files.deps.hooks;
    await hooks.before('delete', ctx);
    let row: TrashRow | null = null;
    if (toTrash && user) {
      const id = randomUUID();
      const trashReal = await moveIntoTrash(await trashBaseFor(this.d.root, entry), user.id, id, entry);
      row = await this.rowFor(user, id, path, entry, trashReal);
      try {
        await this.d.store.insert(row);
        // Links follow the item into the trash (404 there: no scope reaches it) and come back on restore.
        await this.d.shares.moveTarget(entry, trashReal);
        // What the followers keep of it (versions, WebDAV properties and locks) goes with it, and comes back with it.
        for (const f of this.d.files.followers) await f.trashed?.(entry, id);
      } catch (e) {
        // No row, no trash item: put it back where it was rather than leave an orphan in the trash.
        await this.d.store.delete(id).catch(() => {});
        await claimFromTrash(trashReal, entry).catch(() => {});
        throw e;
      }
      await this.d.files.deps.evictPreviews(real);
    } else {
      await actor.fs.remove(path);
      await this.d.files.removed(entry, real);
    }
    await this.d.files.deps.audit?.record(actor, 'file.delete', path, { scope: user?.scope ?? '', ...(row ? { trash: row.id } : {}), ...opts.detail });
    await hooks.after('delete', ctx);
    if (row && user) await this.purge.enforceCap(user.id, row.id);
    return row && this.item(row);
  }

  /**
   * The delete sequence for a file an actor's write is about to overwrite (upload or save over it, a copy or move
   * landing on it, a tus upload or job completing there, a restore over it): before-hooks, then the file kept as a
   * version when versions are on for the actor (services/versions: a hard link into the versions folder, a pending
   * row), else in the actor's trash when it is on for them (a hard link too), with its row. Either way the overwrite
   * stays atomic and the keep holds the very bytes replaced. Once the overwrite happened: the version settled, the
   * audit entry, after-hooks, the trash's size cap; if it failed, the keep and its row go again. Links stay on the
   * path (the caller moves them to the new bytes: FilesService.replaced).
   */
  keeper(actor: Actor, cause: VersionCause = 'upload', onVersion?: (versionId: string) => void): NonNullable<FsObserver['replacing']> {
    return async (path, real) => {
      const user = actor.user;
      const ctx = { actor, path };
      const hooks = this.d.files.deps.hooks;
      await hooks.before('delete', ctx);
      const version = this.d.versions ? await this.d.versions.keep(actor, real, cause) : null;
      if (version) onVersion?.(version.id);
      let kept: { row: TrashRow; moved: boolean } | null = null;
      if (!version && user && this.settingsFor(actor).enabled) {
        const id = randomUUID();
        const { trashReal, moved } = await keepInTrash(await trashBaseFor(this.d.root, real), user.id, id, real);
        try {
          kept = { row: await this.rowFor(user, id, path, real, trashReal), moved };
          await this.d.store.insert(kept.row);
        } catch (e) {
          await this.unkeep({ id, trashReal, moved }, real);
          throw e;
        }
      }
      return async (done) => {
        if (!done) {
          await version?.done(false);
          if (kept) await this.unkeep({ id: kept.row.id, trashReal: kept.row.trashReal, moved: kept.moved }, real, true);
          return;
        }
        // The seam for quotas: a kept version's bytes (version.size) stay on the disk, counted with the file's scope.
        await version?.done(true);
        const what = version ? { version: version.id } : kept ? { trash: kept.row.id } : {};
        await this.d.files.deps.audit?.record(actor, 'file.delete', path, { scope: user?.scope ?? '', ...what, replaced: true, cause });
        await hooks.after('delete', ctx);
        if (kept && user) await this.purge.enforceCap(user.id, kept.row.id);
      };
    };
  }

  /** Undoes a keep whose overwrite did not happen: the row and the trash's link go (a moved file goes back). */
  private async unkeep(kept: { id: string; trashReal: string; moved: boolean }, real: string, hadRow = false): Promise<void> {
    if (hadRow) await this.d.store.delete(kept.id).catch(() => {});
    if (kept.moved) await claimFromTrash(kept.trashReal, real).catch(() => {});
    else await removeTrashed(kept.trashReal).catch(() => {});
  }

  private async rowFor(user: NonNullable<Actor['user']>, id: string, path: string, entry: string, trashReal: string): Promise<TrashRow> {
    const st = await trashedStat(trashReal);
    return {
      id, ownerId: user.id, deletedBy: user.id, name: baseName(path), originalPath: path, originalReal: entry,
      scope: user.scope, trashReal, deletedAt: this.now(), size: await treeSize(trashReal), isDir: !!st?.isDirectory(),
    };
  }

  /** Trash items: a user's own; admins (and the CLI) every user's, or one user's with `userId`. Newest first. */
  async list(actor: Actor, userId?: number): Promise<TrashItem[]> {
    const owner = this.ownerScope(actor, userId);
    const names = new Map((await this.d.users.all()).map((u) => [u.id, u.username]));
    return (await this.d.store.list(owner)).filter((r) => inReach(actor, r.originalPath)).map((r) => ({ ...this.item(r), owner: names.get(r.ownerId) ?? '' }));
  }

  /**
   * Puts an item back where it was deleted from, through the restorer's scope (the CLI uses the owner's): needs
   * create there and the rules on every restored descendant; missing parents are made. When the name is taken:
   * 409, or `rename` (keep both: the next free name), or `replace` (what is there now goes to the trash first,
   * decided as a delete). Returns the path it landed at.
   */
  async restore(actor: Actor, id: string, conflict: RestoreConflict = 'fail'): Promise<string> {
    if (!['fail', 'replace', 'rename'].includes(conflict)) throw invalid('conflict must be replace or rename');
    const row = await this.visibleRow(actor, id);
    const by = actor.user ? actor : await this.ownerActor(row);
    if (!(await trashedStat(row.trashReal))) {
      await this.d.store.delete(row.id);
      throw notFound('the item is no longer in the trash');
    }
    const dst = by.fs.virtualOf(row.originalReal);
    if (dst === null) throw forbidden('the folder it was deleted from is outside your scope');
    const incoming = () => relNames(row.trashReal);
    const decide = (to: string) => authorize(by, [{ access: 'create', path: to, incoming: row.isDir ? incoming : undefined }]);
    await decide(dst);
    let target = dst;
    let over = false;
    if (await by.fs.exists(dst)) {
      if (conflict === 'fail') throw exists(`${dst} exists`);
      if (conflict === 'rename') await decide((target = await freeName(by, dst)));
      else if (await this.overwritesFile(by, row, dst)) over = true;
      else await this.trash(by, dst);
    }
    if (over) return this.restoreOver(by, row, dst);
    await by.fs.mkdirp(parentOf(target));
    const to = await by.fs.destination(target);
    if (!(await this.d.store.delete(row.id))) throw notFound('the item is no longer in the trash');
    let placed = false;
    // Back under the quotas over its folder; the owner's already counted it (their trash), so only others gain it.
    const hold = await reserveMoveAt(row.trashReal, to, { counted: row.ownerId }).catch(async (e) => {
      await this.d.store.insert(row);
      throw e;
    });
    try {
      placed = await claimFromTrash(row.trashReal, to);
    } finally {
      if (!placed) await this.d.store.insert(row); // the claim failed: the item stays in the trash
      await (placed ? hold.settle() : hold.release());
    }
    if (!placed) throw exists(`${target} exists`);
    await this.d.shares.moveTarget(row.trashReal, to);
    for (const f of this.d.files.followers) await f.untrashed?.(row.id, row.originalReal, to);
    return target;
  }

  /** A file restored over a file while versions are on: an overwrite like any other (the old file becomes a version). */
  private async overwritesFile(by: Actor, row: TrashRow, dst: string): Promise<boolean> {
    if (row.isDir || !this.d.versions?.settingsFor(by).enabled) return false;
    return (await by.fs.stat(dst)).stats.isFile();
  }

  /** Puts a trashed file over the file at `dst` through the keeper (decided as any overwrite: replaceEffects). */
  private async restoreOver(by: Actor, row: TrashRow, dst: string): Promise<string> {
    await authorize(by, replaceEffects(dst, false, false));
    const to = await by.fs.destination(dst);
    if (!(await this.d.store.delete(row.id))) throw notFound('the item is no longer in the trash');
    let placed = false;
    try {
      const finish = await this.keeper(by, 'restore')(dst, to);
      try {
        await replaceFromTrash(row.trashReal, to);
        placed = true;
      } finally {
        await finish(placed);
      }
    } finally {
      if (!placed) await this.d.store.insert(row);
    }
    await this.d.files.replaced(to, (await by.fs.stat(dst)).stats);
    await this.d.shares.moveTarget(row.trashReal, to);
    for (const f of this.d.files.followers) await f.untrashed?.(row.id, row.originalReal, to);
    return dst;
  }

  /** Deletes one item for good (needs delete). */
  async remove(actor: Actor, id: string): Promise<void> {
    if (actor.user) authorizePath(actor, 'delete');
    await this.purge.removeRow(await this.visibleRow(actor, id));
  }

  /**
   * Empties a trash: the actor's own (admins: `userId`'s; the CLI: everyone's unless `userId`), optionally only
   * items deleted more than `olderThanMs` ago. Returns how many items went.
   */
  async empty(actor: Actor, opts: { userId?: number; olderThanMs?: number } = {}): Promise<number> {
    if (actor.user) authorizePath(actor, 'delete');
    const owner = actor.user && opts.userId === undefined ? actor.user.id : this.ownerScope(actor, opts.userId);
    const rows = await this.d.store.olderThan(opts.olderThanMs ? this.now() - opts.olderThanMs : Number.MAX_SAFE_INTEGER, owner);
    let n = 0;
    for (const r of rows) if (inReach(actor, r.originalPath) && (await this.purge.removeRow(r))) n++;
    return n;
  }

  /** A user named by id or username (the `?user=` of admins, the CLI's `--user`); 404 when unknown. */
  async userRef(ref: string): Promise<number> {
    const u = await this.d.users.byRef(ref);
    if (!u) throw notFound(`no user "${ref}"`);
    return u.id;
  }

  /** Whose items an actor may see: their own; admins and the CLI anyone's (all when no user is named). */
  private ownerScope(actor: Actor, userId?: number): number | undefined {
    if (!actor.user || actor.can('admin')) return userId;
    if (userId !== undefined && userId !== actor.user.id) throw forbidden('only admins see other users\' trash');
    return actor.user.id;
  }

  /** A row the actor may act on; someone else's is a 404 to non-admins (its existence is not theirs to know). */
  private async visibleRow(actor: Actor, id: string): Promise<TrashRow> {
    const row = await this.d.store.byId(id);
    if (!row || (actor.user && !actor.can('admin') && row.ownerId !== actor.user.id) || !inReach(actor, row.originalPath)) throw notFound('no such item in the trash');
    return row;
  }

  private async ownerActor(row: TrashRow): Promise<Actor> {
    const owner = await this.d.users.byId(row.ownerId);
    if (!owner) throw notFound('the owner of this item no longer exists');
    return actorFor(owner, { root: this.d.root, globalRules: this.d.globalRules(), followExternalSymlinks: this.d.followExternalSymlinks });
  }

  private item(r: TrashRow): TrashItem {
    return { id: r.id, name: r.name, originalPath: r.originalPath, ownerId: r.ownerId, deletedBy: r.deletedBy, deletedAt: r.deletedAt, size: r.size, isDir: r.isDir };
  }
}

/** Relative paths of everything inside a trashed folder (for the rules where it lands). */
async function* relNames(real: string): AsyncGenerator<string> {
  for await (const e of walkRelative(real)) yield e.rel;
}
