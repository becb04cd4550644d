import { lstat, readlink } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import { lstatSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { AppError, forbidden } from '../core/errors';
import { wrapFs } from './fs-errors';
import { refuseReserved } from './reserved-names';
import { holdsStatePath, isStatePath } from './state-paths';
import { inTrash } from './trash-fs';
import { parentOf } from './virtual-path';

const MAX_HOPS = 40;

/** Whether `real` is `root` or lies beneath it (both canonical absolute paths; a sibling like /a/bc is not in /a/b). */
export function inside(real: string, root: string): boolean {
  return real === root || real.startsWith(root.endsWith(sep) ? root : root + sep);
}

/**
 * Resolves a path to its real location even when the last components do not exist yet or a symlink dangles:
 * existing prefixes go through realpath, a dangling link is followed hop by hop (each hop resolved the same way).
 */
export async function realLocation(p: string, hops = 0): Promise<string> {
  if (hops > MAX_HOPS) throw new AppError('FORBIDDEN', 'too many symbolic links');
  try {
    // Synchronous on purpose, like classify(): one path's resolution costs less than the thread-pool round trip of
    // the async form, and every request resolves its path at least once (issue 15 item 5).
    return realpathSync(p);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'ENOTDIR') throw e;
  }
  const parent = dirname(p);
  if (parent === p) return p;
  const realParent = await realLocation(parent, hops + 1);
  const candidate = join(realParent, basename(p));
  let st: Stats;
  try {
    st = await lstat(candidate);
  } catch {
    return candidate; // truly missing: its real location is under the real parent
  }
  if (st.isSymbolicLink()) return realLocation(resolve(realParent, await readlink(candidate)), hops + 1);
  return candidate;
}

/** How long the real location of a scope root is reused: every request builds its actor's ScopedFs. */
const ROOT_TTL_MS = 1000;
const realRoots = new Map<string, { real: string; at: number }>();

/**
 * The real location of a scope root, resolved at most once a second per root. A root re-pointed meanwhile (a link
 * swapped by the admin) fails closed until then: paths resolve under the new target, outside the old real root.
 */
function realRootOf(root: string): string {
  const now = Date.now();
  const hit = realRoots.get(root);
  if (hit && now - hit.at < ROOT_TTL_MS) return hit.real;
  let real: string;
  try {
    real = realpathSync(root);
  } catch {
    realRoots.delete(root);
    throw new AppError('NOT_FOUND', 'scope folder does not exist');
  }
  if (realRoots.size >= 10_000) realRoots.clear();
  realRoots.set(root, { real, at: now });
  return real;
}

/** What a long operation (a job) learns from a scope: each file copied (bytes, virtual path) and each temp made (real path). */
export interface FsObserver {
  signal?: AbortSignal;
  copied?(bytes: number, vpath: string): void;
  temp?(real: string): void;
  /**
   * The keeper of what a write replaces: told right before an existing file at `vpath` (real location `real`) is
   * overwritten (upload or save over it, a copy or move landing on it), so it can keep the old one (the trash) and
   * record the replacement; the callback it returns hears whether the overwrite happened.
   */
  replacing?(vpath: string, real: string): Promise<(done: boolean) => Promise<void>>;
}

/**
 * The base of ScopedFs (server/fs/scoped-fs.ts): the scope's root and options, and the one place a virtual path
 * becomes a real location. Every check of the scope, the trash and the rules at a link's target lives here; the
 * layers above (reads, listing, writes, copy and move) only call it.
 */
export class ScopePaths {
  readonly root: string;
  readonly realRoot: string;

  /**
   * @param guard the owner's access rules on virtual paths. Checked again on the path a symlink really leads to,
   *   so an in-scope link can never open what the rules deny at its target.
   */
  constructor(root: string, protected readonly followExternalSymlinks = false, protected readonly guard?: (vpath: string) => boolean, protected readonly observer?: FsObserver) {
    this.root = resolve(root);
    this.realRoot = realRootOf(this.root);
  }

  protected lexical(vpath: string): string {
    const disk = vpath === '/' ? this.root : join(this.root, ...vpath.slice(1).split('/'));
    if (!inside(disk, this.root)) throw forbidden(); // defence in depth: canonical paths never get here
    return disk;
  }

  /** The virtual path of a real location inside this scope (null outside it). */
  virtualOf(real: string): string | null {
    if (!inside(real, this.realRoot)) return null;
    return real === this.realRoot ? '/' : real.slice(this.realRoot.length).replace(/^\/?/, '/');
  }

  /** True when a link's real target is allowed by the rules (or when it is the path itself). */
  protected targetAllowed(real: string, vpath?: string): boolean {
    if (!this.guard) return true;
    const v = this.virtualOf(real);
    return v === null || v === vpath || this.guard(v);
  }

  /**
   * Real location of a path (existing or not); throws FORBIDDEN when it would leave the scope, or when it goes
   * through a link to something the rules deny.
   */
  async real(vpath: string): Promise<string> {
    const disk = this.lexical(vpath);
    // The trash is no scope's: nothing inside it is reachable by a path, a link or a scope set inside it.
    if (inTrash(disk) || isStatePath(disk)) throw new AppError('NOT_FOUND');
    if (this.followExternalSymlinks) {
      // Links are followed anywhere, but never to the trash or a state file, nor (inside the scope) to what the
      // rules deny where the link really leads.
      const to = await realLocation(disk).catch(() => disk);
      if (inTrash(to) || isStatePath(to)) throw new AppError('NOT_FOUND');
      if (!this.targetAllowed(to, vpath)) throw forbidden();
      return disk;
    }
    return this.checkResolved(await wrapFs(() => realLocation(disk)), vpath);
  }

  /**
   * Real location of a path about to be written (made, placed, renamed to, restored to): real() plus the one check
   * of reserved names (fs/reserved-names.ts), so no write of any kind can take one of the server's own names.
   */
  async destination(vpath: string): Promise<string> {
    const real = await this.real(vpath); // the trash and state files answer 404 first, as for any path
    refuseReserved(vpath);
    return real;
  }

  /**
   * The checks every resolved location of `vpath` passes, however it was resolved (realpath, or the kernel's name
   * for an open descriptor): not in the trash nor a state file (the database, config, cache), inside the scope,
   * allowed by the rules where a link leads. Returns it.
   */
  protected checkResolved(real: string, vpath: string): string {
    if (inTrash(real) || isStatePath(real)) throw new AppError('NOT_FOUND');
    if (!inside(real, this.realRoot)) throw forbidden();
    if (!this.targetAllowed(real, vpath)) throw forbidden();
    return real;
  }

  /**
   * Real location of the entry itself (its folder resolved, its own name kept): for a symlink, the link, not what
   * it points to. What moves or disappears when this path is moved or removed.
   */
  async entryReal(vpath: string): Promise<string> {
    if (vpath === '/') return this.real(vpath);
    const real = await this.real(vpath); // the scope and rule checks on the path as given
    const entry = join(await this.real(parentOf(vpath)), basename(this.lexical(vpath)));
    // A folder holding the server's state files (database, config, cache) never moves nor goes away with them.
    if (holdsStatePath(real) || holdsStatePath(entry)) throw forbidden('this folder holds the server\'s own files (its database, config or cache): an admin must move them out of the files root first');
    return entry;
  }

  /** Disk path for a canonical virtual path, after the scope check. */
  async resolve(vpath: string): Promise<string> {
    await this.real(vpath);
    return this.lexical(vpath);
  }

  /** Stats of the target (a symlink is described by its target) and whether the path itself is a link. */
  async stat(vpath: string): Promise<{ real: string; stats: Stats; isSymlink: boolean }> {
    const real = await this.real(vpath);
    // Synchronous like classify(): one or two stat calls cost less than the thread-pool round trip of each.
    return wrapFs(async () => {
      const l = lstatSync(this.lexical(vpath));
      return { real, stats: l.isSymbolicLink() ? statSync(real) : l, isSymlink: l.isSymbolicLink() };
    });
  }

  /** True when something exists at the path (a broken in-scope link counts as existing). */
  async exists(vpath: string): Promise<boolean> {
    try {
      await lstat(await this.real(vpath));
      return true;
    } catch (e) {
      if (e instanceof AppError && e.code === 'FORBIDDEN') throw e;
      return false;
    }
  }

  /**
   * Whether a listing or walk shows a symlink whose target resolved to `real`: links leaving the scope (unless
   * followExternalSymlinks), links into the trash and links to what the rules deny are omitted.
   */
  protected linkShown(real: string): boolean {
    return (this.followExternalSymlinks || inside(real, this.realRoot)) && !inTrash(real) && !isStatePath(real) && this.targetAllowed(real);
  }

  /** The trash, state-file and scope checks on a real location this scope already produced (a stat or listing result). */
  protected checkReal(real: string): void {
    if (inTrash(real) || isStatePath(real)) throw new AppError('NOT_FOUND');
    if (!this.followExternalSymlinks && !inside(real, this.realRoot)) throw forbidden();
  }
}
