import { afterEach, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ADMIN_PASSWORD, makeTestApp, USER_PASSWORD, type TestApp } from '../helpers/test-app';
import { dest, diskState, fastUserToken, put, userId } from '../helpers/files-fixture';
import { cli } from '../helpers/binary';
import { runScenarios, type Scenario } from '../helpers/scenario';

let t: TestApp;
afterEach(() => t?.close());

const patch = (tok: string, src: string, to: string, q = 'override=true') => t.req('PATCH', `/api/resources${src}?action=copy&destination=${dest(to)}&${q}`, { token: tok });
const move = (tok: string, src: string, to: string, q = 'override=true') => t.req('PATCH', `/api/resources${src}?action=rename&destination=${dest(to)}&${q}`, { token: tok });

describe('one authorization decision: the implicit delete of an override', () => {
  const tree = { 'bob/src.txt': 'new', 'bob/srcdir/x.txt': 'x', 'bob/keep/a.txt': 'a', 'bob/keep/.hidden': 'h', 'bob/keep/secret/s.txt': 's', 'bob/file.txt': 'old' };

  // A user made for one row alone (the old tests' bob), with the permissions and rules that row is about.
  const bobWith = (perm: Record<string, boolean>, extra: Record<string, unknown> = {}): Scenario['as'] => async (t) => ({
    'X-Auth': await fastUserToken(t, 'bob', { modify: true, create: true, rename: true, ...perm }, { scope: '/bob', ...extra }),
  });
  const denied = bobWith({ delete: false });
  const url = (action: string, src: string, to: string) => `/api/resources${src}?action=${action}&destination=${dest(to)}&override=true`;
  const same = { under: '', after: 'same' } as const;
  runScenarios(
    'per caller',
    async (t) => (put(t.root, tree), {}),
    [
      ...(['copy', 'rename'] as const).flatMap((action): Scenario[] => {
        const label = action === 'copy' ? 'copy' : 'move';
        return [
          { name: `${label} of a file over a folder without the delete permission is 403 and changes nothing`, as: denied, method: 'PATCH', url: url(action, '/src.txt', '/keep'), status: 403, disk: same },
          { name: `${label} of a folder over a file without the delete permission is 403 and changes nothing`, as: denied, method: 'PATCH', url: url(action, '/srcdir', '/file.txt'), status: 403, disk: same },
          { name: `${label} over a folder holding a rule-denied file is 403 even with delete, and changes nothing`, as: bobWith({ delete: true }, { rules: [{ allow: false, regex: false, path: '/keep/secret', regexp: null }] }),
            method: 'PATCH', url: url(action, '/src.txt', '/keep'), status: 403, disk: same },
          { name: `${label} of a file over a folder with delete and modify replaces it`, as: bobWith({ delete: true }), method: 'PATCH', url: url(action, '/src.txt', '/keep'), status: 200,
            after: (t) => expect(readFileSync(join(t.root, 'bob/keep'), 'utf8')).toBe('new') },
        ];
      }),
      // Override without modify is 403 for file over file through PATCH, POST and tus, and changes nothing.
      ...([
        ['PATCH', url('copy', '/src.txt', '/file.txt'), {}],
        ['POST', '/api/resources/file.txt?override=true', { raw: 'zzz' }],
        ['POST', '/api/tus/file.txt?override=true', { headers: { 'Upload-Length': '3' } }],
      ] as const).map(([method, u, init]): Scenario => ({
        name: `override without modify, file over file, ${method} ${u.split('?')[0]}: 403, nothing changed`, as: bobWith({ delete: true, modify: false }), method, url: u, ...init, status: 403, disk: same,
      })),
    ],
  );

  test('a folder merged over a folder never deletes; a file meeting a folder inside is 409 before anything changes', async () => {
    t = await makeTestApp();
    put(t.root, { 'bob/a/x.txt': 'new x', 'bob/a/sub': 'a file here', 'bob/b/x.txt': 'old x', 'bob/b/sub/inner.txt': 'i', 'bob/b/only-b.txt': 'b' });
    const bob = await fastUserToken(t, 'bob', { delete: false, modify: true, create: true, rename: true }, { scope: '/bob' });
    const before = diskState(t);
    expect((await patch(bob, '/a', '/b')).status).toBe(409);
    expect(diskState(t)).toEqual(before);
    rmSync(join(t.root, 'bob/a/sub'));
    expect((await patch(bob, '/a', '/b')).status).toBe(200);
    expect(readFileSync(join(t.root, 'bob/b/x.txt'), 'utf8')).toBe('new x');
    expect(readFileSync(join(t.root, 'bob/b/only-b.txt'), 'utf8')).toBe('b');
    expect(existsSync(join(t.root, 'bob/b/sub/inner.txt'))).toBe(true);
  });

  test('the CLI cannot make a link for a user without download (share needs download, decided once)', async () => {
    t = await makeTestApp();
    put(t.root, { 'bob/a.txt': 'a' });
    await fastUserToken(t, 'bob', { share: false, download: false }, { scope: '/bob' });
    await t.s.close();
    const r = await cli(['shares', 'add', '/a.txt', '--user', 'bob', '--database', t.database, '--root', t.root]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('permission');
    t = { ...t, close: async () => rmSync(t.dir, { recursive: true, force: true }) };
  });
});

describe('one way to make a user', () => {
  test('signup and proxy users get the defaults template scope, not the whole root', async () => {
    t = await makeTestApp({ trustedProxies: ['127.0.0.1/32'] } as never, { signup: true });
    (await t.s.settings.update({ defaults: { ...t.s.settings.get().defaults, scope: '/public' } }, ['defaults']));
    expect((await t.req('POST', '/api/signup', { body: { username: 'sam', password: USER_PASSWORD } })).status).toBe(200);
    expect((await t.s.stores.users.byUsername('sam'))!.scope).toBe('/public');
    expect(existsSync(join(t.root, 'public'))).toBe(true);
    const u = await t.s.auth.loginProxy('pat');
    expect(u.scope).toBe('/public');
    expect(u.perm.admin).toBe(false);
  });

  test('a home folder that would contain or lie inside another user\'s scope is refused, and nothing is made', async () => {
    t = await makeTestApp({}, { signup: true, createUserDir: true });
    const admin = await t.adminToken();
    const create = (username: string, scope?: string) =>
      t.req('POST', '/api/users', { token: admin, body: { what: 'user', which: [], current_password: ADMIN_PASSWORD, data: { username, password: USER_PASSWORD, scope: scope ?? '', perm: {} } } });
    expect((await create('carol', '/users/alice/private')).status).toBe(201);
    const before = diskState(t);
    expect((await t.req('POST', '/api/signup', { body: { username: 'alice', password: USER_PASSWORD } })).status).toBe(409);
    expect((await t.s.stores.users.byUsername('alice'))).toBeNull();
    expect(diskState(t)).toEqual(before);
    expect((await create('dora', '/users/eve')).status).toBe(201);
    expect((await t.req('POST', '/api/signup', { body: { username: 'eve', password: USER_PASSWORD } })).status).toBe(409);
    expect((await t.s.stores.users.byUsername('eve'))).toBeNull();
    // a home inside another (non-root) user's scope: that user would see the new user's files
    expect((await create('frank', '/users')).status).toBe(201);
    expect((await t.req('POST', '/api/signup', { body: { username: 'gina', password: USER_PASSWORD } })).status).toBe(409);
    expect(existsSync(join(t.root, 'users/gina'))).toBe(false);
  });

  test('the folder is made before the row: a refused insert removes a folder it made, keeps one that existed', async () => {
    t = await makeTestApp({}, { createUserDir: true });
    await fastUserToken(t, 'zed', {}, {});
    expect(existsSync(join(t.root, 'users/zed'))).toBe(true);
    // same name again: refused before any folder is made
    await expect(t.s.users.create({ username: 'ZED', password: USER_PASSWORD })).rejects.toThrow();
    mkdirSync(join(t.root, 'users/kept'), { recursive: true });
    writeFileSync(join(t.root, 'users/kept/old.txt'), 'old');
    await t.s.users.create({ username: 'kept', password: USER_PASSWORD });
    expect(readFileSync(join(t.root, 'users/kept/old.txt'), 'utf8')).toBe('old');
  });
});

describe('shares pin what they shared', () => {
  const share = async (tok: string, path: string) => {
    const r = await t.req('POST', `/api/share${path}`, { token: tok, body: {} });
    expect(r.status).toBe(200);
    return ((await r.json()) as { hash: string }).hash;
  };
  const open = (hash: string, sub = '') => t.req('GET', `/api/public/dl/${hash}${sub}`);

  test('widening the owner\'s scope never widens an old link', async () => {
    t = await makeTestApp();
    put(t.root, { 'bob/docs/a.txt': 'bob a', 'docs/a.txt': 'ROOT SECRET' });
    const bob = await fastUserToken(t, 'bob', {}, { scope: '/bob' });
    const hash = await share(bob, '/docs');
    await t.s.stores.users.update({ ...(await t.s.stores.users.byId(await userId(t, 'bob')))!, scope: '/' });
    const r = await open(hash, '/a.txt');
    expect(r.status).toBe(200);
    expect(await r.text()).toBe('bob a');
    const list = await (await t.req('GET', `/api/public/share/${hash}`)).json();
    expect(list.path ?? '/').not.toContain('ROOT');
  });

  test('an admin deleting (for good) or moving the owner\'s file ends or moves the link; a new file at the old path is never served', async () => {
    t = await makeTestApp();
    put(t.root, { 'bob/a.txt': 'original', 'bob/b.txt': 'b' });
    const bob = await fastUserToken(t, 'bob', {}, { scope: '/bob' });
    const admin = await t.adminToken();
    const ha = await share(bob, '/a.txt');
    const hb = await share(bob, '/b.txt');
    expect((await t.req('DELETE', '/api/resources/bob/a.txt?permanent=true', { token: admin })).status).toBe(204);
    expect((await t.s.stores.shares.byHash(ha))).toBeNull();
    writeFileSync(join(t.root, 'bob/a.txt'), 'something else');
    expect((await open(ha)).status).toBe(404);
    expect((await move(admin, '/bob/b.txt', '/bob/moved.txt', '')).status).toBe(200);
    expect(await (await open(hb)).text()).toBe('b');
    writeFileSync(join(t.root, 'bob/b.txt'), 'planted');
    expect(await (await open(hb)).text()).toBe('b');
  });

  test('a change made outside the server is found at access time: a replaced item is never served, the link waits', async () => {
    t = await makeTestApp();
    put(t.root, { 'bob/a.txt': 'original', 'bob/d/x.txt': 'x' });
    const bob = await fastUserToken(t, 'bob', {}, { scope: '/bob' });
    const ha = await share(bob, '/a.txt');
    const hd = await share(bob, '/d');
    rmSync(join(t.root, 'bob/a.txt'));
    writeFileSync(join(t.root, 'bob/a.txt'), 'planted by someone');
    rmSync(join(t.root, 'bob/d'), { recursive: true });
    put(t.root, { 'bob/d/x.txt': 'planted' });
    expect((await open(ha)).status).toBe(404);
    expect((await open(hd, '/x.txt')).status).toBe(404);
    // Kept (state "missing"): only the server's own delete, the owner, an admin or expiry end a link.
    expect((await t.s.stores.shares.byHash(ha))).not.toBeNull();
    expect((await t.s.stores.shares.byHash(hd))).not.toBeNull();
  });

  test('saving or overriding the shared file through the server keeps the link, serving the new bytes', async () => {
    t = await makeTestApp();
    put(t.root, { 'bob/a.txt': 'v1' });
    const bob = await fastUserToken(t, 'bob', {}, { scope: '/bob' });
    const ha = await share(bob, '/a.txt');
    expect((await t.req('PUT', '/api/resources/a.txt', { token: bob, raw: 'v2' })).status).toBe(200);
    expect(await (await open(ha)).text()).toBe('v2');
    expect((await t.req('POST', '/api/resources/a.txt?override=true', { token: bob, raw: 'v3' })).status).toBe(200);
    expect(await (await open(ha)).text()).toBe('v3');
  });

  test('narrowing the owner\'s scope stops links outside it (kept, 404) until the scope reaches them again', async () => {
    t = await makeTestApp();
    put(t.root, { 'bob/in/a.txt': 'a', 'bob/out/b.txt': 'b' });
    const bob = await fastUserToken(t, 'bob', {}, { scope: '/bob' });
    const admin = await t.adminToken();
    const hin = await share(bob, '/in/a.txt');
    const hout = await share(bob, '/out/b.txt');
    const bobId = await userId(t, 'bob');
    const r = await t.req('PUT', `/api/users/${bobId}`, { token: admin, body: { what: 'user', which: ['scope'], current_password: ADMIN_PASSWORD, data: { id: bobId, scope: '/bob/in' } } });
    expect(r.status).toBe(200);
    expect((await t.s.stores.shares.byHash(hout))).not.toBeNull();
    expect((await open(hout)).status).toBe(404);
    expect(await (await open(hin)).text()).toBe('a');
  });
});
