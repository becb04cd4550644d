import type { WebResource } from '../../api/resources';

/** The items on show, in the order they are shown: folders first, then files, each in the server's order. */
export interface ShownOrder {
  /** Item indexes, folders then files. */
  order: Int32Array;
  /** How many of `order` are folders (they come first). */
  dirs: number;
  /** position[itemIndex] = place in `order`, or -1 when the filter hides the item. */
  position: Int32Array;
}

/**
 * A listing's places: its items, or while a big folder arrives every place of it, undefined where the item has not
 * arrived (WebResource.slots).
 */
export type ListingPlaces = readonly (WebResource | undefined)[];

/** Names lower-cased once per listing, so that each keystroke in the filter is one pass of `includes`. */
const lowered = new WeakMap<ListingPlaces, (string | undefined)[]>();

function lowerNames(items: ListingPlaces): (string | undefined)[] {
  let names = lowered.get(items);
  if (!names) {
    names = items.map((i) => i?.name.toLowerCase());
    lowered.set(items, names);
  }
  return names;
}

let last: { items: ListingPlaces; filter: string; shown: ShownOrder } | null = null;

/**
 * The order of `items` with `filter` applied (a case-insensitive substring of the name). The last answer is
 * kept, so the screen (keys, Ctrl+A) and the listing share one computation. Typed arrays: 100,000 items cost
 * a few milliseconds and no garbage per item. A place whose item has not arrived is shown (as a placeholder) unless
 * a filter is on; it is a folder when it lies within the first `numDirs` places (the server lists folders first).
 */
export function shownOrder(items: ListingPlaces, filter: string, numDirs = 0): ShownOrder {
  if (last && last.items === items && last.filter === filter) return last.shown;
  const n = items.length;
  const needle = filter.toLowerCase();
  const names = needle ? lowerNames(items) : null;
  const order = new Int32Array(n);
  const position = new Int32Array(n).fill(-1);
  let k = 0;
  // Two passes keep folders first even where the server's order mixes them (it does not today).
  const pass = (wantDir: boolean) => {
    for (let i = 0; i < n; i++) {
      const item = items[i];
      if ((item ? item.isDir : i < numDirs) !== wantDir) continue;
      if (names && !names[i]?.includes(needle)) continue;
      position[i] = k;
      order[k++] = i;
    }
  };
  pass(true);
  const dirs = k;
  pass(false);
  const shown = { order: order.subarray(0, k), dirs, position };
  last = { items, filter, shown };
  return shown;
}
