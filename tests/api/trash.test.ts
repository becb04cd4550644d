import { afterEach, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ADMIN_PASSWORD, makeTestApp, type TestApp } from '../helpers/test-app';

let t: TestApp;
afterEach(() => t?.close());

/** bob (scope /bob) with docs/a.txt, docs/sub/b.txt; carol (scope /carol). */
async function setup(settings: Record<string, unknown> = {}, bobPerm: Record<string, boolean> = {}, bobExtra: Record<string, unknown> = {}) {
  t = await makeTestApp({}, settings);
  mkdirSync(join(t.root, 'bob/docs/sub'), { recursive: true });
  mkdirSync(join(t.root, 'carol'), { recursive: true });
  writeFileSync(join(t.root, 'bob/docs/a.txt'), 'alpha');
  writeFileSync(join(t.root, 'bob/docs/sub/b.txt'), 'beta!');
  const bob = await t.userToken('bob', bobPerm, { scope: '/bob', ...bobExtra });
  const carol = await t.userToken('carol', {}, { scope: '/carol' });
  return { bob, carol, admin: await t.adminToken() };
}

const del = async (path: string, token: string, query = '') => t.req('DELETE', `/api/resources${path}${query}`, { token });
const trashList = async (token: string, query = '') => {
  const r = await t.req('GET', `/api/trash${query}`, { token });
  expect(r.status).toBe(200);
  return (await r.json()) as { settings: { enabled: boolean }; items: { id: string; name: string; originalPath: string; size: number; isDir: boolean; owner: string }[] };
};
const restore = (id: string, token: string, conflict = '') => t.req('POST', `/api/trash/${id}/restore${conflict ? `?conflict=${conflict}` : ''}`, { token });
const names = async (path: string, token: string) => ((await (await t.req('GET', `/api/resources${path}`, { token })).json()).items as { name: string }[]).map((i) => i.name).sort();
const trashDir = () => join(t.root, '.filedeck-trash');

describe('delete → trash → restore', () => {
  test('a file: the delete moves it (same inode) and names the item; restore puts it back', async () => {
    const { bob } = await setup();
    const r = await del('/docs/a.txt', bob);
    expect(r.status).toBe(204);
    const id = r.headers.get('x-trash-id')!;
    expect(id).toBeTruthy();
    expect(existsSync(join(t.root, 'bob/docs/a.txt'))).toBe(false);
    expect(await names('/docs', bob)).toEqual(['sub']);
    const { items, settings } = await trashList(bob);
    expect(settings.enabled).toBe(true);
    expect(items).toMatchObject([{ id, name: 'a.txt', originalPath: '/docs/a.txt', size: 5, isDir: false, owner: 'bob' }]);
    expect(readFileSync(join(trashDir(), '2', id, 'a.txt'), 'utf8')).toBe('alpha');
    const back = await restore(id, bob);
    expect(back.status).toBe(200);
    expect(await back.json()).toEqual({ path: '/docs/a.txt' });
    expect(readFileSync(join(t.root, 'bob/docs/a.txt'), 'utf8')).toBe('alpha');
    expect((await trashList(bob)).items).toEqual([]);
    expect(existsSync(join(trashDir(), '2', id))).toBe(false); // the slot goes with it
  });

  test('a folder, restored into a parent that was deleted meanwhile (recreated)', async () => {
    const { bob } = await setup();
    const id = (await del('/docs/sub', bob)).headers.get('x-trash-id')!;
    expect((await trashList(bob)).items[0]).toMatchObject({ name: 'sub', isDir: true, size: 5 });
    expect((await del('/docs', bob, '?permanent=true')).status).toBe(204);
    expect(existsSync(join(t.root, 'bob/docs'))).toBe(false);
    expect((await restore(id, bob)).status).toBe(200);
    expect(readFileSync(join(t.root, 'bob/docs/sub/b.txt'), 'utf8')).toBe('beta!');
  });

  test('a share stops while trashed (row kept) and works again after restore', async () => {
    const { bob } = await setup();
    const { hash } = await (await t.req('POST', '/api/share/docs', { token: bob, body: {} })).json();
    expect((await t.req('GET', `/api/public/share/${hash}/`)).status).toBe(200);
    const id = (await del('/docs', bob)).headers.get('x-trash-id')!;
    expect((await t.req('GET', `/api/public/share/${hash}/`)).status).toBe(404);
    expect((await t.req('GET', `/api/public/dl/${hash}/a.txt`)).status).toBe(404);
    expect((await t.req('GET', '/api/shares', { token: bob })).status).toBe(200);
    expect(await t.s.stores.shares.byHash(hash)).not.toBeNull(); // not deleted, waiting in the trash
    expect((await restore(id, bob)).status).toBe(200);
    const r = await t.req('GET', `/api/public/share/${hash}/`);
    expect(r.status).toBe(200);
    expect(await r.text()).toContain('a.txt');
  });

  test('a share on an item restored under another name follows it', async () => {
    const { bob } = await setup();
    const { hash } = await (await t.req('POST', '/api/share/docs/a.txt', { token: bob, body: {} })).json();
    const id = (await del('/docs/a.txt', bob)).headers.get('x-trash-id')!;
    writeFileSync(join(t.root, 'bob/docs/a.txt'), 'new one');
    expect((await t.req('GET', `/api/public/dl/${hash}`)).status).toBe(404); // never the new file
    expect((await restore(id, bob, 'rename')).status).toBe(200);
    const r = await t.req('GET', `/api/public/dl/${hash}`);
    expect(r.status).toBe(200);
    expect(await r.text()).toBe('alpha');
  });

  test('a name clash: 409, then keep both or replace (what is replaced goes to the trash)', async () => {
    // With versions on, a file replaced by a restore becomes a version instead (tests/api/versions.test.ts).
    const { bob } = await setup({ versions: { enabled: false } });
    const id = (await del('/docs/a.txt', bob)).headers.get('x-trash-id')!;
    writeFileSync(join(t.root, 'bob/docs/a.txt'), 'second');
    const clash = await restore(id, bob);
    expect(clash.status).toBe(409);
    expect((await trashList(bob)).items).toHaveLength(1); // still in the trash
    expect(await (await restore(id, bob, 'rename')).json()).toEqual({ path: '/docs/a(1).txt' });
    expect(readFileSync(join(t.root, 'bob/docs/a(1).txt'), 'utf8')).toBe('alpha');
    const id2 = (await del('/docs/a(1).txt', bob)).headers.get('x-trash-id')!;
    expect((await restore(id2, bob, 'bogus')).status).toBe(400);
    writeFileSync(join(t.root, 'bob/docs/a(1).txt'), 'third');
    expect((await restore(id2, bob, 'replace')).status).toBe(200);
    expect(readFileSync(join(t.root, 'bob/docs/a(1).txt'), 'utf8')).toBe('alpha');
    const left = (await trashList(bob)).items;
    expect(left).toHaveLength(1);
    expect(left[0]!.name).toBe('a(1).txt');
  });
});

describe('expiry', () => {
  test('retention: items older than retentionDays are deleted for good by the purge', async () => {
    const { bob } = await setup({ trash: { enabled: true, retentionDays: 2, maxBytes: 0 } });
    const old = (await del('/docs/a.txt', bob)).headers.get('x-trash-id')!;
    const fresh = (await del('/docs/sub', bob)).headers.get('x-trash-id')!;
    await t.s.db.run('UPDATE trash SET deleted_at = ? WHERE id = ?', Date.now() - 3 * 86_400_000, old);
    expect(await t.s.trash.purge.run()).toBe(1);
    expect((await trashList(bob)).items.map((i) => i.id)).toEqual([fresh]);
    expect(existsSync(join(trashDir(), '2', old))).toBe(false);
  });

  test('size cap: past maxBytes the oldest go first; the newest item always stays', async () => {
    const { bob } = await setup({ trash: { enabled: true, retentionDays: 30, maxBytes: 8 } });
    writeFileSync(join(t.root, 'bob/docs/big.bin'), Buffer.alloc(20));
    const a = (await del('/docs/a.txt', bob)).headers.get('x-trash-id')!; // 5 bytes
    await t.s.db.run('UPDATE trash SET deleted_at = deleted_at - 1000 WHERE id = ?', a);
    const b = (await del('/docs/sub/b.txt', bob)).headers.get('x-trash-id')!; // 5 more: 10 > 8, a goes
    expect((await trashList(bob)).items.map((i) => i.id)).toEqual([b]);
    expect(existsSync(join(trashDir(), '2', a))).toBe(false);
    await t.s.db.run('UPDATE trash SET deleted_at = deleted_at - 1000 WHERE id = ?', b);
    const big = (await del('/docs/big.bin', bob)).headers.get('x-trash-id')!; // alone above the cap: kept, b goes
    expect((await trashList(bob)).items.map((i) => i.id)).toEqual([big]);
  });

  test('a per-user override: no trash for bob (permanent delete), the global one for carol', async () => {
    const { bob, carol, admin } = await setup();
    const r = await t.req('PUT', '/api/users/2', { token: admin, body: { what: 'user', which: ['trash'], current_password: ADMIN_PASSWORD, data: { id: 2, trash: { enabled: false } } } });
    expect(r.status).toBe(200);
    expect((await t.req('PUT', '/api/users/3', { token: carol, body: { what: 'user', which: ['trash'], data: { id: 3, trash: { enabled: false } } } })).status).toBe(403);
    expect((await t.req('PUT', '/api/users/2', { token: admin, body: { what: 'user', which: ['trash'], current_password: ADMIN_PASSWORD, data: { id: 2, trash: { retentionDays: -1 } } } })).status).toBe(400);
    const d = await del('/docs/a.txt', bob);
    expect(d.status).toBe(204);
    expect(d.headers.get('x-trash-id')).toBeNull();
    expect((await trashList(bob)).settings.enabled).toBe(false);
    writeFileSync(join(t.root, 'carol/c.txt'), 'c');
    expect((await del('/c.txt', carol)).headers.get('x-trash-id')).toBeTruthy();
  });
});

describe('permissions, rules and reach', () => {
  test('trashing needs delete and the rules on the whole tree; nothing moves when refused', async () => {
    const { bob } = await setup();
    const { bob: _b, ...rest } = { bob };
    void rest;
    const nodel = await t.userToken('nodel', { delete: false }, { scope: '/bob' });
    expect((await del('/docs/a.txt', nodel)).status).toBe(403);
    await t.s.settings.update({ rules: [{ allow: false, regex: false, path: '/bob/docs/sub/b.txt', regexp: null }] }, ['rules']);
    const ruled = await t.userToken('ruled', {}, { scope: '/' });
    expect((await del('/bob/docs', ruled)).status).toBe(403);
    expect(existsSync(join(t.root, 'bob/docs/sub/b.txt'))).toBe(true);
    expect(existsSync(join(t.root, 'bob/docs/a.txt'))).toBe(true);
    expect((await t.s.trash.list({ user: null } as never)).length).toBe(0);
  });

  test('restore needs create at the destination and the rules on every restored descendant', async () => {
    const { bob, admin } = await setup();
    const id = (await del('/docs/sub', bob)).headers.get('x-trash-id')!;
    await t.req('PUT', '/api/users/2', { token: admin, body: { what: 'user', which: ['perm'], current_password: ADMIN_PASSWORD, data: { id: 2, perm: { create: false, delete: true, download: true } } } });
    const bob2 = await t.login('bob', 'bobs-long-password-4410');
    expect((await restore(id, bob2)).status).toBe(403);
    await t.req('PUT', '/api/users/2', { token: admin, body: { what: 'user', which: ['perm', 'rules'], current_password: ADMIN_PASSWORD, data: { id: 2, perm: { create: true, delete: true, download: true }, rules: [{ allow: false, regex: false, path: '/docs/sub/b.txt', regexp: null }] } } });
    const bob3 = await t.login('bob', 'bobs-long-password-4410');
    expect((await restore(id, bob3)).status).toBe(403);
    expect((await trashList(bob3)).items).toHaveLength(1); // still there, untouched
    expect(existsSync(join(t.root, 'bob/docs/sub'))).toBe(false);
  });

  test('another user\'s trash is invisible; admins see all and one user\'s with ?user=', async () => {
    const { bob, carol, admin } = await setup();
    const id = (await del('/docs/a.txt', bob)).headers.get('x-trash-id')!;
    expect((await trashList(carol)).items).toEqual([]);
    expect((await t.req('GET', '/api/trash?user=bob', { token: carol })).status).toBe(403);
    expect((await restore(id, carol)).status).toBe(404);
    expect((await t.req('DELETE', `/api/trash/${id}`, { token: carol })).status).toBe(404);
    expect(await (await t.req('DELETE', '/api/trash', { token: carol })).json()).toEqual({ deleted: 0 });
    expect((await trashList(bob)).items).toHaveLength(1);
    expect((await trashList(admin)).items.map((i) => i.owner)).toEqual(['bob']);
    expect((await trashList(admin, '?user=carol')).items).toEqual([]);
    expect((await trashList(admin, '?user=2')).items).toHaveLength(1);
    expect((await t.req('GET', '/api/trash?user=nobody', { token: admin })).status).toBe(404);
    expect((await t.req('GET', '/api/trash')).status).toBe(401);
  });

  test('restore is refused when the original folder is outside the restorer\'s scope', async () => {
    const { bob, carol } = await setup();
    const id = (await del('/docs/a.txt', bob)).headers.get('x-trash-id')!;
    await t.s.db.run('UPDATE trash SET owner_id = 3 WHERE id = ?', id); // as if carol had deleted it from /bob
    expect((await restore(id, carol)).status).toBe(403);
    void bob;
  });

  test('the trash is never listed nor reachable, even from the whole root', async () => {
    const { bob, admin } = await setup();
    const id = (await del('/docs/a.txt', bob)).headers.get('x-trash-id')!;
    symlinkSync(join(trashDir(), '2', id, 'a.txt'), join(t.root, 'link-into-trash'));
    expect(await names('/', admin)).not.toContain('.filedeck-trash');
    expect(await names('/', admin)).not.toContain('link-into-trash');
    for (const p of ['/.filedeck-trash', `/.filedeck-trash/2/${id}/a.txt`, '/link-into-trash'])
      expect((await t.req('GET', `/api/resources${p}`, { token: admin })).status).toBe(404);
    expect((await t.req('GET', `/api/raw/.filedeck-trash/2/${id}/a.txt`, { token: admin })).status).toBe(404);
    expect((await t.req('DELETE', `/api/resources/.filedeck-trash`, { token: admin })).status).toBe(404);
    expect((await t.req('POST', '/api/resources/.filedeck-trash/x.txt', { token: admin, raw: 'x' })).status).toBe(404);
    expect((await t.req('PATCH', `/api/resources/bob/docs/sub?action=rename&destination=${encodeURIComponent('/.filedeck-trash/sub')}`, { token: admin })).status).toBe(404);
    const search = await (await t.req('GET', '/api/search/?query=a.txt', { token: admin })).text();
    expect(search).not.toContain('a.txt');
    const tree = await (await t.req('GET', '/api/tree/', { token: admin })).text();
    expect(tree).not.toContain('filedeck-trash');
    const zip = await (await t.req('GET', '/api/raw/?algo=tar', { token: admin })).arrayBuffer();
    expect(Buffer.from(zip).includes('filedeck-trash')).toBe(false);
    expect(readdirSync(join(trashDir(), '2', id))).toEqual(['a.txt']);
  });
});

describe('delete forever, empty, trash off', () => {
  test('a missing item is a 404 either way, and nothing is recorded', async () => {
    const { bob } = await setup();
    expect((await del('/nope.txt', bob)).status).toBe(404);
    expect((await del('/nope.txt', bob, '?permanent=true')).status).toBe(404);
    expect((await del('/', bob)).status).toBe(403);
    expect((await trashList(bob)).items).toEqual([]);
  });

  test('?permanent=true and X-Permanent delete for good; DELETE /api/trash/{id} and /api/trash empty', async () => {
    const { bob } = await setup();
    expect((await del('/docs/a.txt', bob, '?permanent=true')).headers.get('x-trash-id')).toBeNull();
    expect((await t.req('DELETE', '/api/resources/docs/sub/b.txt', { token: bob, headers: { 'X-Permanent': 'true' } })).status).toBe(204);
    expect((await trashList(bob)).items).toEqual([]);
    writeFileSync(join(t.root, 'bob/one.txt'), '1');
    writeFileSync(join(t.root, 'bob/two.txt'), '2');
    writeFileSync(join(t.root, 'bob/three.txt'), '3');
    const one = (await del('/one.txt', bob)).headers.get('x-trash-id')!;
    await del('/two.txt', bob);
    await del('/three.txt', bob);
    expect((await t.req('DELETE', `/api/trash/${one}`, { token: bob })).status).toBe(204);
    expect(existsSync(join(trashDir(), '2', one))).toBe(false);
    expect((await t.req('DELETE', `/api/trash/${one}`, { token: bob })).status).toBe(404);
    expect((await t.req('DELETE', '/api/trash?olderThan=soon', { token: bob })).status).toBe(400);
    expect(await (await t.req('DELETE', '/api/trash?olderThan=7d', { token: bob })).json()).toEqual({ deleted: 0 });
    expect(await (await t.req('DELETE', '/api/trash', { token: bob })).json()).toEqual({ deleted: 2 });
    expect(readdirSync(join(trashDir(), '2'))).toEqual([]);
  });

  test('with the trash off, DELETE is permanent as before', async () => {
    const { bob, admin } = await setup();
    const r = await t.req('PUT', '/api/settings', { token: admin, body: { trash: { enabled: false } } });
    expect(r.status).toBe(200);
    expect((await t.req('PUT', '/api/settings', { token: admin, body: { trash: { maxBytes: 'lots' } } })).status).toBe(400);
    expect((await (await t.req('GET', '/api/settings', { token: admin })).json()).trash).toEqual({ enabled: false, retentionDays: 30, maxBytes: 0 });
    const d = await del('/docs', bob);
    expect(d.status).toBe(204);
    expect(d.headers.get('x-trash-id')).toBeNull();
    expect(existsSync(join(t.root, 'bob/docs'))).toBe(false);
    expect((await trashList(bob)).items).toEqual([]);
  });
});
