import { afterEach, expect, test } from 'bun:test';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { makeTestApp, USER_PASSWORD, type TestApp } from '../helpers/test-app';

/**
 * `filedeck users import` (UsersService.import) through the one creation path (prepare / insertPrepared /
 * replacePrepared), with the behaviour it always had: ids kept when free, explicit scopes ("/" when none), a
 * record's own permissions, --overwrite and --replace, all or nothing.
 */
let t: TestApp;
afterEach(() => t?.close());

const HASH = '$2a$10$abcdefghijklmnopqrstuuJ0Z0Z0Z0Z0Z0Z0Z0Z0Z0Z0Z0Z0Z0Z0';
const byName = (name: string) => t.s.stores.users.byUsername(name);

test('new users: ids kept when free, "/" without a scope, their own permissions, the hash as it is', async () => {
  t = await makeTestApp({}, { createUserDir: true });
  const n = await t.s.users.import([
    { id: 40, username: 'dora', password: HASH, scope: '/teams/dora', perm: { download: true, create: true } },
    { username: 'eve', password: HASH },
  ], { file: 'users.json' });
  expect(n).toBe(2);
  const dora = (await byName('dora'))!;
  expect([dora.id, dora.scope, dora.password, dora.perm.create, dora.perm.delete, dora.perm.admin]).toEqual([40, '/teams/dora', HASH, true, false, false]);
  expect(existsSync(join(t.root, 'teams/dora'))).toBe(true);
  expect((await byName('eve'))!.scope).toBe('/'); // not a home folder, even with createUserDir
});

test('an existing user is refused without --overwrite (nothing written, no folder left); --overwrite replaces it by id and ends its sessions', async () => {
  t = await makeTestApp();
  const bobToken = await t.userToken('bob', {}, { scope: '/bob' });
  const bob = (await byName('bob'))!;
  const list = [{ username: 'newcomer', password: HASH, scope: '/new/place' }, { id: bob.id, username: 'robert', password: HASH, scope: '/bob', locale: 'ja' }];
  await expect(t.s.users.import([{ ...list[0] }, { username: 'bob', password: HASH }], {})).rejects.toThrow('--overwrite');
  expect(await byName('newcomer')).toBeNull();
  expect(existsSync(join(t.root, 'new'))).toBe(false);
  expect(await t.s.users.import(list, { overwrite: true })).toBe(2);
  const robert = (await byName('robert'))!;
  expect([robert.id, robert.locale, robert.password]).toEqual([bob.id, 'ja', HASH]);
  expect(await byName('bob')).toBeNull();
  expect((await t.req('GET', '/api/resources/', { token: bobToken })).status).toBe(401);
});

test('--replace: every user deleted first, an admin required; the same name twice is refused', async () => {
  t = await makeTestApp();
  await t.userToken('bob');
  await expect(t.s.users.import([{ username: 'solo', password: HASH }], { replace: true })).rejects.toThrow('must include an admin');
  await expect(t.s.users.import([{ username: 'twin', password: HASH }, { username: 'twin', password: HASH }], {})).rejects.toThrow('already');
  expect(await byName('twin')).toBeNull();
  expect(await t.s.users.import([{ username: 'boss', password: HASH, perm: { admin: true } }, { username: 'worker', password: HASH }], { replace: true })).toBe(2);
  expect((await t.s.stores.users.all()).map((u) => u.username).sort()).toEqual(['boss', 'worker']);
  expect((await byName('boss'))!.perm.share).toBe(true); // an admin holds every permission
  await expect(t.login('bob', USER_PASSWORD)).rejects.toThrow();
  await expect(t.s.users.import([{ username: 'x', password: 'plain' }], {})).rejects.toThrow('bcrypt');
  expect((await t.s.audit.list({ action: 'users.import' })).entries.length).toBe(1);
});
