import type { EntryInfo } from '../../fs/entry-stats';
import type { Resource } from '../../contract/resource';
import { naturalKey } from './natural-key';

const S_IFMT = 0o170000;
const S_IFDIR = 0o040000;
const S_IFIFO = 0o010000;
const S_IFSOCK = 0o140000;
const S_IFBLK = 0o060000;
const S_IFCHR = 0o020000;

/** POSIX mode -> Go os.FileMode bits, as the reference's clients expect in `mode` (bit arithmetic: hot path). */
export function goMode(st: { mode: number }, isSymlink: boolean): number {
  const mode = st.mode;
  const type = mode & S_IFMT;
  let m = mode & 0o777;
  if (type === S_IFDIR) m |= 2 ** 31;
  else if (type === S_IFIFO) m |= 2 ** 25;
  else if (type === S_IFSOCK) m |= 2 ** 24;
  else if (type === S_IFBLK) m |= 2 ** 26;
  else if (type === S_IFCHR) m |= 2 ** 26 | 2 ** 21;
  if (isSymlink) m |= 2 ** 27;
  if (mode & 0o4000) m |= 2 ** 23;
  if (mode & 0o2000) m |= 2 ** 22;
  if (mode & 0o1000) m |= 2 ** 20;
  return m >>> 0;
}

/** The extension as Go's filepath.Ext: from the last dot of the name, dot included. */
export function extensionOf(name: string): string {
  const i = name.lastIndexOf('.');
  return i >= 0 ? name.slice(i) : '';
}

/** Up to year 9999 the ISO text has the plain form; past it (and before 1970) Date formats it. */
const PLAIN_ISO_END = 253402300800000;
const HOUR_MS = 3_600_000;
/** "YYYY-MM-DDTHH:" of recent hours: a folder's files mostly share a few, and a Date per entry costs ~0.4 µs. */
const hours = new Map<number, string>();
const pad2 = (n: number) => (n < 10 ? `0${n}` : `${n}`);

/** Exactly `new Date(ms).toISOString()` (a listing's `modified`), with the date and hour part memoised per hour. */
export function isoTime(ms: number): string {
  const t = Math.trunc(ms); // a Date keeps whole milliseconds, truncated toward zero
  if (!(t >= 0 && t < PLAIN_ISO_END)) return new Date(ms).toISOString();
  const hour = Math.floor(t / HOUR_MS);
  let head = hours.get(hour);
  if (head === undefined) {
    head = new Date(hour * HOUR_MS).toISOString().slice(0, 14);
    if (hours.size >= 4096) hours.clear();
    hours.set(hour, head);
  }
  const inHour = t - hour * HOUR_MS;
  const millis = inHour % 1000;
  return `${head}${pad2(Math.floor(inHour / 60_000))}:${pad2(Math.floor(inHour / 1000) % 60)}.${millis < 10 ? '00' : millis < 100 ? '0' : ''}${millis}Z`;
}

/** The common fields of a file or folder (type is filled in by the caller). */
export function describe(path: string, name: string, st: EntryInfo, isSymlink: boolean): Resource {
  return {
    path,
    name,
    size: st.size,
    extension: extensionOf(name),
    modified: isoTime(st.mtimeMs), // as node's st.mtime (built from mtimeMs).toISOString(), without the Stats
    mode: goMode(st, isSymlink),
    isDir: (st.mode & S_IFMT) === S_IFDIR,
    isSymlink,
    type: '',
  };
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
