import type { ShareMode } from '../../contract/share';
import type { PermName, StoredUser } from '../../contract/user';
import type { ShareRow } from '../../db/shares.store';
import { ScopedFs } from '../../fs/scoped-fs';
import type { Actor } from '../actor';
import { folderScopeRules } from '../rules/folder-scope';

/**
 * What an anonymous visitor of a link may reach, decided by SharesService.open and nowhere else: the shared item, through an actor
 * whose permissions are the link's mode's (share-visitor.ts), with the owner's rules on the owner's real paths. A
 * folder link is a scope of its own (nothing above the shared folder, not even through a symlink); a file link is
 * that one file, whatever path or selection is asked. The HTTP layer hands `actor` and `path` to the file services
 * as they are; the file policy (`authorizePath`) then decides each access against this actor.
 */
export interface PublicShare {
  share: ShareRow;
  actor: Actor;
  /** The shared item is a folder. */
  isDir: boolean;
  /** The path, for `actor`, that the request reaches: the asked path in a folder link, the file in a file link. */
  path: string;
  /** The path the visitor is shown: the asked path in a folder link, "/" in a file link. */
  shown: string;
  /** A folder link honours a selection of names (`files=`); a file link is that one file. */
  selectable: boolean;
  mode: ShareMode;
}

/**
 * What a link's visitor may do, by the link's mode, as permissions of the visitor's actor (the file policy then
 * decides each access from them like any other actor's):
 * - `view`: download (and read what a download needs);
 * - `upload`: create inside the shared folder, nothing else: no download, so no bytes, previews or archives;
 *   listing is refused by the public routes for this mode (read needs no permission);
 * - `upload-view`: both.
 */
export function visitorPerms(mode: ShareMode): ReadonlySet<PermName> {
  if (mode === 'upload') return new Set<PermName>(['create']);
  if (mode === 'upload-view') return new Set<PermName>(['download', 'create']);
  return new Set<PermName>(['download']);
}

/**
 * The visitor's actor for a reached link (SharesService.open): the owner's identity (quotas, hooks, rules are the
 * owner's), the link's permissions only, and its confinement. A file link: the owner's scope, but no path other
 * than the shared file passes the policy. A folder link: a scope of its own (symlinks inside may not leave it), the
 * owner's rules at the folder's path and, when it is reached through a link, where it really is.
 */
export function visitorActor(owner: Actor, pinned: ShareRow, isDir: boolean, mode: ShareMode, followExternalSymlinks: boolean): Actor {
  const visitor: StoredUser = { ...owner.user!, sorting: { by: 'name', asc: false } };
  const perms = visitorPerms(isDir ? mode : 'view'); // upload modes are for folder links only
  // Never more than the owner may do now: an owner whose `create` was taken away receives nothing through a file
  // request, whatever the link says (the link is kept and works again if the permission comes back).
  const can = (perm: PermName) => perms.has(perm) && owner.can(perm);
  if (!isDir) {
    const file = pinned.path;
    return {
      user: visitor,
      share: pinned.hash,
      can,
      allows: (p) => p === file && owner.allows(p),
      rulesAllow: (p) => p === file && owner.rulesAllow(p),
      hasRules: true,
      beneath: (p) => owner.beneath(p),
      get fs() {
        return owner.fs;
      },
    };
  }
  const base = pinned.path;
  const rules = folderScopeRules(owner, base, pinned.target ? owner.fs.realPathOf(base, pinned.target) : undefined);
  const shareFs = new ScopedFs(owner.fs.root + (base === '/' ? '' : base), followExternalSymlinks, rules.allows);
  return { user: visitor, share: pinned.hash, can, ...rules, hasRules: owner.hasRules, fs: shareFs };
}
