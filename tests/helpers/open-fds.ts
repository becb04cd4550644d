import { readdirSync, readlinkSync } from 'node:fs';

/**
 * How many descriptors this process holds open on anything under `dir` (a test's own folder): a leaked folder or
 * file descriptor shows here, while descriptors that other threads and earlier test files of the same process open
 * and close meanwhile (worker threads starting and ending, other apps) do not.
 */
export function openFdsUnder(dir: string): number {
  return readdirSync('/proc/self/fd').filter((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`).startsWith(dir);
    } catch {
      return false; // closed while we looked
    }
  }).length;
}
