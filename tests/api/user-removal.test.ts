import { afterEach, expect, test } from 'bun:test';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { JobsStore } from '../../server/db/jobs.store';
import { TrashStore } from '../../server/db/trash.store';
import { tempsUnder } from '../helpers/jobs-fixture';
import { ADMIN_PASSWORD, makeTestApp, type TestApp } from '../helpers/test-app';

// Everything a user owns goes with the user (services/users/user-removal.ts), and the trash purge removes slots on
// disk that no row claims, recognised by the trash's own naming (services/trash/trash-purge.ts removeUnclaimed).
let t: TestApp;
afterEach(async () => {
  await t?.close();
});

const OCTET = { 'Content-Type': 'application/offset+octet-stream' };
const trashDir = () => join(t.root, '.filedeck-trash');
const progress = { filesDone: 0, filesTotal: 0, bytesDone: 0, bytesTotal: 0, current: '' };

/** bob (id 2, scope /bob) with two trashed files, an upload in progress and a job queued by another instance. */
async function bobWithThings() {
  t = await makeTestApp();
  const admin = await t.adminToken();
  mkdirSync(join(t.root, 'bob'));
  writeFileSync(join(t.root, 'bob/a.txt'), 'alpha');
  writeFileSync(join(t.root, 'bob/b.txt'), 'beta');
  const bob = await t.userToken('bob', { create: true, delete: true }, { scope: '/bob' });
  const ids: string[] = [];
  for (const f of ['a.txt', 'b.txt']) ids.push((await t.req('DELETE', `/api/resources/${f}`, { token: bob })).headers.get('x-trash-id')!);
  expect((await t.req('POST', '/api/tus/up.bin', { token: bob, headers: { 'Upload-Length': '10' } })).status).toBe(201);
  expect((await t.req('PATCH', '/api/tus/up.bin', { token: bob, headers: { ...OCTET, 'Upload-Offset': '0' }, raw: 'half' })).status).toBe(204);
  expect(tempsUnder(join(t.root, 'bob'))).toHaveLength(1);
  const job = await new JobsStore(t.s.db).insert({ owner: 2, kind: 'delete', params: { kind: 'delete', items: ['/x'] }, progress, instance: 'another-host:1:abcd' }, Date.now());
  expect(readdirSync(join(trashDir(), '2')).sort()).toEqual([...ids].sort());
  return { admin, bob, ids, job };
}

test('deleting a user removes their trash (rows and slots on disk), uploads in progress (rows and temps), jobs and sessions', async () => {
  const { admin, bob, job } = await bobWithThings();
  expect((await t.req('DELETE', '/api/users/2', { token: admin, body: { current_password: ADMIN_PASSWORD } })).status).toBe(200);
  expect(readdirSync(join(trashDir(), '2'))).toEqual([]);
  expect(await new TrashStore(t.s.db).list()).toEqual([]);
  expect(tempsUnder(t.root)).toEqual([]);
  expect(await t.s.stores.uploads.forUser(2)).toEqual([]);
  expect(await new JobsStore(t.s.db).get(job)).toBeNull();
  expect((await t.req('GET', '/api/resources/', { token: bob })).status).toBe(401);
  // Bob's files themselves stay where they are (only what the server keeps for him goes).
  expect(existsSync(join(t.root, 'bob'))).toBe(true);
}, 30_000);

test('deleting a user with ?trashTo=<admin> hands their trash to that admin, who sees and restores it; only another admin qualifies', async () => {
  const { admin, ids } = await bobWithThings();
  expect((await t.req('DELETE', '/api/users/2?trashTo=2', { token: admin, body: { current_password: ADMIN_PASSWORD } })).status).toBe(400);
  expect((await t.req('DELETE', '/api/users/2?trashTo=x', { token: admin, body: { current_password: ADMIN_PASSWORD } })).status).toBe(400);
  expect((await t.req('DELETE', '/api/users/2?trashTo=1', { token: admin, body: { current_password: ADMIN_PASSWORD } })).status).toBe(200);
  const list = await (await t.req('GET', '/api/trash', { token: admin })).json();
  expect(list.items.map((i: { id: string }) => i.id).sort()).toEqual([...ids].sort());
  expect(readdirSync(join(trashDir(), '2')).sort()).toEqual([...ids].sort());
  expect(tempsUnder(t.root)).toEqual([]); // the upload in progress went all the same
  const back = await t.req('POST', `/api/trash/${ids[0]}/restore`, { token: admin });
  expect(back.status).toBe(200);
  expect((await back.json()).path).toBe('/bob/a.txt');
}, 30_000);

test('the purge removes trash slots no row claims (a user deleted before this fix), only of the trash\'s own naming, and only once they are old', async () => {
  t = await makeTestApp();
  const admin = await t.adminToken();
  writeFileSync(join(t.root, 'keep.txt'), 'k');
  const kept = (await t.req('DELETE', '/api/resources/keep.txt', { token: admin })).headers.get('x-trash-id')!;
  const slot = (user: string, id: string) => {
    mkdirSync(join(trashDir(), user, id), { recursive: true });
    writeFileSync(join(trashDir(), user, id, 'f.txt'), 'x');
    return join(trashDir(), user, id);
  };
  const orphan = slot('7', '0b7e2a36-2d4f-4a5e-9c1f-3f6f9d2b8a11'); // what a deleted user's trash left
  const notOurs = [slot('7', 'not-a-uuid'), slot('someone', '6c1c0d7e-8a4f-4b3e-a1b2-c3d4e5f60718'), slot('7', '0B7E2A36-2D4F-4A5E-9C1F-3F6F9D2B8A11')];
  // Young slots are left alone (an item is moved into its slot a moment before its row is written).
  expect(await t.s.trash.purge.removeUnclaimed(t.root)).toBe(0);
  expect(existsSync(orphan)).toBe(true);
  expect(await t.s.trash.purge.removeUnclaimed(t.root, 0, 50)).toBe(1);
  expect(existsSync(orphan)).toBe(false);
  for (const p of notOurs) expect(existsSync(join(p, 'f.txt'))).toBe(true);
  expect(existsSync(join(trashDir(), '1', kept, 'keep.txt'))).toBe(true);
  expect((await (await t.req('GET', '/api/trash', { token: admin })).json()).items.map((i: { id: string }) => i.id)).toEqual([kept]);
}, 30_000);
