import type { PermName } from '../../contract/user';
import { forbidden } from '../../core/errors';
import type { Actor } from '../actor';
import { tokenReach } from './token-limits';

/**
 * What an operation does to a path. Every file operation of every path (HTTP, CLI, tus, public shares, hooks,
 * archives, and whatever comes later) states its effects and asks `authorize`; nothing else decides.
 *
 * - read: see that it exists, list it, describe it (rules only; every logged-in user may read).
 * - download: take its bytes out (raw, archives, content in a listing, checksums, previews, subtitles).
 * - create: make something new at a free name.
 * - modify: replace an existing file's bytes (save, upload or copy with override onto a file, merge into a folder).
 * - delete: make it disappear, with everything beneath it (delete, and the implicit delete of an override that
 *   replaces a folder by a file or a file by a folder).
 * - rename: move it away from where it is (its subtree goes with it).
 * - share: hand out a public link to it (needs share AND download: a link is a download for anyone holding it).
 */
export type Access = 'read' | 'download' | 'create' | 'modify' | 'delete' | 'rename' | 'share';

export interface Effect {
  access: Access;
  path: string;
  /**
   * Every descendant that exists beneath `path` now is affected too: each must pass the rules (the rules alone,
   * not dotfile hiding, so a tree holding hidden files can still be deleted by its owner, but never one holding
   * files an admin's rule denies).
   */
  tree?: boolean;
  /** With `tree`: each descendant also lands below this path (copy, move): it must pass the rules there too. */
  to?: string;
  /**
   * Descendants arriving from outside the scope (a restore from the trash), as paths relative to `path`: each must
   * pass the rules where it lands below `path`.
   */
  incoming?: () => AsyncIterable<string>;
}

/** Permissions each kind of access needs. The one place where "share needs download" is written. */
const NEEDS: Record<Access, PermName[]> = {
  read: [],
  download: ['download'],
  create: ['create'],
  modify: ['modify'],
  delete: ['delete'],
  rename: ['rename'],
  share: ['share', 'download'],
};

/** The permission part alone: may the actor do this kind of thing anywhere? (For descriptions, not for paths.) */
export function permitted(actor: Actor, access: Access): boolean {
  return NEEDS[access].every((p) => actor.can(p));
}

/**
 * Whether an entry is visible to the actor: its rules and dotfile hiding, on its virtual path and, when it was
 * reached through a link (`at`: the virtual path of its real location, from ScopedFs walk() or realPathOf()), there
 * too, so a rule on `/a/secret` holds for `/l/secret` when `/l` links to `/a`. Listings, search, folder sizes,
 * archives and walks filter by it.
 */
export function visible(actor: Actor, path: string, at?: string): boolean {
  return actor.allows(path) && (at === undefined || actor.allows(at));
}

/**
 * The rules alone (no dotfile hiding) on an entry's path and, when it was reached through a link (`at`, as for
 * visible()), where it really is: what each descendant of a tree effect must pass, and what a job counts.
 */
export function rulesAllowAt(actor: Actor, path: string, at?: string): boolean {
  return actor.rulesAllow(path) && (at === undefined || actor.rulesAllow(at));
}

/**
 * Whether a recorded path (a trash item's original place) lies where the actor acts: inside an API token's folder,
 * or anywhere without one. Records outside it are treated as someone else's (not listed, 404).
 */
export function inReach(actor: Actor, path: string): boolean {
  return tokenReach(actor.limits, path) === 'inside';
}

/**
 * Decides effects on single paths (no subtree walk). Throws 403 naming the missing permission. An API token's folder
 * (actor.limits): its ancestors may only be read (listed, described), anything beyond them is hidden like a
 * rule-denied path (actor.allows).
 */
export function authorizePath(actor: Actor, access: Access, ...paths: string[]): void {
  for (const p of NEEDS[access]) if (!actor.can(p)) throw forbidden(`the ${p} permission is needed`);
  for (const path of paths) {
    if (!actor.allows(path)) throw forbidden();
    if (access !== 'read' && tokenReach(actor.limits, path) !== 'inside') throw forbidden('outside the folder of this token');
  }
}

/**
 * THE authorization decision for file operations: permissions for each effect's kind, the rules (and dotfile
 * hiding) on each path, and for tree effects the rules on every descendant, where it is and where it will be.
 * Throws 403 before anything is changed; callers then act.
 */
export async function authorize(actor: Actor, effects: Effect[]): Promise<void> {
  for (const e of effects) authorizePath(actor, e.access, e.path);
  if (!actor.hasRules) return; // without rules no descendant can be denied
  for (const e of effects) {
    if (e.incoming) for await (const rel of e.incoming()) if (!actor.rulesAllow(`${e.path === '/' ? '' : e.path}/${rel}`)) throw forbidden();
    if (!e.tree) continue;
    const st = await actor.fs.stat(e.path).catch(() => null);
    if (!st?.stats.isDirectory()) {
      if (e.to !== undefined && !actor.rulesAllow(e.to)) throw forbidden();
      continue;
    }
    // A link moved or deleted leaves its target where it is: only a copy (read) takes what lies at the real location.
    const real = !st.isSymlink || e.access === 'read';
    for await (const d of actor.fs.walk(e.path)) {
      if (!rulesAllowAt(actor, d.path, real ? d.at : undefined)) throw forbidden();
      if (e.to !== undefined && !actor.rulesAllow(e.to + d.path.slice(e.path === '/' ? 0 : e.path.length))) throw forbidden();
    }
  }
}
