import type { Stats } from 'node:fs';
import type { Resource } from '../../contract/resource';

/** POSIX mode -> Go os.FileMode bits, as the reference's clients expect in `mode`. */
export function goMode(st: Stats, isSymlink: boolean): number {
  let m = st.mode & 0o777;
  if (st.isDirectory()) m |= 2 ** 31;
  if (isSymlink) m |= 2 ** 27;
  if (st.isFIFO()) m |= 2 ** 25;
  if (st.isSocket()) m |= 2 ** 24;
  if (st.isBlockDevice()) m |= 2 ** 26;
  if (st.isCharacterDevice()) m |= 2 ** 26 | 2 ** 21;
  if (st.mode & 0o4000) m |= 2 ** 23;
  if (st.mode & 0o2000) m |= 2 ** 22;
  if (st.mode & 0o1000) m |= 2 ** 20;
  return m >>> 0;
}

/** The extension as Go's filepath.Ext: from the last dot of the name, dot included. */
export function extensionOf(name: string): string {
  const i = name.lastIndexOf('.');
  return i >= 0 ? name.slice(i) : '';
}

/** The common fields of a file or folder (type is filled in by the caller). */
export function describe(path: string, name: string, st: Stats, isSymlink: boolean): Resource {
  return {
    path,
    name,
    size: st.size,
    extension: extensionOf(name),
    modified: st.mtime.toISOString(),
    mode: goMode(st, isSymlink),
    isDir: st.isDirectory(),
    isSymlink,
    type: '',
  };
}

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

/**
 * Folders first, then by the user's sorting. As in the reference, the name order is inverted: asc=false means
 * A to Z (natural, case-insensitive). Size and modified sort in the intuitive direction.
 */
export function sortItems(items: Resource[], by: string, asc: boolean): void {
  const cmp =
    by === 'size' ? (a: Resource, b: Resource) => a.size - b.size
    : by === 'modified' ? (a: Resource, b: Resource) => Date.parse(a.modified) - Date.parse(b.modified)
    : (a: Resource, b: Resource) => collator.compare(a.name, b.name) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  const dir = by === 'size' || by === 'modified' ? (asc ? 1 : -1) : asc ? -1 : 1;
  items.sort((a, b) => (a.isDir !== b.isDir ? (a.isDir ? -1 : 1) : dir * cmp(a, b)));
}
