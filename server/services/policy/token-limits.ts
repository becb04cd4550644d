import type { PermName } from '../../contract/user';
import { isWithin } from '../../fs/virtual-path';

/**
 * What a personal API token narrows its owner's rights to (issue 34). The owner's own permissions, scope and rules
 * still apply; these only take away. Decided here and in file-policy.ts, through the actor (actor.ts actorFor).
 */
export interface TokenLimits {
  tokenId: string;
  /** The permissions the token carries (each also needs the owner to have it, checked at every request). */
  perm: readonly PermName[];
  /** Only this folder and below (virtual path of the owner's scope); null = the whole scope. */
  path: string | null;
  /** Reads only: of the permissions, `download` alone. */
  readOnly: boolean;
}

/**
 * Whether a token lets its owner use a permission. Never `execute` (a command could leave the folder, and a token
 * never opens the shell), never `admin` with a folder, only `download` when read-only.
 */
export function tokenPermits(limits: TokenLimits, perm: PermName): boolean {
  if (perm === 'execute' || !limits.perm.includes(perm)) return false;
  if (limits.readOnly && perm !== 'download') return false;
  return !(perm === 'admin' && limits.path !== null);
}

/**
 * Where a path lies for a token: inside its folder (everything the permissions allow), on the way down to it (an
 * ancestor: listing and information only, so clients can walk to the folder), or elsewhere (as if a rule denied it).
 */
export type TokenReach = 'inside' | 'ancestor' | 'outside';

export function tokenReach(limits: TokenLimits | undefined, path: string): TokenReach {
  if (!limits || limits.path === null || isWithin(path, limits.path)) return 'inside';
  return isWithin(limits.path, path) ? 'ancestor' : 'outside';
}
