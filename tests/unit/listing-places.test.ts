import { expect, test } from 'bun:test';
import type { WebResource } from '../../web/api/resources';
import { shownOrder } from '../../web/components/files/listing-order';
import { holeBefore, orderCollator } from '../../web/components/files/type-to-jump';

// A big folder still arriving (WebResource.slots): places without their item yet are shown (placeholders), as
// folders within the first numDirs places; a filter shows only what has arrived; type-to-jump knows where the gaps are.
const item = (name: string, index: number, isDir = false) => ({ name, index, isDir }) as WebResource;
const places: (WebResource | undefined)[] = [item('d-0', 0, true), undefined, item('a', 2), undefined, undefined, item('z', 5)];

test('places not arrived are shown where they are, folders first by the folder count', () => {
  const shown = shownOrder(places, '', 2);
  expect([...shown.order]).toEqual([0, 1, 2, 3, 4, 5]);
  expect(shown.dirs).toBe(2);
  expect([...shown.position]).toEqual([0, 1, 2, 3, 4, 5]);
});

test('a filter shows only items that have arrived and match', () => {
  const shown = shownOrder(places, 'z', 2);
  expect([...shown.order]).toEqual([5]);
  expect(shown.position[1]).toBe(-1);
});

test('holeBefore: a gap between the start and the match (or all the way round when none)', () => {
  const order = [0, 1, 2, 3, 4, 5];
  const has = (i: number) => places[i] !== undefined;
  expect(holeBefore(has, order, 2, 2)).toBe(false);
  expect(holeBefore(has, order, 2, 5)).toBe(true);
  expect(holeBefore(has, order, 5, 0)).toBe(false);
  expect(holeBefore(has, order, 2, -1)).toBe(true);
  expect(holeBefore(() => true, order, 3, -1)).toBe(false);
});

test('orderCollator orders numbers by value, as the server does', () => {
  const c = orderCollator('en');
  expect(['f-10', 'f-9', 'F-1'].sort(c.compare)).toEqual(['F-1', 'f-9', 'f-10']);
});
