import { proxy } from 'valtio/vanilla';

interface SelectionState {
  /** Indexes into the current folder's items, in the order they were picked. */
  selected: number[];
  /** Multiple-selection mode: a plain click adds to the selection instead of replacing it. */
  multiple: boolean;
}

/** The listing's selection. */
export const selection = proxy<SelectionState>({ selected: [], multiple: false });

export function resetSelection(): void {
  if (selection.selected.length) selection.selected = [];
}

/** A route change forgets the selection and leaves multiple-selection mode (spec §4). */
export function resetSelectionAndMode(): void {
  resetSelection();
  selection.multiple = false;
}

export function addSelected(index: number): void {
  if (!selection.selected.includes(index)) selection.selected.push(index);
}

export function removeSelected(index: number): void {
  const at = selection.selected.indexOf(index);
  if (at >= 0) selection.selected.splice(at, 1);
}

export function selectOnly(index: number): void {
  selection.selected = [index];
}

/** Selects everything in `indexes` (Ctrl+A): one assignment, cheap even for 10,000 items. */
export function selectAll(indexes: readonly number[]): void {
  selection.selected = [...indexes];
}

/**
 * Shift-click: adds every item between the first selected one and `to`, following the order items are shown
 * in (`order`: folders first, then files).
 */
export function selectRange(order: readonly number[], to: number): void {
  const first = selection.selected[0];
  if (first === undefined) return selectOnly(to);
  const a = order.indexOf(first);
  const b = order.indexOf(to);
  if (a < 0 || b < 0) return addSelected(to);
  const [from, until] = a < b ? [a, b] : [b, a];
  const have = new Set(selection.selected);
  const added = order.slice(from, until + 1).filter((i) => !have.has(i));
  if (added.length) selection.selected = [...selection.selected, ...added];
}

export function toggleMultiple(): void {
  selection.multiple = !selection.multiple;
}
