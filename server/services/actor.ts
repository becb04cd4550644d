import type { PermName, Rule } from '../contract/user';
import type { StoredUser } from '../contract/user';
import { AppError } from '../core/errors';
import { ScopedFs } from '../fs/scoped-fs';
import { RuleSet } from './rules/rules';
import { tokenPermits, tokenReach, type TokenLimits } from './policy/token-limits';

/**
 * Who is acting, built once per request (or once per CLI command). Services take it first, so a permission
 * or rule check is a call on the actor rather than something each handler must remember.
 */
export interface Actor {
  /** null for the CLI/system actor, which is trusted and has no scope. */
  user: StoredUser | null;
  /** The login session the request came with, if any. */
  sessionId?: string;
  /** The client's address (from the route, for the audit log); absent for the CLI. */
  address?: string;
  /** A public link's visitor (SharesService.open): the link's hash, for hooks (SHARE_HASH) and the audit log. */
  readonly share?: string;
  /** Set when the request came with a personal API token: what it narrows the owner's rights to (policy/token-limits.ts). */
  readonly limits?: TokenLimits;
  can(perm: PermName): boolean;
  /** Rules (global then user, last match wins) and hideDotfiles, on a virtual path of the user's scope. */
  allows(path: string): boolean;
  /** The rules alone (no dotfile hiding): what descendants of a copied, moved or deleted tree must pass. */
  rulesAllow(path: string): boolean;
  /** True when any global or user rule exists (otherwise tree walks for rules can be skipped). */
  readonly hasRules: boolean;
  /** What may hide something beneath a visible folder (see `Beneath`); folder sizes subtract what it hides. */
  beneath(path: string): Beneath;
  /** The user's scope on disk; throws for the system actor. */
  readonly fs: ScopedFs;
}

/**
 * What may hide entries beneath a visible folder for an actor: path rules naming paths strictly below it (virtual
 * paths), whether any regex rule exists, and dotfile hiding. Nothing of it: every descendant is visible.
 */
export interface Beneath {
  paths: string[];
  regex: boolean;
  dotfiles: boolean;
}

export const systemActor: Actor = {
  user: null,
  can: () => true,
  allows: () => true,
  rulesAllow: () => true,
  hasRules: false,
  beneath: () => ({ paths: [], regex: false, dotfiles: false }),
  get fs(): ScopedFs {
    throw new AppError('INTERNAL', 'the system actor has no scope');
  },
};

export interface ActorOptions {
  root: string;
  globalRules: readonly Rule[];
  /** The compiled global+user rules when the caller keeps them (http: once per user and rules version). */
  ruleSet?: RuleSet;
  followExternalSymlinks: boolean;
  sessionId?: string;
  /** The client's address, or how to find it when first asked (the HTTP layer's costs a system call). */
  address?: string | (() => string);
  /** A personal API token's limits: its permissions, folder and read-only apply on top of the owner's. */
  limits?: TokenLimits;
}

/** The rules that apply to a user: the global ones, then the user's own (last match wins). */
export const compileRules = (globalRules: readonly Rule[], user: StoredUser): RuleSet => new RuleSet([...globalRules, ...user.rules]);

/** Builds the actor for a stored user: scope under the server root, global then user rules. */
export function actorFor(user: StoredUser, opts: ActorOptions): Actor {
  const rules = opts.ruleSet ?? compileRules(opts.globalRules, user);
  const limits = opts.limits;
  // A token's folder hides everything that is neither in it nor on the way down to it, as a rule would.
  const reached = limits?.path ? (path: string) => tokenReach(limits, path) !== 'outside' : () => true;
  const dotHidden = (path: string) => (user.hideDotfiles && path.slice(path.lastIndexOf('/') + 1).startsWith('.')) || !reached(path);
  let fs: ScopedFs | null = null;
  const scopeRoot = user.scope === '/' || user.scope === '.' ? opts.root : `${opts.root}${user.scope}`;
  let address = opts.address;
  return {
    user,
    sessionId: opts.sessionId,
    get address() {
      if (typeof address === 'function') address = address();
      return address;
    },
    limits,
    can: (perm) => (!!user.perm.admin || !!user.perm[perm]) && (!limits || tokenPermits(limits, perm)),
    allows: (path) => !dotHidden(path) && rules.allows(path),
    rulesAllow: (path) => reached(path) && rules.allows(path),
    hasRules: !rules.empty || !!limits?.path,
    // Beneath an ancestor of a token's folder, entries off the branch are hidden: every entry must be asked.
    beneath: (path) => ({ ...rules.beneath(path), ...(tokenReach(limits, path) === 'ancestor' ? { regex: true } : {}), dotfiles: user.hideDotfiles }),
    get fs() {
      fs ??= new ScopedFs(scopeRoot, opts.followExternalSymlinks, (p) => !dotHidden(p) && rules.allows(p));
      return fs;
    },
  };
}
