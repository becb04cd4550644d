import type { Stats } from 'node:fs';

/**
 * Which file or folder this is, independent of its name: device, inode and birth time. Inode numbers are reused
 * at once after a delete (ext4, tmpfs), so the birth time (statx) tells a new item from the one it replaced; on
 * filesystems without birth times it is 0 and the inode alone counts. A share pins the identity of what it
 * shared, so something else written later at the same path (outside the server) is never served by an old link.
 */
export function identityOf(st: Pick<Stats, 'dev' | 'ino' | 'birthtimeMs'>): string {
  return `${st.dev}:${st.ino}:${Math.round(st.birthtimeMs * 1000)}`;
}
