import { afterEach, expect, test } from 'bun:test';
import { readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { QuotaUsage } from '../../server/contract/versions';
import { treeUsage } from '../../server/fs/tree-usage';
import { put } from '../helpers/files-fixture';
import { tempsUnder } from '../helpers/jobs-fixture';
import { makeTestApp, type TestApp } from '../helpers/test-app';

// Quotas (issue 35, decision 0049) under load and over time: parallel uploads never end above a quota together,
// nested scopes each hold, the trash and versions count, outside writes show after the reconcile, and the usage
// reaches the API (the caller's own, with an API token too, and the admin's user list). SQLite, and PostgreSQL
// with FILEDECK_TEST_PG.

let t: TestApp;
afterEach(async () => {
  await t?.close();
}, 30_000);

const TUS = { 'Tus-Resumable': '1.0.0' };
const usage = async (token: string): Promise<QuotaUsage> => (await t.req('GET', '/api/account/usage', { token })).json();
const reservations = async () => (await t.s.db.all<{ id: string }>('SELECT id FROM quota_reservations')).length;
const bytesOnDisk = (dir: string) => readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).reduce((n, e) => n + statSync(join(e.parentPath, e.name)).size, 0);

test('20 parallel plain uploads that together exceed the quota never end above it', async () => {
  t = await makeTestApp();
  put(t.root, { 'bob/': '' });
  const token = await t.userToken('bob', {}, { scope: '/bob', quota: { bytes: 100, files: 0 } });
  const codes = await Promise.all(Array.from({ length: 20 }, (_, i) => t.req('POST', `/api/resources/f${i}.bin`, { token, raw: 'u'.repeat(10) }).then((r) => r.status)));
  const ok = codes.filter((c) => c === 200).length;
  expect(codes.filter((c) => c !== 200 && c !== 507)).toEqual([]);
  expect(ok).toBe(10); // never above the quota, and no false refusal: reservations are exact
  expect(bytesOnDisk(join(t.root, 'bob'))).toBe(ok * 10);
  expect((await usage(token)).bytes).toBe(ok * 10);
  expect(tempsUnder(t.root)).toEqual([]);
  expect(await reservations()).toBe(0);
}, 30_000);

test('20 parallel tus uploads: the declared lengths are reserved at creation, so the quota is never passed', async () => {
  t = await makeTestApp();
  put(t.root, { 'bob/': '' });
  const token = await t.userToken('bob', {}, { scope: '/bob', quota: { bytes: 100, files: 0 } });
  const created = await Promise.all(Array.from({ length: 20 }, (_, i) => t.req('POST', `/api/tus/t${i}.bin`, { token, headers: { ...TUS, 'Upload-Length': '10' } }).then((r) => [i, r.status] as const)));
  expect(created.filter(([, c]) => c !== 201 && c !== 507)).toEqual([]);
  const live = created.filter(([, c]) => c === 201).map(([i]) => i);
  expect(live.length).toBe(10); // exactly what fits: each reservation is exact
  const patched = await Promise.all(live.map((i) => t.req('PATCH', `/api/tus/t${i}.bin`, { token, raw: 'v'.repeat(10), headers: { ...TUS, 'Content-Type': 'application/offset+octet-stream', 'Upload-Offset': '0' } }).then((r) => r.status)));
  expect(patched).toEqual(live.map(() => 204));
  expect(bytesOnDisk(join(t.root, 'bob'))).toBe(100);
  expect((await usage(token)).bytes).toBe(100);
  expect(await reservations()).toBe(0);
  // Full: a new creation is refused at once, before any byte.
  expect((await t.req('POST', '/api/tus/more.bin', { token, headers: { ...TUS, 'Upload-Length': '1' } })).status).toBe(507);
}, 30_000);

test('nested scopes: a write counts against every quota that holds it; the fuller one refuses, naming its owner', async () => {
  t = await makeTestApp();
  put(t.root, { 'team/shared.txt': 's'.repeat(40), 'team/bob/': '' });
  const alice = await t.userToken('alice', {}, { scope: '/team', quota: { bytes: 100, files: 0 } });
  const bob = await t.userToken('bob', {}, { scope: '/team/bob', quota: { bytes: 1000, files: 0 } });
  expect((await t.req('POST', '/api/resources/big.bin', { token: bob, raw: 'b'.repeat(70) })).status).toBe(507);
  const r = await t.req('POST', '/api/resources/small.bin', { token: bob, raw: 'b'.repeat(50) });
  expect(r.status).toBe(200);
  expect([(await usage(alice)).bytes, (await usage(bob)).bytes]).toEqual([90, 50]);
  const over = await t.req('POST', '/api/resources/more.bin', { token: bob, raw: 'b'.repeat(20) });
  expect([over.status, await over.text()]).toEqual([507, expect.stringContaining('quota of alice: 100 B, 90 B used')]);
  // A file-count quota holds the same way (bob's one file fills a quota of one).
  const bobId = (await t.s.stores.users.byUsername('bob'))!.id;
  const set = await t.req('PUT', `/api/users/${bobId}`, { token: await t.adminToken(), body: { what: 'user', which: ['quota'], data: { quota: { bytes: 0, files: 1 } } } });
  expect(set.status).toBe(200);
  const counted = await t.req('POST', '/api/resources/two.bin', { token: bob, raw: 'b' });
  expect([counted.status, await counted.text()]).toEqual([507, expect.stringContaining('quota of bob: 1 files, 1 stored')]);
}, 30_000);

test('the trash and versions count; deleting for good and pruning give the room back', async () => {
  t = await makeTestApp();
  put(t.root, { 'bob/a.txt': 'a'.repeat(60) });
  const token = await t.userToken('bob', {}, { scope: '/bob', quota: { bytes: 100, files: 0 } });
  // An overwrite keeps the old 60 bytes as a version: 60 + 30 stored.
  expect((await t.req('PUT', '/api/resources/a.txt', { token, raw: 'A'.repeat(30) })).status).toBe(200);
  let u = await usage(token);
  expect([u.bytes, u.versionsBytes, u.trashBytes, u.files]).toEqual([90, 60, 0, 1]);
  expect((await t.req('POST', '/api/resources/b.txt', { token, raw: 'b'.repeat(20) })).status).toBe(507);
  // Deleted into the trash, the file and the version it takes along still count.
  expect((await t.req('DELETE', '/api/resources/a.txt', { token })).status).toBe(204);
  u = await usage(token);
  expect([u.bytes, u.trashBytes, u.versionsBytes, u.files]).toEqual([90, 30, 60, 0]);
  expect((await t.req('POST', '/api/resources/b.txt', { token, raw: 'b'.repeat(20) })).status).toBe(507);
  // Emptied: room again.
  expect((await t.req('DELETE', '/api/trash', { token })).status).toBeLessThan(300);
  u = await usage(token);
  expect([u.bytes, u.trashBytes, u.versionsBytes]).toEqual([0, 0, 0]);
  expect((await t.req('POST', '/api/resources/b.txt', { token, raw: 'b'.repeat(20) })).status).toBe(200);
}, 30_000);

test('outside writes show after the reconcile; usage for API tokens and in the admin\'s user list', async () => {
  t = await makeTestApp();
  put(t.root, { 'bob/a.txt': 'a'.repeat(10) });
  const token = await t.userToken('bob', {}, { scope: '/bob', quota: { bytes: 1000, files: 50 } });
  expect((await usage(token)).bytes).toBe(10);
  writeFileSync(join(t.root, 'bob', 'outside.bin'), 'o'.repeat(500)); // not through Filedeck
  await t.s.quota.reconcile();
  const u = await usage(token);
  expect([u.bytes, u.files, u.quota]).toEqual([510, 2, { bytes: 1000, files: 50 }]);
  expect(u.checkedAt).toBeGreaterThan(Date.now() - 60_000);
  // An API token reads the usage (and still not the other account pages).
  const made = await t.req('POST', '/api/account/tokens', { token, body: { name: 'script', perm: ['download'] } });
  const secret = (await made.json()).token as string;
  expect((await t.req('GET', '/api/account/usage', { headers: { Authorization: `Bearer ${secret}` } })).status).toBe(200);
  expect((await t.req('GET', '/api/account/tokens', { headers: { Authorization: `Bearer ${secret}` } })).status).toBe(403);
  // The admin's list and one user carry usage.
  const admin = await t.adminToken();
  const list = (await (await t.req('GET', '/api/users', { token: admin })).json()) as { username: string; usage: QuotaUsage }[];
  expect(list.find((x) => x.username === 'bob')!.usage).toMatchObject({ bytes: 510, files: 2 });
  const id = list.find((x) => x.username === 'bob') as unknown as { id: number };
  expect(((await (await t.req('GET', `/api/users/${id.id}`, { token: admin })).json()) as { usage: QuotaUsage }).usage.bytes).toBe(510);
  expect(await treeUsage(join(t.root, 'bob'))).toEqual({ bytes: 510, files: 2 });
}, 30_000);

test('with the name index ready, usage comes from it (no walk) and follows writes through the API', async () => {
  t = await makeTestApp();
  put(t.root, { 'bob/a.txt': 'a'.repeat(10), 'bob/d/e/f.bin': 'f'.repeat(300), 'bob/.hidden': 'h' });
  t.s.index.start();
  for (let i = 0; i < 300 && !t.s.index.ready(); i++) await Bun.sleep(50);
  await t.s.index.settled();
  expect(t.s.index.usageUnder(join(t.root, 'bob'))).toEqual({ bytes: 311, files: 3 });
  const token = await t.userToken('bob', {}, { scope: '/bob', quota: { bytes: 400, files: 0 } });
  expect((await usage(token)).bytes).toBe(311);
  expect((await t.req('POST', '/api/resources/g.bin', { token, raw: 'g'.repeat(89) })).status).toBe(200);
  expect((await t.req('POST', '/api/resources/h.bin', { token, raw: 'g' })).status).toBe(507);
  // A re-measure from the index sees the new file itself (its delta is not counted twice).
  await t.s.quota.reconcile();
  expect((await usage(token)).bytes).toBe(400);
  expect(await treeUsage(join(t.root, 'bob'))).toEqual({ bytes: 400, files: 4 });
}, 30_000);

test('quotaPrunesTrash: a full quota first gives up its oldest trash and versions, only as much as needed', async () => {
  t = await makeTestApp();
  put(t.root, { 'bob/old.txt': 'o'.repeat(30), 'bob/a.txt': 'a'.repeat(40) });
  const token = await t.userToken('bob', {}, { scope: '/bob', quota: { bytes: 120, files: 0 } });
  expect((await t.req('DELETE', '/api/resources/old.txt', { token })).status).toBe(204); // trash: 30
  await Bun.sleep(5);
  expect((await t.req('PUT', '/api/resources/a.txt', { token, raw: 'A'.repeat(40) })).status).toBe(200); // version: 40
  expect((await usage(token)).bytes).toBe(110);
  expect((await t.req('POST', '/api/resources/b.bin', { token, raw: 'b'.repeat(30) })).status).toBe(507); // off by default
  const on = await t.req('PUT', '/api/settings', { token: await t.adminToken(), body: { quotaPrunesTrash: true } });
  expect(on.status).toBeLessThan(300);
  // 20 bytes short: the oldest (the trash item, 30) goes, the version stays.
  expect((await t.req('POST', '/api/resources/b.bin', { token, raw: 'b'.repeat(30) })).status).toBe(200);
  let u = await usage(token);
  expect([u.bytes, u.trashBytes, u.versionsBytes]).toEqual([110, 0, 40]);
  // 40 short: the version goes too; then nothing is left to give up.
  expect((await t.req('POST', '/api/resources/c.bin', { token, raw: 'c'.repeat(50) })).status).toBe(200);
  u = await usage(token);
  expect([u.bytes, u.trashBytes, u.versionsBytes]).toEqual([120, 0, 0]);
  expect((await t.req('POST', '/api/resources/d.bin', { token, raw: 'd' })).status).toBe(507);
  expect(readdirSync(join(t.root, 'bob')).filter((n) => !n.startsWith('.')).sort()).toEqual(['a.txt', 'b.bin', 'c.bin']);
}, 30_000);

test('the defaults template carries a default quota for new users, validated like the user field', async () => {
  t = await makeTestApp();
  const admin = await t.adminToken();
  const defaults = t.s.settings.get().defaults;
  expect((await t.req('PUT', '/api/settings', { token: admin, body: { defaults: { ...defaults, quota: { bytes: 5000, files: 0 } } } })).status).toBe(200);
  await t.s.users.create({ username: 'carol', password: 'carols-long-password-1' });
  expect((await t.s.stores.users.byUsername('carol'))!.quota).toEqual({ bytes: 5000, files: 0 });
  const bad = await t.req('PUT', '/api/settings', { token: admin, body: { defaults: { ...defaults, quota: { bytes: -1 } } } });
  expect([bad.status, await bad.text()]).toEqual([400, expect.stringContaining('defaults.quota.bytes')]);
}, 30_000);
