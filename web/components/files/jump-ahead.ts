import { files, seekPlaces } from '../../state/files.state';
import { orderCollator } from './type-to-jump';

/**
 * Type-to-jump in a big folder that is still arriving, sorted by name: the names starting with `prefix` may lie
 * where nothing has arrived yet. Each section (folders, then files: the server orders them apart) is halved down
 * to where such names begin (files.state.ts seekPlaces; some 8 ranges of 512 places at 100,000), so that the
 * caller's search over the places then finds them. False when the folder is not sorted by name or is complete.
 */
export async function seekNames(prefix: string, lang: string): Promise<boolean> {
  const folder = files.resource;
  const total = folder?.slots?.length ?? 0;
  if (!folder || !total || folder.sorting?.by !== 'name') return false;
  const collator = orderCollator(lang);
  // The reference's inversion for names: asc=false is A to Z (server/services/files/folder-listing.ts).
  const sign = folder.sorting.asc ? -1 : 1;
  // A name sorts before the sought ones when its first characters do: monotonic over a folder ordered by name.
  const before = (name: string) => sign * collator.compare(name.slice(0, prefix.length), prefix) < 0;
  const dirs = Math.min(total, folder.numDirs ?? 0);
  const found = await Promise.all([dirs > 0 ? seekPlaces(0, dirs, before) : null, seekPlaces(dirs, total, before)]);
  return found.some((p) => p !== null);
}
