import type { WebResource } from '../api/resources';
import { countTree } from '../api/tree-count';

/** More items than this selected at once: the operation runs as a background job. */
export const JOB_ITEMS = 200;
/** A selected folder holding more entries than this (counted with this cap) makes the operation a job. */
export const JOB_TREE_ENTRIES = 500;
/** A selected folder bigger than this (its folderSize from the name index, when the listing has it) makes it a job. */
export const JOB_FOLDER_BYTES = 100 * 1024 * 1024;

type Sized = Pick<WebResource, 'path' | 'isDir' | 'folderSize'>;

/**
 * Whether a copy, move or delete of these items is big enough to run as a background job (with progress, surviving a
 * closed tab) rather than inside one request. Decided from what the listing knows first; a folder without a known
 * size is counted through the tree route, stopping as soon as the cap is passed. A count that fails says "small":
 * the instant path then reports the real error.
 */
export async function wantsJob(items: readonly Sized[]): Promise<boolean> {
  if (items.length > JOB_ITEMS) return true;
  const dirs = items.filter((i) => i.isDir);
  if (dirs.some((d) => (d.folderSize ?? 0) > JOB_FOLDER_BYTES)) return true;
  let budget = JOB_TREE_ENTRIES;
  for (const d of dirs) {
    const n = await countTree(d.path, budget).catch(() => 0);
    budget -= n;
    if (budget < 0) return true;
  }
  return false;
}
