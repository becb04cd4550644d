import { afterEach, describe, expect, test } from 'bun:test';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeTestApp, type TestApp } from '../helpers/test-app';
import { runScenarios, type Scenario, type ScenarioValues } from '../helpers/scenario';

// File versions (issue 35, decision 0047): every overwrite path keeps exactly one version with the old bytes; versions
// follow renames, moves and the trash; a restore is undoable; reading, restoring and deleting follow the file policy.
let t: TestApp;
afterEach(() => t?.close());

const sha = (b: string | Uint8Array) => createHash('sha256').update(b).digest('hex');
const ALL = { create: true, rename: true, modify: true, delete: true, share: true, download: true };
const NONE = { create: false, rename: false, modify: false, delete: false, share: false, download: false };
type V = { id: string; size: number; cause: string; replacedBy: string };

async function setup() {
  t = await makeTestApp();
  mkdirSync(join(t.root, 'bob/docs/sub'), { recursive: true });
  writeFileSync(join(t.root, 'bob/docs/a.txt'), 'old a');
  writeFileSync(join(t.root, 'bob/docs/b.txt'), 'old b');
  writeFileSync(join(t.root, 'bob/docs/sub/c.txt'), 'old c');
  return t.userToken('bob', ALL, { scope: '/bob' });
}
const list = async (token: string, path: string): Promise<V[]> => {
  const r = await t.req('GET', `/api/versions${path}`, { token });
  expect(r.status).toBe(200);
  return (await r.json()) as V[];
};
const bytesOf = async (token: string, path: string, id: string) => {
  const r = await t.req('GET', `/api/versions${path}?version=${id}`, { token });
  expect(r.status).toBe(200);
  return new Uint8Array(await r.arrayBuffer());
};
/** Exactly one version of `path`, holding `old` (by checksum), with this cause. */
async function oneVersion(token: string, path: string, old: string, cause: string) {
  const vs = await list(token, path);
  expect(vs.map((v) => v.cause)).toEqual([cause]);
  expect(sha(await bytesOf(token, path, vs[0]!.id))).toBe(sha(old));
  expect(vs[0]!.replacedBy).toBe('bob');
  return vs[0]!;
}
const dest = (p: string) => encodeURIComponent(p);

describe('each overwrite path keeps one version with the old bytes', () => {
  test('save (PUT)', async () => {
    const bob = await setup();
    expect((await t.req('PUT', '/api/resources/docs/a.txt', { token: bob, raw: 'new a' })).status).toBe(200);
    await oneVersion(bob, '/docs/a.txt', 'old a', 'save');
    expect(readFileSync(join(t.root, 'bob/docs/a.txt'), 'utf8')).toBe('new a');
    const trash = join(t.root, '.filedeck-trash');
    expect(existsSync(trash) ? readdirSync(trash).filter((n) => n !== '.root-id') : []).toEqual([]); // not the trash
  });

  test('upload with override', async () => {
    const bob = await setup();
    expect((await t.req('POST', '/api/resources/docs/a.txt?override=true', { token: bob, raw: 'up a' })).status).toBe(200);
    await oneVersion(bob, '/docs/a.txt', 'old a', 'upload');
  });

  test('tus upload with override', async () => {
    const bob = await setup();
    const c = await t.req('POST', '/api/tus/docs/a.txt?override=true', { token: bob, headers: { 'Upload-Length': '5' } });
    expect(c.status).toBe(201);
    const p = await t.req('PATCH', '/api/tus/docs/a.txt', { token: bob, headers: { 'Content-Type': 'application/offset+octet-stream', 'Upload-Offset': '0' }, raw: 'tus a' });
    expect(p.status).toBe(204);
    await oneVersion(bob, '/docs/a.txt', 'old a', 'upload');
  });

  test('copy over a file, move over a file', async () => {
    const bob = await setup();
    expect((await t.req('PATCH', `/api/resources/docs/b.txt?action=copy&destination=${dest('/docs/a.txt')}&override=true`, { token: bob })).status).toBe(200);
    await oneVersion(bob, '/docs/a.txt', 'old a', 'copy');
    expect((await t.req('PATCH', `/api/resources/docs/sub/c.txt?action=rename&destination=${dest('/docs/b.txt')}&override=true`, { token: bob })).status).toBe(200);
    await oneVersion(bob, '/docs/b.txt', 'old b', 'move');
  });

  test('trash restore with replace', async () => {
    const bob = await setup();
    expect((await t.req('DELETE', '/api/resources/docs/a.txt', { token: bob })).status).toBe(204);
    const items = (await (await t.req('GET', '/api/trash', { token: bob })).json()).items as { id: string }[];
    writeFileSync(join(t.root, 'bob/docs/a.txt'), 'newer a');
    expect((await t.req('POST', `/api/trash/${items[0]!.id}/restore?conflict=replace`, { token: bob })).status).toBe(200);
    expect(readFileSync(join(t.root, 'bob/docs/a.txt'), 'utf8')).toBe('old a');
    await oneVersion(bob, '/docs/a.txt', 'newer a', 'restore');
  });

  test('version restore: the current content becomes a version, so the restore is undone by restoring it', async () => {
    const bob = await setup();
    await t.req('PUT', '/api/resources/docs/a.txt', { token: bob, raw: 'new a' });
    const v = await oneVersion(bob, '/docs/a.txt', 'old a', 'save');
    const r = await t.req('POST', `/api/versions/docs/a.txt?version=${v.id}&action=restore`, { token: bob });
    expect(r.status).toBe(200);
    const { restored, kept } = (await r.json()) as { restored: string; kept: string };
    expect(restored).toBe(v.id);
    expect(readFileSync(join(t.root, 'bob/docs/a.txt'), 'utf8')).toBe('old a');
    expect(sha(await bytesOf(bob, '/docs/a.txt', kept))).toBe(sha('new a'));
    expect((await t.req('POST', `/api/versions/docs/a.txt?version=${kept}&action=restore`, { token: bob })).status).toBe(200);
    expect(readFileSync(join(t.root, 'bob/docs/a.txt'), 'utf8')).toBe('new a');
  });

  test('versions off (global): the replaced file goes to the trash as before', async () => {
    const bob = await setup();
    const admin = await t.adminToken();
    expect((await t.req('PUT', '/api/settings', { token: admin, body: { versions: { enabled: false } } })).status).toBe(200);
    await t.req('PUT', '/api/resources/docs/a.txt', { token: bob, raw: 'new a' });
    expect(await list(bob, '/docs/a.txt')).toEqual([]);
    const items = (await (await t.req('GET', '/api/trash', { token: bob })).json()).items as { name: string }[];
    expect(items.map((i) => i.name)).toEqual(['a.txt']);
  });
});

describe('settings', () => {
  test('global and per-user settings are checked; the user override is admin-only and can turn versions off', async () => {
    const bob = await setup();
    const admin = await t.adminToken();
    expect((await t.req('PUT', '/api/settings', { token: admin, body: { versions: { maxFreeSharePercent: 0 } } })).status).toBe(400);
    expect((await t.req('PUT', '/api/settings', { token: admin, body: { versions: { bogus: 1 } } })).status).toBe(400);
    expect((await t.req('PUT', '/api/settings', { token: admin, body: { versions: { maxPerFile: 5 } } })).status).toBe(200);
    const users = (await (await t.req('GET', '/api/users', { token: admin })).json()) as { id: number; username: string }[];
    const id = users.find((u) => u.username === 'bob')!.id;
    expect((await t.req('PUT', `/api/users/${id}`, { token: bob, body: { which: ['versions'], data: { versions: { enabled: false } } } })).status).toBe(403);
    const r = await t.req('PUT', `/api/users/${id}`, { token: admin, body: { which: ['versions'], data: { versions: { enabled: false } } } });
    expect(r.status).toBe(200);
    await t.req('PUT', '/api/resources/docs/a.txt', { token: bob, raw: 'new a' });
    expect(await list(bob, '/docs/a.txt')).toEqual([]);
  });
});

describe('versions follow their file', () => {
  test('rename, move of a parent folder, delete to the trash and restore; a copy takes none', async () => {
    const bob = await setup();
    await t.req('PUT', '/api/resources/docs/sub/c.txt', { token: bob, raw: 'new c' });
    expect((await list(bob, '/docs/sub/c.txt')).length).toBe(1);
    expect((await t.req('PATCH', `/api/resources/docs/sub/c.txt?action=rename&destination=${dest('/docs/sub/d.txt')}`, { token: bob })).status).toBe(200);
    expect((await list(bob, '/docs/sub/d.txt')).length).toBe(1);
    expect((await t.req('PATCH', `/api/resources/docs/sub?action=rename&destination=${dest('/moved')}`, { token: bob })).status).toBe(200);
    const [v] = await list(bob, '/moved/d.txt');
    expect(sha(await bytesOf(bob, '/moved/d.txt', v!.id))).toBe(sha('old c'));
    expect((await t.req('PATCH', `/api/resources/moved/d.txt?action=copy&destination=${dest('/copy.txt')}`, { token: bob })).status).toBe(200);
    expect(await list(bob, '/copy.txt')).toEqual([]);
    expect((await t.req('DELETE', '/api/resources/moved', { token: bob })).status).toBe(204);
    writeFileSync(join(t.root, 'bob/moved.txt'), 'x');
    const items = (await (await t.req('GET', '/api/trash', { token: bob })).json()).items as { id: string }[];
    expect((await t.req('POST', `/api/trash/${items[0]!.id}/restore`, { token: bob })).status).toBe(200);
    expect((await list(bob, '/moved/d.txt')).map((x) => x.id)).toEqual([v!.id]);
  });

  test('a delete for good, and an emptied trash, remove the versions with their file', async () => {
    const bob = await setup();
    await t.req('PUT', '/api/resources/docs/a.txt', { token: bob, raw: 'new a' });
    await t.req('PUT', '/api/resources/docs/b.txt', { token: bob, raw: 'new b' });
    const files = () => readdirSync(join(t.root, '.filedeck-versions'));
    expect(files().length).toBe(2);
    expect((await t.req('DELETE', '/api/resources/docs/a.txt?permanent=true', { token: bob })).status).toBe(204);
    expect(files().length).toBe(1);
    expect((await t.req('DELETE', '/api/resources/docs/b.txt', { token: bob })).status).toBe(204);
    expect(files().length).toBe(1);
    expect((await t.req('DELETE', '/api/trash', { token: bob })).status).toBe(200);
    expect(files()).toEqual([]);
  });

  test('the versions folder is reserved and never listed', async () => {
    const bob = await setup();
    const admin = await t.adminToken();
    await t.req('PUT', '/api/resources/docs/a.txt', { token: bob, raw: 'new a' });
    expect(await (await t.req('GET', '/api/resources/', { token: admin })).text()).not.toContain('filedeck-versions');
    expect((await t.req('GET', '/api/resources/.filedeck-versions/', { token: admin })).status).toBe(404);
    expect([400, 404]).toContain((await t.req('POST', '/api/resources/.filedeck-versions/x', { token: admin, raw: 'x' })).status);
    expect((await t.req('POST', '/api/resources/.FILEDECK-VERSIONS', { token: admin, raw: 'x' })).status).toBe(400);
  });
});

// Permissions: reading needs download, restoring modify, deleting delete; another user, a share visitor and an API
// token limited to a folder reach nothing else. Public shares have no route to versions at all (versions.routes.ts
// is `auth: 'user'`: a share visitor is anonymous there).
async function permSetup(app: TestApp): Promise<ScenarioValues> {
  t = app;
  mkdirSync(join(app.root, 'bob/in'), { recursive: true });
  writeFileSync(join(app.root, 'bob/in/a.txt'), 'one');
  writeFileSync(join(app.root, 'bob/top.txt'), 'top');
  const bob = await app.userToken('bob', ALL, { scope: '/bob' });
  await app.req('PUT', '/api/resources/in/a.txt', { token: bob, raw: 'two' });
  await app.req('PUT', '/api/resources/top.txt', { token: bob, raw: 'TOP' });
  const [v] = (await (await app.req('GET', '/api/versions/in/a.txt', { token: bob })).json()) as V[];
  const [w] = (await (await app.req('GET', '/api/versions/top.txt', { token: bob })).json()) as V[];
  const tok = async (body: Record<string, unknown>) => ((await (await app.req('POST', '/api/account/tokens', { token: bob, body })).json()) as { token: string }).token;
  return {
    bob, v: v!.id, w: w!.id,
    dlOnly: await app.userToken('dl', { ...NONE, download: true }, { scope: '/bob' }),
    noDl: await app.userToken('nodl', { ...NONE, modify: true, delete: true }, { scope: '/bob' }),
    carol: await app.userToken('carol', ALL, { scope: '/carol' }),
    folder: await tok({ name: 'f', perm: ['download', 'modify', 'delete', 'create', 'rename'], path: '/in' }),
  };
}
const tokenAs = (k: string) => (_t: TestApp, v: ScenarioValues) => ({ 'X-Auth': v[k]! });
const url = (path: string, q: string) => (_t: TestApp, v: ScenarioValues) => `/api/versions${path}${q.replace('$v', v.v!).replace('$w', v.w!)}`;
const same = { under: 'bob', after: 'same' as const };
const rows: Scenario[] = [
  { name: 'owner lists', as: 'bob', method: 'GET', url: '/api/versions/in/a.txt', status: 200, contains: '"cause":"save"' },
  { name: 'owner downloads', as: 'bob', method: 'GET', url: url('/in/a.txt', '?version=$v'), status: 200, contains: 'one' },
  { name: 'download-only lists', as: 'dlOnly', method: 'GET', url: '/api/versions/in/a.txt', status: 200 },
  { name: 'download-only may not restore', as: 'dlOnly', method: 'POST', url: url('/in/a.txt', '?version=$v&action=restore'), status: 403, disk: same },
  { name: 'download-only may not delete', as: 'dlOnly', method: 'DELETE', url: url('/in/a.txt', '?version=$v'), status: 403 },
  { name: 'no download: no list', as: 'noDl', method: 'GET', url: '/api/versions/in/a.txt', status: 403 },
  { name: 'no download: no bytes', as: 'noDl', method: 'GET', url: url('/in/a.txt', '?version=$v'), status: 403 },
  { name: 'owner restores', as: 'bob', method: 'POST', url: url('/in/a.txt', '?version=$v&action=restore'), status: 200, disk: { under: 'bob/in', after: { 'a.txt': 'one' } } },
  { name: 'owner deletes', as: 'bob', method: 'DELETE', url: url('/in/a.txt', '?version=$v'), status: 204 },
  { name: 'a version id of another file is a 404', as: 'bob', method: 'GET', url: url('/in/a.txt', '?version=$w'), status: 404 },
  { name: 'another user: not in their scope', as: 'carol', method: 'GET', url: '/api/versions/in/a.txt', status: 404 },
  { name: 'anonymous', as: 'anon', method: 'GET', url: '/api/versions/in/a.txt', status: 401 },
  { name: 'token in its folder lists', as: tokenAs('folder'), method: 'GET', url: '/api/versions/in/a.txt', status: 200 },
  { name: 'token outside its folder', as: tokenAs('folder'), method: 'GET', url: '/api/versions/top.txt', status: 403 },
  { name: 'token outside its folder may not restore', as: tokenAs('folder'), method: 'POST', url: url('/top.txt', '?version=$w&action=restore'), status: 403, disk: same },
  { name: 'bad action', as: 'bob', method: 'POST', url: url('/in/a.txt', '?version=$v&action=zap'), status: 400 },
  { name: 'a folder has no versions', as: 'bob', method: 'GET', url: '/api/versions/in/', status: 400 },
];
runScenarios('versions permissions', permSetup, rows);
