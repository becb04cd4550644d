import { afterAll, beforeAll, expect, test } from 'bun:test';
import { closeSync, mkdirSync, openSync } from 'node:fs';
import { join } from 'node:path';
import type { Resource } from '../../server/contract/resource';
import { configureClient } from '../../web/api/client';
import { FolderSlots, RANGE } from '../../web/api/folder-slots';
import { fetchResource } from '../../web/api/resources';
import { makeTestApp, type TestApp } from '../helpers/test-app';

// The places of a big folder (web/api/folder-slots.ts) against the real app over HTTP: ranges asked for out of order
// land at their places in the listing's order, are asked once, and halving finds where a letter's names begin.
const DIRS = 3;
const FILES = 3_000;
const TOTAL = DIRS + FILES;
let t: TestApp;
let server: ReturnType<typeof Bun.serve>;
let whole: string[];
let first: Resource & { page?: { total: number } };
let asked: string[] = [];

beforeAll(async () => {
  t = await makeTestApp();
  const big = join(t.root, 'big');
  mkdirSync(big);
  for (let i = 0; i < DIRS; i++) mkdirSync(join(big, `dir-${i}`));
  for (let i = 0; i < FILES; i++) closeSync(openSync(join(big, `${i < 2_900 ? 'a' : 'm'}-${i}.txt`), 'w'));
  const token = await t.adminToken();
  server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch: (r) => {
      asked.push(new URL(r.url).search);
      return t.app.handle(r);
    },
  });
  configureClient(`http://127.0.0.1:${server.port}`, { token: () => token, renewRequested: () => {}, unauthorized: () => {} });
  whole = ((await fetchResource('/big/')).items ?? []).map((i) => i.name);
  const r = await t.req('GET', '/api/resources/big/?limit=256', { token });
  first = (await r.json()) as typeof first;
}, 60_000);
afterAll(async () => {
  server?.stop(true);
  await t?.close();
});

/** A FolderSlots as the listing starts it: from the first page's count and order. */
function places(): { slots: FolderSlots; filled: Promise<void> } {
  let done = () => {};
  const filled = new Promise<void>((resolve) => (done = resolve));
  const slots = new FolderSlots('/big/', first.sorting, first.page!.total, new AbortController().signal, () => done());
  return { slots, filled };
}

test('the first page counts the whole folder: every place exists before its item', () => {
  expect(first.page!.total).toBe(TOTAL);
  const { slots } = places();
  expect(slots.total).toBe(TOTAL);
  expect(slots.snapshot().every((s) => s === undefined)).toBe(true);
});

test('a range far down fills exactly its places, in the order of the whole listing, and is asked once', async () => {
  const { slots, filled } = places();
  asked = [];
  slots.want(TOTAL - 10, TOTAL);
  slots.want(TOTAL - 5, TOTAL); // the same block again: not asked twice
  await filled;
  const got = slots.snapshot();
  const from = Math.floor((TOTAL - 10) / RANGE) * RANGE;
  for (let p = 0; p < TOTAL; p++) {
    if (p < from) expect(got[p]).toBeUndefined();
    else {
      expect(got[p]?.name).toBe(whole[p]!);
      expect(got[p]?.index).toBe(p);
    }
  }
  expect(asked).toEqual([`?offset=${from}&limit=${RANGE}`]);
});

test('places the stream has reached are not asked for again', async () => {
  const { slots } = places();
  const streamed = whole.slice(0, 1_000).map((name, index) => ({ name, index }) as never);
  slots.fromStream(streamed, 0);
  asked = [];
  slots.want(10, 400);
  await Bun.sleep(50);
  expect(asked).toEqual([]);
  expect(slots.slots[10]?.name).toBe(whole[10]!);
});

test('halving a name-sorted section finds where a letter begins, asking a few ranges', async () => {
  const { slots } = places();
  asked = [];
  // asc=false is A to Z for names (the reference's inversion): before 'm' means a name whose start sorts before it.
  const at = await slots.seek(DIRS, TOTAL, (name) => name.slice(0, 1).localeCompare('m') < 0);
  expect(at).toBe(whole.findIndex((n) => n.startsWith('m')));
  expect(slots.slots[at!]?.name.startsWith('m')).toBe(true);
  expect(asked.length).toBeGreaterThan(0);
  expect(asked.length).toBeLessThanOrEqual(Math.ceil(Math.log2(TOTAL / RANGE)) + 2);
});
