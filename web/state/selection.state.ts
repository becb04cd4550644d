import { proxy, ref } from 'valtio/vanilla';

/** A set kept out of valtio's proxying: replaced on every change, never mutated, so a change is one assignment. */
type Picked = ReturnType<typeof ref<Set<number>>>;

interface SelectionState {
  /**
   * Indexes into the current folder's items (`WebResource.index`), in the order they were picked. One Set for
   * the whole listing, not a flag per item: selecting 100,000 items is one assignment and one render of the
   * rows on screen, and items that are not rendered are selected all the same.
   */
  selected: Picked;
  /** Where a range starts (the last item picked without Shift); ranges run from here to the item reached. */
  anchor: number | null;
  /** The keyboard's position among the items (the item last clicked or reached with the arrow keys). */
  cursor: number | null;
  /** Multiple-selection mode: a plain click adds to the selection instead of replacing it. */
  multiple: boolean;
}

const NONE: Picked = ref(new Set<number>());

/** The listing's selection. */
export const selection = proxy<SelectionState>({ selected: NONE, anchor: null, cursor: null, multiple: false });

const replace = (next: Set<number>) => {
  selection.selected = next.size ? ref(next) : NONE;
};

export function resetSelection(): void {
  if (selection.selected.size) selection.selected = NONE;
  selection.anchor = null;
}

/**
 * After the folder on show was loaded again: the picked items (and the keyboard position) given as new indexes,
 * those that are gone already left out by the caller.
 */
export function restoreSelection(indexes: number[], cursor: number | null): void {
  replace(new Set(indexes));
  selection.anchor = selection.cursor = cursor;
}

/** A route change forgets the selection, the keyboard position and multiple-selection mode (spec §4). */
export function resetSelectionAndMode(): void {
  resetSelection();
  selection.cursor = null;
  selection.multiple = false;
}

export function addSelected(index: number): void {
  selection.anchor = selection.cursor = index;
  if (selection.selected.has(index)) return;
  replace(new Set(selection.selected).add(index));
}

export function removeSelected(index: number): void {
  selection.anchor = selection.cursor = index;
  if (!selection.selected.has(index)) return;
  const next = new Set(selection.selected);
  next.delete(index);
  replace(next);
}

export function selectOnly(index: number): void {
  selection.anchor = selection.cursor = index;
  replace(new Set([index]));
}

/**
 * Every item of a folder of `order.length` items, in the order `order` shows them (a permutation of the indexes
 * 0 to n-1): a Set answered from that order, without an insert per item. Like every selection it is never changed,
 * only replaced (a change copies it into a new Set); changing it throws.
 */
class EveryItem extends Set<number> {
  constructor(private readonly order: ArrayLike<number>) {
    super();
  }
  override has(index: number): boolean {
    return Number.isInteger(index) && index >= 0 && index < this.order.length;
  }
  override get size(): number {
    return this.order.length;
  }
  override values(): SetIterator<number> {
    return Array.prototype.values.call(this.order) as unknown as SetIterator<number>;
  }
  override keys(): SetIterator<number> {
    return this.values();
  }
  override [Symbol.iterator](): SetIterator<number> {
    return this.values();
  }
  override entries(): SetIterator<[number, number]> {
    return Array.prototype.map.call(this.order, (i: number) => [i, i]).values() as unknown as SetIterator<[number, number]>;
  }
  override forEach(fn: (value: number, key: number, set: Set<number>) => void, self?: unknown): void {
    for (let k = 0; k < this.order.length; k++) fn.call(self, this.order[k]!, this.order[k]!, this);
  }
  override add(): this {
    throw new TypeError('a selection is replaced, never changed');
  }
  override delete(): boolean {
    throw new TypeError('a selection is replaced, never changed');
  }
  override clear(): void {
    throw new TypeError('a selection is replaced, never changed');
  }
}

/**
 * Selects everything in `indexes` (Ctrl+A), the items on show in their order, of a folder of `total` items. When
 * they are all of them (no filter hides any), the selection is answered from the order itself (EveryItem: a
 * select-all of 100,000 was ~10-15 ms of inserts alone); else one Set, filled by an indexed loop (a select-all of
 * 100,000 is measured end to end by scripts/bench/ui.bench.ts).
 */
export function selectAll(indexes: ArrayLike<number>, total: number): void {
  if (indexes.length === total) return replace(new EveryItem(indexes));
  const next = new Set<number>();
  for (let k = 0; k < indexes.length; k++) next.add(indexes[k]!);
  replace(next);
}

/** Keeps only the selected items in `shown` (a filter hid the others: no action may reach what is not shown). */
export function keepSelected(shown: ReadonlySet<number>): void {
  const sel = selection.selected;
  if (!sel.size) return;
  const next = new Set<number>();
  for (const i of sel) if (shown.has(i)) next.add(i);
  if (next.size !== sel.size) replace(next);
}

/**
 * Shift-click or Shift+arrow: the items from the anchor to `to`, in the order they are shown (`order`: folders
 * first, then files; `position[index]` is an item's place in it, -1 when hidden). Plain Shift replaces the
 * selection with the range, so moving back shrinks it; with `add` (Ctrl+Shift, multiple mode) the range joins it.
 */
export function selectRange(order: ArrayLike<number>, position: ArrayLike<number>, to: number, add = false): void {
  const anchor = selection.anchor ?? selection.selected.values().next().value;
  selection.cursor = to;
  const a = anchor === undefined ? -1 : (position[anchor] ?? -1);
  const b = position[to] ?? -1;
  if (a < 0 || b < 0) return selectOnly(to);
  const next = add ? new Set(selection.selected) : new Set<number>();
  const [from, until] = a < b ? [a, b] : [b, a];
  for (let k = from; k <= until; k++) next.add(order[k]!);
  selection.anchor = anchor!;
  replace(next);
}

/** Moves the keyboard position without changing the selection (Ctrl+arrow). */
export function moveCursor(index: number): void {
  selection.cursor = index;
}

export function toggleMultiple(): void {
  selection.multiple = !selection.multiple;
}
