import type { Actor, Beneath } from '../actor';

/** The rule checks of a scope made of one folder of an owner's scope (a public folder share), in its own paths. */
export type FolderScopeRules = Pick<Actor, 'allows' | 'rulesAllow' | 'beneath'>;

/**
 * The owner's rules for a scope rooted at the owner's folder `base` (virtual, in the owner's scope), whose real
 * location is at `realBase` in the owner's scope when `base` was reached through a link (ScopedFs.realPathOf),
 * undefined otherwise. A path `p` of the folder scope is the owner's `base + p` and, when the folder is really
 * elsewhere, also `realBase + p`: every check asks the owner's rules at both (as policy/file-policy.ts visible()
 * does for an entry reached through a link), so a share of `/l` (a link to `/a`) never shows what a rule on
 * `/a/...` denies. `beneath` gives the rule paths below either location, in the folder scope's paths.
 */
export function folderScopeRules(owner: Actor, base: string, realBase?: string): FolderScopeRules {
  const under = (at: string) => (p: string) => (p === '/' ? at : at === '/' ? p : at + p);
  const inOwner = under(base);
  const inReal = realBase === undefined || realBase === base ? null : under(realBase);
  const back = (at: string) => (q: string) => (at === '/' ? q : q.slice(at.length) || '/');
  return {
    allows: (p) => owner.allows(inOwner(p)) && (!inReal || owner.allows(inReal(p))),
    rulesAllow: (p) => owner.rulesAllow(inOwner(p)) && (!inReal || owner.rulesAllow(inReal(p))),
    beneath: (p): Beneath => {
      const b = owner.beneath(inOwner(p));
      const paths = b.paths.map(back(base));
      if (!inReal) return { ...b, paths };
      const r = owner.beneath(inReal(p));
      for (const q of r.paths.map(back(realBase!))) if (!paths.includes(q)) paths.push(q);
      return { ...b, regex: b.regex || r.regex, paths };
    },
  };
}
