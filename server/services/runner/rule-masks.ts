import { lstatSync, realpathSync, type Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { AppError } from '../../core/errors';
import { isOwnName } from '../../fs/index-walk';
import { inside } from '../../fs/scoped-fs';
import type { Actor } from '../actor';

/**
 * One change of visibility inside the sandbox, in bwrap's order: `hide` covers a real path (an empty tmpfs over a
 * folder, /dev/null over anything else); `!hide` binds the real path back over a hidden one (a later rule allows
 * something beneath a denied folder).
 */
export interface RuleMask {
  path: string;
  dir: boolean;
  hide: boolean;
}

/** How far the scope is walked to expand regex rules, per command: entries looked at and milliseconds. */
export const MASK_WALK_BOUND = { entries: 20_000, ms: 1500 };

/** The refusal when regex rules cover more of the scope than the walk may look at. */
export const RULES_TOO_WIDE =
  'Commands are off for your account: your access rules include patterns (regular expressions) over a folder too large for the command sandbox to apply them. Ask an administrator to use path rules instead.';

/**
 * What the sandbox must hide of `scope` (the actor's real scope root, bound at its own path) so that a command
 * sees no more than the API shows: the real location of every entry the rules deny where its parent is allowed,
 * and the real location of every entry allowed again beneath a denied one. The rules alone decide, exactly as
 * they decide for the API (actor.rulesAllow; dotfile hiding is a display preference and is not masked).
 *
 * - Path rules only: one realpath per rule path; a rule path that does not exist, leaves the scope or is reached
 *   through a link (its data is then shown by the API at its real path unless a rule denies that path too, which
 *   is masked in its own right) needs no mask.
 * - Any regex rule: the scope is walked (links are not followed: what they lead to is walked at its real place),
 *   every entry asked, bounded by MASK_WALK_BOUND; past it the command is refused with RULES_TOO_WIDE, never run
 *   with rules it could not apply.
 */
export async function ruleMasks(actor: Actor, scope: string, bound = MASK_WALK_BOUND): Promise<RuleMask[]> {
  if (!actor.hasRules) return [];
  const { paths, regex } = actor.beneath('/');
  return regex ? walkedMasks(actor, scope, bound) : pathMasks(actor, scope, paths);
}

const depth = (p: string) => p.split('/').length;

function pathMasks(actor: Actor, scope: string, rulePaths: string[]): RuleMask[] {
  // Without regexes a path shares the answer of its deepest rule path (rules.ts RuleSet.beneath): walking the rule
  // paths shallow first, a mask goes wherever the answer changes from the nearest rule path above.
  const sorted = [...rulePaths].sort((a, b) => depth(a) - depth(b) || (a < b ? -1 : 1));
  const answer = new Map<string, boolean>([['/', actor.rulesAllow('/')]]);
  const out: RuleMask[] = [];
  if (!answer.get('/')) out.push({ path: scope, dir: true, hide: true });
  for (const p of sorted) {
    const allowed = actor.rulesAllow(p);
    answer.set(p, allowed);
    let above = p;
    let parent: boolean | undefined;
    while (parent === undefined) {
      above = above.slice(0, above.lastIndexOf('/')) || '/';
      parent = answer.get(above);
    }
    if (allowed === parent) continue;
    const lexical = scope === '/' ? p : scope + p;
    let real: string;
    try {
      real = realpathSync(lexical);
    } catch {
      continue; // nothing there to hide or show
    }
    if (real !== lexical || !inside(real, scope)) continue;
    const st = lstatSync(real, { throwIfNoEntry: false });
    if (st) out.push({ path: real, dir: st.isDirectory(), hide: !allowed });
  }
  return out;
}

async function walkedMasks(actor: Actor, scope: string, bound: typeof MASK_WALK_BOUND): Promise<RuleMask[]> {
  const out: RuleMask[] = [];
  const top = actor.rulesAllow('/');
  if (!top) out.push({ path: scope, dir: true, hide: true });
  const deadline = performance.now() + bound.ms;
  let seen = 0;
  const stack: { v: string; real: string; allowed: boolean }[] = [{ v: '/', real: scope, allowed: top }];
  while (stack.length) {
    const { v, real, allowed } = stack.pop()!;
    let entries: Dirent[];
    try {
      entries = await readdir(real, { withFileTypes: true });
    } catch {
      continue; // gone or unreadable: nothing the command could read either
    }
    seen += entries.length;
    if (seen > bound.entries || performance.now() > deadline) throw new AppError('FORBIDDEN', RULES_TOO_WIDE);
    for (const d of entries) {
      const childV = v === '/' ? `/${d.name}` : `${v}/${d.name}`;
      const childReal = `${real === '/' ? '' : real}/${d.name}`;
      const ok = actor.rulesAllow(childV);
      const isDir = d.isDirectory();
      if (ok !== allowed) out.push({ path: childReal, dir: isDir, hide: !ok });
      // Every folder is entered, denied or not: a later rule may allow something inside it. Our own folders (the
      // trash, caches) are masked whole by the sandbox's hidden paths and not walked.
      if (isDir && !isOwnName(d.name)) stack.push({ v: childV, real: childReal, allowed: ok });
    }
  }
  // Parents before children, so a folder's mask never covers the mount made for something inside it.
  return out.sort((a, b) => depth(a.path) - depth(b.path));
}
