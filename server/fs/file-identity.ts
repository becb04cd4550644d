import type { Stats } from 'node:fs';

/**
 * Which file or folder this is, independent of its name: device and inode. A share pins the identity of what it
 * shared, so something else written later at the same path (outside the server) is never served by an old link.
 */
export function identityOf(st: Pick<Stats, 'dev' | 'ino'>): string {
  return `${st.dev}:${st.ino}`;
}
