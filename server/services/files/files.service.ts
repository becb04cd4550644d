import { extname } from 'node:path';
import type { Stats } from 'node:fs';
import type { Resource } from '../../contract/resource';
import { forbidden } from '../../core/errors';
import { baseName, joinVirtual } from '../../fs/virtual-path';
import type { Actor } from '../actor';
import { typeByExtension } from './detect-type';

function describe(path: string, name: string, st: Stats, isSymlink: boolean, broken: boolean): Resource {
  const isDir = !broken && st.isDirectory();
  const extension = isDir ? '' : extname(name);
  return {
    path,
    name,
    size: st.size,
    extension,
    modified: st.mtime.toISOString(),
    mode: st.mode,
    isDir,
    isSymlink,
    type: broken ? 'invalid_link' : isDir ? '' : typeByExtension(extension),
  };
}

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

/** Reading files and folders inside the actor's scope, under its rules. */
export class FilesService {
  /** A file's description, or a folder with its allowed children sorted as the user prefers. */
  async get(actor: Actor, path: string): Promise<Resource> {
    if (!actor.allows(path)) throw forbidden();
    const { stats, isSymlink } = await actor.fs.stat(path);
    const res = describe(path, baseName(path), stats, isSymlink, false);
    if (!res.isDir) return res;
    const entries = await actor.fs.list(path);
    const items = entries
      .map((e) => describe(joinVirtual(path, e.name), e.name, e.stats, e.isSymlink, e.broken))
      .filter((r) => actor.allows(r.path));
    const sorting = actor.user?.sorting ?? { by: 'name', asc: false };
    sortItems(items, sorting.by || 'name', sorting.asc);
    return { ...res, items, numDirs: items.filter((i) => i.isDir).length, numFiles: items.filter((i) => !i.isDir).length, sorting: { by: sorting.by || 'name', asc: sorting.asc } };
  }
}

/** Folders first. As in the reference, name order is inverted: asc=false means A to Z. */
export function sortItems(items: Resource[], by: string, asc: boolean): void {
  const cmp =
    by === 'size' ? (a: Resource, b: Resource) => a.size - b.size
    : by === 'modified' ? (a: Resource, b: Resource) => Date.parse(a.modified) - Date.parse(b.modified)
    : (a: Resource, b: Resource) => collator.compare(a.name, b.name);
  const dir = by === 'name' ? (asc ? -1 : 1) : asc ? 1 : -1;
  items.sort((a, b) => (a.isDir !== b.isDir ? (a.isDir ? -1 : 1) : dir * cmp(a, b)));
}

