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

/**
 * A key whose plain string order is the natural, case-insensitive order: digit runs are zero-padded to a fixed
 * width, so "file2" sorts before "file10". Comparing precomputed keys natively is several times faster than a
 * comparator doing the work on every comparison (a 10,000-item folder sorts in a few ms).
 */
export function naturalKey(name: string): string {
  return name.toLowerCase().replace(/\d+/g, (run) => {
    const digits = run.replace(/^0+/, '') || '0';
    return digits.length >= 20 ? digits : digits.padStart(20, '0');
  });
}

/**
 * Folders first, then by the user's sorting. As in the reference, the name order is inverted: asc=false means
 * A to Z (natural, case-insensitive). Size and modified sort in the intuitive direction.
 */
export function sortItems(items: Resource[], by: string, asc: boolean): void {
  const keyed = items.map((item) => ({ item, key: naturalKey(item.name) }));
  type K = (typeof keyed)[number];
  const byName = (a: K, b: K) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.item.name < b.item.name ? -1 : a.item.name > b.item.name ? 1 : 0);
  const cmp =
    by === 'size' ? (a: K, b: K) => a.item.size - b.item.size || byName(a, b)
    : by === 'modified' ? (a: K, b: K) => (a.item.modified < b.item.modified ? -1 : a.item.modified > b.item.modified ? 1 : byName(a, b))
    : byName;
  const dir = by === 'size' || by === 'modified' ? (asc ? 1 : -1) : asc ? -1 : 1;
  keyed.sort((a, b) => (a.item.isDir !== b.item.isDir ? (a.item.isDir ? -1 : 1) : dir * cmp(a, b)));
  for (let i = 0; i < keyed.length; i++) items[i] = keyed[i]!.item;
}
