import { afterAll, beforeAll, expect, test } from 'bun:test';
import { closeSync, lstatSync, mkdirSync, openSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Resource } from '../../server/contract/resource';
import { describe as describeEntry, sortItems } from '../../server/services/files/describe';
import { makeTestApp, type TestApp } from '../helpers/test-app';

// A 100,000-entry folder streamed in batches (never held whole) answers the very body a listing built in one piece
// would: the same items, in the reference's order, with the same fields and types, the same JSON text. Some names
// carry no extension, so the big listing's content sniffs (stat worker stats, identity read again) are covered.
let t: TestApp;
let token: string;
const N = 100_000;

beforeAll(async () => {
  t = await makeTestApp();
  token = await t.adminToken();
  const dir = join(t.root, 'huge');
  mkdirSync(join(dir, 'sub folder'), { recursive: true });
  for (let i = 0; i < N - 200; i++) closeSync(openSync(join(dir, `entry-${i}.txt`), 'w'));
  // 100 of text and 99 of binary content behind names that tell nothing: sniffed.
  for (let i = 0; i < 100; i++) writeFileSync(join(dir, `NOTES${i}`), `plain words ${i}\n`);
  for (let i = 0; i < 99; i++) writeFileSync(join(dir, `blob${i}.bin`), new Uint8Array([0, 1, 2, i]));
}, 120_000);
afterAll(() => t.close());

/** The listing as one object, built the plain way: every entry described, ordered by the reference's sort. */
function expected(res: Resource, dir: string): string {
  const items = readdirSync(dir).map((name) => {
    const st = lstatSync(join(dir, name));
    const item = describeEntry(`/huge/${name}`, name, st, false);
    item.type = item.isDir ? '' : /^NOTES/.test(name) ? 'text' : /^blob/.test(name) ? 'blob' : 'text';
    return item;
  });
  sortItems(items, 'name', false);
  const { items: _, numDirs: __, numFiles: ___, sorting: ____, ...own } = res as Resource & { numDirs: number; numFiles: number; sorting: unknown };
  return JSON.stringify({ ...own, items, numDirs: 1, numFiles: N - 1, sorting: { by: 'name', asc: false } });
}

test('a 100,000-entry listing streams the same body as one built whole (order, fields, types, JSON text)', async () => {
  const r = await t.req('GET', '/api/resources/huge/', { token, headers: { 'Accept-Encoding': 'identity' } });
  expect(r.status).toBe(200);
  expect(r.headers.get('Content-Length')).toBeNull(); // streamed, not built whole
  const body = await r.text();
  const res = JSON.parse(body) as Resource & { numDirs: number; numFiles: number };
  expect(res.items!.length).toBe(N);
  expect(body).toBe(expected(res, join(t.root, 'huge')));
  // A second listing (sniffs remembered now) answers the same body.
  const again = await (await t.req('GET', '/api/resources/huge/', { token, headers: { 'Accept-Encoding': 'identity' } })).text();
  expect(again).toBe(body);
}, 120_000);

test('pages of a big listing put together are the whole listing', async () => {
  const whole = (await (await t.req('GET', '/api/resources/huge/', { token })).json()) as Resource;
  const parts: Resource[] = [];
  for (let offset = 0; offset < N; offset += 30_000) {
    const p = (await (await t.req('GET', `/api/resources/huge/?offset=${offset}&limit=30000`, { token })).json()) as Resource;
    parts.push(...p.items!);
  }
  expect(parts).toEqual(whole.items!);
}, 120_000);
