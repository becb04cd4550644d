import { join } from 'node:path';
import { baseName, parentOf } from '../../fs/virtual-path';
import { realRootOf, rootRelative } from '../../fs/versions-fs';
import type { Actor } from '../actor';

/**
 * Where a lock lives: the key of a resource is its place relative to the files root ('/', '/alice/a.txt'), not a
 * user's virtual path, so the locks of users whose scopes overlap meet on the same file. Its folder is resolved
 * (links included), its own name kept, like the entry a MOVE or DELETE acts on. A place outside the files root
 * (a link followed out with followExternalSymlinks) is keyed by its real path behind '@'.
 */
export class DavLockKeys {
  private realRootCache: string | null = null;

  constructor(private readonly root: string) {}

  private get realRoot(): string {
    return (this.realRootCache ??= realRootOf(this.root));
  }

  /** The key of a virtual path of the actor's scope (it need not exist); throws as the scope does (403, 404). */
  async of(actor: Actor, path: string): Promise<string> {
    const real = path === '/' ? await actor.fs.real('/') : join(await actor.fs.real(parentOf(path)), baseName(path));
    return this.ofReal(real);
  }

  /** The key of a real location (what the files service tells its followers). */
  ofReal(real: string): string {
    if (real === this.realRoot) return '/';
    const rel = rootRelative(this.realRoot, real);
    return rel === null ? `@${real}` : `/${rel}`;
  }
}

/** The keys of a key's ancestors, nearest first ('/a/b' → '/a', '/'; '@/x/y' → '@/x', '@/'). */
export function ancestorKeys(key: string): string[] {
  const base = key.startsWith('@') ? '@' : '';
  let p = key.slice(base.length);
  const out: string[] = [];
  while (p !== '/' && p !== '') {
    p = p.slice(0, p.lastIndexOf('/')) || '/';
    out.push(base + p);
  }
  return out;
}

/** Whether a lock rooted at `root` with `depth` covers the resource at `key`. */
export const covers = (lock: { root: string; depth: string }, key: string): boolean =>
  lock.root === key || (lock.depth === 'infinity' && (lock.root.endsWith('/') ? key.startsWith(lock.root) : key.startsWith(`${lock.root}/`)));

/**
 * The virtual path a viewer at `path` (whose key is `key`) sees for a lock rooted at `lockRoot`, one of the
 * key's ancestors or the key itself: as many segments up from `path`; the scope's root when it lies above it.
 */
export function viewedRoot(path: string, key: string, lockRoot: string): string {
  const segs = (k: string) => k.replace(/^@/, '').split('/').filter(Boolean).length;
  let up = segs(key) - segs(lockRoot);
  let p = path;
  while (up-- > 0 && p !== '/') p = parentOf(p);
  return p;
}
