/**
 * The listing's selection (web/state/selection.state.ts): a select-all of every item is answered from the order on
 * show (no insert per item) and behaves as the Set it stands for; with a filter it is a plain Set of what is shown.
 */
import { beforeEach, describe, expect, test } from 'bun:test';
import { addSelected, keepSelected, removeSelected, resetSelection, selectAll, selectRange, selection } from '../../web/state/selection.state';

// Folders first: items 3 and 1 are the folders, then the files in name order.
const order = Uint32Array.from([3, 1, 0, 4, 2]);
const position = Int32Array.from([2, 1, 4, 0, 3]);

beforeEach(() => resetSelection());

describe('select-all', () => {
  test('every item: membership, size and order as a Set of the order would give', () => {
    selectAll(order, 5);
    const sel = selection.selected;
    const plain = new Set(order);
    expect(sel.size).toBe(5);
    for (const i of [-1, 0, 1, 2, 3, 4, 5, 1.5, Number.NaN]) expect(sel.has(i)).toBe(plain.has(i));
    expect([...sel]).toEqual([...plain]);
    expect([...sel.values()]).toEqual([3, 1, 0, 4, 2]);
    expect([...sel.keys()]).toEqual([3, 1, 0, 4, 2]);
    expect([...sel.entries()]).toEqual([...plain.entries()]);
    const seen: number[] = [];
    sel.forEach((v) => seen.push(v));
    expect(seen).toEqual([3, 1, 0, 4, 2]);
    expect(new Set(sel)).toEqual(plain);
    expect(sel.values().next().value).toBe(3);
  });

  test('never changed in place: changes replace it with a plain Set', () => {
    selectAll(order, 5);
    const all = selection.selected;
    expect(() => all.add(7)).toThrow(TypeError);
    expect(() => all.delete(1)).toThrow(TypeError);
    expect(() => all.clear()).toThrow(TypeError);
    removeSelected(4);
    expect([...selection.selected]).toEqual([3, 1, 0, 2]);
    expect(all.size).toBe(5);
    addSelected(4);
    expect(selection.selected.size).toBe(5);
    selectAll(order, 5);
    keepSelected(new Set([1, 2]));
    expect([...selection.selected]).toEqual([1, 2]);
  });

  test('a range from a select-all starts at its first item', () => {
    selectAll(order, 5);
    selectRange(order, position, 0);
    expect([...selection.selected]).toEqual([3, 1, 0]);
  });

  test('with a filter (fewer shown than the folder holds): exactly the shown ones', () => {
    selectAll(Uint32Array.from([1, 4]), 5);
    expect([...selection.selected]).toEqual([1, 4]);
    expect(selection.selected.has(0)).toBe(false);
    expect(selection.selected.has(4)).toBe(true);
  });

  test('an empty folder selects nothing', () => {
    selectAll(new Uint32Array(0), 0);
    expect(selection.selected.size).toBe(0);
  });
});
