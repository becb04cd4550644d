import type { ShareState } from '../../contract/share';
import type { Rule } from '../../contract/user';
import { AppError, notFound } from '../../core/errors';
import type { ShareRow, SharesStore } from '../../db/shares.store';
import type { UsersStore } from '../../db/users.store';
import type { ScopedFs } from '../../fs/scoped-fs';
import { identityOf } from '../../fs/file-identity';
import { inTrash } from '../../fs/trash-fs';
import { actorFor, type Actor } from '../actor';
import { authorizePath } from '../policy/file-policy';

/** Where a link leads now (`reachOf`): the owner and the pinned row, or why it serves nothing at the moment. */
export type Reach =
  | { state: 'ok'; owner: Actor; row: ShareRow; isDir: boolean }
  | { state: Exclude<ShareState, 'ok'>; error: AppError };

export interface ReachDeps {
  store: SharesStore;
  users: UsersStore;
  root: string;
  followExternalSymlinks: boolean;
  globalRules: () => Rule[];
}

export const stopped = (state: Exclude<ShareState, 'ok'>, error: AppError = notFound()): Reach => ({ state, error });
const asAppError = (e: unknown): AppError => (e instanceof AppError ? e : notFound());

/**
 * Where a link leads now, decided from what it pinned: the owner must still exist and may share (share and
 * download); the pinned real location must still be inside the owner's CURRENT scope (a narrowed scope stops
 * the link, a widened one cannot make it reach more), must still hold the same item (identity: another item
 * at that path is never served), and must be allowed by the owner's rules. A link that fails a check is NOT
 * ended: it answers 404 (403 for a permission or rule refusal) with the state it is in, and serves again once
 * the check passes (the disk mounted, the scope or rule changed back, the item restored). Links made before
 * pinning are pinned here, when their item is found. (Part of SharesService.open, the one home of what a visitor reaches.)
 */
export async function reachOf(d: ReachDeps, row: ShareRow): Promise<Reach> {
  const owner = await d.users.byId(row.userId);
  if (!owner) return stopped('unreachable');
  const ownerActor = actorFor(owner, { root: d.root, globalRules: d.globalRules(), followExternalSymlinks: d.followExternalSymlinks });
  try {
    authorizePath(ownerActor, 'share');
  } catch (e) {
    return stopped('unreachable', asAppError(e));
  }
  let scopeFs: ScopedFs;
  try {
    scopeFs = ownerActor.fs;
  } catch {
    return stopped('missing'); // the owner's scope folder is not there (a disk not mounted?)
  }
  if (!row.target) {
    const found = await pinTarget(ownerActor, row.path).catch((e: unknown) => asAppError(e));
    if (found instanceof AppError) return stopped(found.code === 'FORBIDDEN' ? 'unreachable' : 'missing', found);
    const pinned = { ...row, target: found.target, targetId: found.targetId };
    await d.store.pin(row.hash, row.path, pinned.target, pinned.targetId);
    return readable(ownerActor, pinned, found.isDir);
  }
  // A trashed item's links wait in the trash with it: 404 now, working again when it is restored.
  if (inTrash(row.target)) return stopped('trashed');
  const path = scopeFs.virtualOf(row.target);
  if (path === null) return stopped('unreachable'); // outside the owner's current scope
  const found = await scopeFs.stat(path).catch((e: unknown) => asAppError(e));
  if (found instanceof AppError) return stopped(found.code === 'FORBIDDEN' ? 'unreachable' : 'missing', found.code === 'FORBIDDEN' ? found : notFound());
  // The path must still lead to the pinned location itself (no link swapped in) and hold the same item.
  if (found.real !== row.target || identityOf(found.stats) !== row.targetId) return stopped('missing');
  if (path !== row.path) await d.store.pin(row.hash, path, row.target, row.targetId);
  return readable(ownerActor, { ...row, path }, found.stats.isDirectory());
}

/** What a link pins of its item: the real location and the identity of what is there now. */
export interface Pinned {
  target: string;
  targetId: string;
  isDir: boolean;
}

/**
 * THE pinning of a link to its item, for every way a link is made or first found (SharesService.create, the
 * filebrowser import's planner, links made before pinning, in reachOf): the item at `path` as `actor` reaches it
 * (scope, rules of its file system, symlinks), by its real location and identity. Throws as the stat does: 404 when
 * missing, 403 when the path leaves the scope.
 */
export async function pinTarget(actor: Actor, path: string): Promise<Pinned> {
  const { real, stats } = await actor.fs.stat(path);
  return { target: real, targetId: identityOf(stats), isDir: stats.isDirectory() };
}

/** The owner's rules on the shared item's path (403, the link kept: a later change may lift it). */
function readable(owner: Actor, row: ShareRow, isDir: boolean): Reach {
  try {
    authorizePath(owner, 'read', row.path);
  } catch (e) {
    return stopped('unreachable', asAppError(e));
  }
  return { state: 'ok', owner, row, isDir };
}
