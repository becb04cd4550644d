import { realpathSync } from 'node:fs';
import { basename, dirname, join, resolve, sep } from 'node:path';

/**
 * The server's state files: the SQLite database with its journals, the config file, the cache folder. When an
 * admin places one of them inside the files root (or inside a user's scope), no scope may list, read, search,
 * archive, share or write it: reading the database means reading the signing key and every session. Registered
 * once at start by the composition root (createServices); ScopedFs asks isStatePath() on every resolved location
 * (`ScopePaths.checkResolved`) and hides the names from listings and walks (`stateNamesIn`).
 *
 * Process-wide on purpose: a path protected for one instance is protected for every scope of the process (tests
 * run several instances in one process; hiding more never leaks anything).
 */
const protectedPaths: string[] = [];
/** Real folder -> names in it that are state files (listings filter by name, one lookup per folder). */
const namesByFolder = new Map<string, Set<string>>();

/** The real location of a path that may not exist yet: its longest existing prefix resolved, the rest kept. */
function realOrPlanned(p: string): string {
  const abs = resolve(p);
  try {
    return realpathSync(abs);
  } catch {
    const parent = dirname(abs);
    return parent === abs ? abs : join(realOrPlanned(parent), basename(abs));
  }
}

/** Protects these absolute paths (files or folders; missing ones too) from every scope, as written and as resolved. */
export function protectStatePaths(paths: readonly string[]): void {
  for (const p of paths) {
    if (!p) continue;
    for (const form of new Set([resolve(p), realOrPlanned(p)])) {
      if (form === sep || protectedPaths.includes(form)) continue;
      protectedPaths.push(form);
      const dir = dirname(form);
      let names = namesByFolder.get(dir);
      if (!names) namesByFolder.set(dir, (names = new Set()));
      names.add(basename(form));
    }
  }
}

/** Whether a real location is a state file or lies inside a state folder (the cache). */
export function isStatePath(real: string): boolean {
  for (const p of protectedPaths) if (real === p || (real.startsWith(p) && real[p.length] === sep)) return true;
  return false;
}

/** Whether the real folder `real` holds a state file somewhere beneath it (it may not be moved or deleted then). */
export function holdsStatePath(real: string): boolean {
  const prefix = real.endsWith(sep) ? real : real + sep;
  for (const p of protectedPaths) if (p.startsWith(prefix)) return true;
  return false;
}

/** Names of state files in the real folder `dirReal` (undefined when it holds none: the common case, one lookup). */
export function stateNamesIn(dirReal: string): ReadonlySet<string> | undefined {
  if (namesByFolder.size === 0) return undefined;
  return namesByFolder.get(dirReal.length > 1 && dirReal.endsWith(sep) ? dirReal.slice(0, -1) : dirReal);
}

/** The protected paths (for `filedeck doctor` and tests). */
export function statePathsProtected(): readonly string[] {
  return protectedPaths;
}
