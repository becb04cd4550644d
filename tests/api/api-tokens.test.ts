import { afterEach, describe, expect, test } from 'bun:test';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { dest, fastUserToken, userId } from '../helpers/files-fixture';
import { runScenarios, type Scenario, type ScenarioValues } from '../helpers/scenario';
import { makeTestApp, USER_PASSWORD, type TestApp } from '../helpers/test-app';
import { systemActor } from '../../server/services/actor';
import { cli } from '../helpers/binary';

/**
 * Personal API tokens (issue 34): the permission subset, the folder and read-only on every endpoint family (one
 * table, disk snapshots for writes), then the flows: creation rules, hashed at rest, Bearer / X-Auth / Basic,
 * expiry, revocation at once, the brute-force limit, a deleted owner, an owner who loses a permission, jobs.
 */
const ALL = ['create', 'rename', 'modify', 'delete', 'share', 'download'];

function files(t: TestApp): void {
  const bob = join(t.root, 'bob');
  mkdirSync(join(bob, 'in', 'sub'), { recursive: true });
  mkdirSync(join(bob, 'out'), { recursive: true });
  writeFileSync(join(bob, 'in', 'a.txt'), 'in a');
  writeFileSync(join(bob, 'in', 'sub', 'b.txt'), 'in b');
  writeFileSync(join(bob, 'out', 'c.txt'), 'out c');
  writeFileSync(join(bob, 'top.txt'), 'top');
}

async function makeToken(t: TestApp, session: string, body: Record<string, unknown>): Promise<string> {
  const r = await t.req('POST', '/api/account/tokens', { token: session, body });
  if (r.status !== 201) throw new Error(`token ${JSON.stringify(body)}: ${r.status} ${await r.text()}`);
  return ((await r.json()) as { token: string }).token;
}

/** bob (scope /bob, every file permission) with four tokens; the admin with an admin token and a download-only one. */
async function setup(t: TestApp): Promise<ScenarioValues> {
  const bob = await fastUserToken(t, 'bob', { create: true, rename: true, modify: true, delete: true, share: true, download: true, execute: true }, { scope: '/bob' });
  files(t);
  const admin = await t.adminToken();
  return {
    bob,
    bobId: String(await userId(t, 'bob')),
    full: await makeToken(t, bob, { name: 'full', perm: ALL }),
    dl: await makeToken(t, bob, { name: 'dl', perm: ['download'] }),
    folder: await makeToken(t, bob, { name: 'folder', perm: ALL, path: '/in' }),
    ro: await makeToken(t, bob, { name: 'ro', perm: ALL, path: '/in', readOnly: true }),
    adminFull: await makeToken(t, admin, { name: 'admin', perm: ['admin', ...ALL] }),
    adminDl: await makeToken(t, admin, { name: 'admin-dl', perm: ['download'] }),
  };
}

const as = (key: string) => (_t: TestApp, v: ScenarioValues) => ({ 'X-Auth': v[key]! });
const same = { under: 'bob', after: 'same' as const };
const upload = (key: string, path: string, status: number, disk?: Scenario['disk']): Scenario => ({ name: `${key}: upload ${path} -> ${status}`, as: as(key), method: 'POST', url: `/api/resources${path}`, raw: 'new', status, disk: disk ?? same });
const OCTET = { 'Content-Type': 'application/offset+octet-stream' };

const rows: Scenario[] = [
  // Listing: the folder and below; its ancestors show only the branch down to it; elsewhere as if denied.
  { name: 'folder: lists its folder', as: as('folder'), method: 'GET', url: '/api/resources/in/', status: 200, contains: ['a.txt', 'sub'] },
  { name: 'folder: an ancestor shows only the branch', as: as('folder'), method: 'GET', url: '/api/resources/', status: 200, contains: '"in"', excludes: ['out', 'top.txt'] },
  { name: 'folder: a sibling folder is refused', as: as('folder'), method: 'GET', url: '/api/resources/out/', status: 403 },
  { name: 'folder: a file beside the branch is refused', as: as('folder'), method: 'GET', url: '/api/resources/top.txt', status: 403 },
  { name: 'dl (no folder): lists everywhere', as: as('dl'), method: 'GET', url: '/api/resources/', status: 200, contains: ['out', 'top.txt'] },
  // Writes: POST (upload), PUT (save), PATCH (copy/rename), DELETE.
  upload('folder', '/in/new.txt', 200, { under: 'bob', after: { in: '/', 'in/a.txt': 'in a', 'in/new.txt': 'new', 'in/sub': '/', 'in/sub/b.txt': 'in b', out: '/', 'out/c.txt': 'out c', 'top.txt': 'top' } }),
  upload('folder', '/out/new.txt', 403),
  upload('folder', '/new.txt', 403),
  upload('ro', '/in/new.txt', 403),
  upload('dl', '/in/new.txt', 403),
  { name: 'folder: save inside', as: as('folder'), method: 'PUT', url: '/api/resources/in/a.txt', raw: 'changed', status: 200, disk: { under: 'bob/in', after: { 'a.txt': 'changed', sub: '/', 'sub/b.txt': 'in b' } } },
  { name: 'folder: save outside', as: as('folder'), method: 'PUT', url: '/api/resources/top.txt', raw: 'changed', status: 403, disk: same },
  { name: 'ro: save inside', as: as('ro'), method: 'PUT', url: '/api/resources/in/a.txt', raw: 'changed', status: 403, disk: same },
  { name: 'folder: rename inside', as: as('folder'), method: 'PATCH', url: `/api/resources/in/a.txt?action=rename&destination=${dest('/in/a2.txt')}`, status: 200, disk: { under: 'bob/in', after: { 'a2.txt': 'in a', sub: '/', 'sub/b.txt': 'in b' } } },
  { name: 'folder: move out of the folder', as: as('folder'), method: 'PATCH', url: `/api/resources/in/a.txt?action=rename&destination=${dest('/out/a.txt')}`, status: 403, disk: same },
  { name: 'folder: move to an ancestor', as: as('folder'), method: 'PATCH', url: `/api/resources/in/a.txt?action=rename&destination=${dest('/a.txt')}`, status: 403, disk: same },
  { name: 'folder: copy in from outside', as: as('folder'), method: 'PATCH', url: `/api/resources/out/c.txt?action=copy&destination=${dest('/in/c.txt')}`, status: 403, disk: same },
  { name: 'folder: delete inside', as: as('folder'), method: 'DELETE', url: '/api/resources/in/sub/b.txt', status: 204, disk: { under: 'bob/in', after: { 'a.txt': 'in a', sub: '/' } } },
  { name: 'folder: delete outside', as: as('folder'), method: 'DELETE', url: '/api/resources/out/c.txt', status: 403, disk: same },
  { name: 'folder: delete an ancestor', as: as('folder'), method: 'DELETE', url: '/api/resources/', status: 403, disk: same },
  { name: 'ro: delete inside', as: as('ro'), method: 'DELETE', url: '/api/resources/in/a.txt', status: 403, disk: same },
  // Raw downloads and archives.
  { name: 'folder: raw inside', as: as('folder'), method: 'GET', url: '/api/raw/in/a.txt', status: 200, contains: 'in a' },
  { name: 'ro: raw inside', as: as('ro'), method: 'GET', url: '/api/raw/in/a.txt', status: 200, contains: 'in a' },
  { name: 'folder: raw outside', as: as('folder'), method: 'GET', url: '/api/raw/out/c.txt', status: 403 },
  { name: 'folder: archive of its folder', as: as('folder'), method: 'GET', url: '/api/raw/in/?algo=zip', status: 200, contains: 'b.txt', excludes: 'c.txt' },
  { name: 'folder: archive of an ancestor', as: as('folder'), method: 'GET', url: '/api/raw/?algo=zip', status: 403 },
  { name: 'folder: archive of a selection reaching out', as: as('folder'), method: 'GET', url: `/api/raw/?files=${encodeURIComponent('/in/a.txt,/out/c.txt')}&algo=zip`, status: 403 },
  { name: 'create-only token: no download', as: async (t, v) => ({ 'X-Auth': await makeToken(t, v.bob!, { name: 'c', perm: ['create'] }) }), method: 'GET', url: '/api/raw/in/a.txt', status: 403 },
  // Previews, search, usage, checksums.
  { name: 'folder: preview outside', as: as('folder'), method: 'GET', url: '/api/preview/thumb/out/c.txt', status: 403 },
  { name: 'folder: search from the top finds nothing outside', as: as('folder'), method: 'GET', url: '/api/search/?query=.txt', status: 200, excludes: ['c.txt', 'top.txt'] },
  { name: 'folder: search in a sibling', as: as('folder'), method: 'GET', url: '/api/search/out/?query=c', status: 403 },
  { name: 'folder: usage of its folder', as: as('folder'), method: 'GET', url: '/api/usage/in/', status: 200 },
  { name: 'folder: checksum outside', as: as('folder'), method: 'GET', url: '/api/resources/out/c.txt?checksum=sha256', status: 403 },
  // tus.
  { name: 'folder: tus inside', as: as('folder'), method: 'POST', url: '/api/tus/in/t.txt', headers: { 'Upload-Length': '1' }, status: 201 },
  { name: 'folder: tus outside', as: as('folder'), method: 'POST', url: '/api/tus/out/t.txt', headers: { 'Upload-Length': '1' }, status: 403, disk: same },
  { name: 'ro: tus inside', as: as('ro'), method: 'POST', url: '/api/tus/in/t.txt', headers: { 'Upload-Length': '1' }, status: 403, disk: same },
  { name: 'folder: tus PATCH of an upload another session began outside', as: as('folder'), before: async (t, v) => void (await t.req('POST', '/api/tus/out/t.txt', { token: v.bob, headers: { 'Upload-Length': '1' } })), method: 'PATCH', url: '/api/tus/out/t.txt', headers: { ...OCTET, 'Upload-Offset': '0' }, raw: 'x', status: 403, disk: same },
  // Shares.
  { name: 'folder: share inside', as: as('folder'), method: 'POST', url: '/api/share/in/a.txt', body: {}, status: 200, contains: '"path":"/in/a.txt"' },
  { name: 'folder: share outside', as: as('folder'), method: 'POST', url: '/api/share/out/c.txt', body: {}, status: 403 },
  { name: 'ro: share inside (read-only: download only)', as: as('ro'), method: 'POST', url: '/api/share/in/a.txt', body: {}, status: 403 },
  { name: 'folder: links outside the folder are not listed', as: as('folder'), before: async (t, v) => void (await t.req('POST', '/api/share/out/c.txt', { token: v.bob, body: {} })), method: 'GET', url: '/api/shares', status: 200, excludes: 'c.txt' },
  // Jobs.
  { name: 'folder: copy job into its folder', as: as('folder'), method: 'POST', url: '/api/jobs', body: { kind: 'copy', items: ['/in/a.txt'], destination: '/in/sub' }, status: 202 },
  { name: 'folder: copy job to a sibling', as: as('folder'), method: 'POST', url: '/api/jobs', body: { kind: 'copy', items: ['/in/a.txt'], destination: '/out' }, status: 403, disk: same },
  { name: 'folder: delete job outside', as: as('folder'), method: 'POST', url: '/api/jobs', body: { kind: 'delete', items: ['/out/c.txt'] }, status: 403, disk: same },
  { name: 'ro: copy job', as: as('ro'), method: 'POST', url: '/api/jobs', body: { kind: 'copy', items: ['/in/a.txt'], destination: '/in/sub' }, status: 403, disk: same },
  // Trash: items deleted outside the folder are not the token's.
  { name: 'folder: trash lists only what was deleted inside', as: as('folder'), before: async (t, v) => void (await t.req('DELETE', '/api/resources/out/c.txt', { token: v.bob })), method: 'GET', url: '/api/trash', status: 200, excludes: 'c.txt' },
  { name: 'folder: cannot empty the trash of what was deleted outside', as: as('folder'), before: async (t, v) => void (await t.req('DELETE', '/api/resources/out/c.txt', { token: v.bob })), method: 'DELETE', url: '/api/trash', status: 200, json: { deleted: 0 } },
  // Commands and the shell: never with a token.
  { name: 'full: the command socket is refused', as: as('full'), method: 'GET', url: '/api/command/', headers: { Upgrade: 'websocket', Connection: 'Upgrade' }, status: 403 },
  // Admin endpoints: the token's admin permission, and the owner's.
  { name: 'admin token: settings', as: as('adminFull'), method: 'GET', url: '/api/settings', status: 200 },
  { name: 'admin download-only token: settings', as: as('adminDl'), method: 'GET', url: '/api/settings', status: 403 },
  { name: 'admin download-only token: users', as: as('adminDl'), method: 'GET', url: '/api/users', status: 403 },
  { name: 'bob full token: users', as: as('full'), method: 'GET', url: '/api/users', status: 403 },
  // The account, passwords, renew, logout: never with a token.
  { name: 'full: account sessions', as: as('full'), method: 'GET', url: '/api/account/sessions', status: 403 },
  { name: 'full: account tokens', as: as('full'), method: 'GET', url: '/api/account/tokens', status: 403 },
  { name: 'full: make another token', as: as('full'), method: 'POST', url: '/api/account/tokens', body: { name: 'x', perm: ['download'] }, status: 403 },
  { name: 'full: account factors', as: as('full'), method: 'GET', url: '/api/account/factors', status: 403 },
  { name: 'admin token: account tokens', as: as('adminFull'), method: 'GET', url: '/api/account/tokens', status: 403 },
  { name: 'full: change the password', as: as('full'), method: 'PUT', url: (_t, v) => `/api/users/${v.bobId}`, body: { what: 'user', which: ['password'], current_password: USER_PASSWORD, data: { password: 'another long password 1' } }, status: 403 },
  { name: 'admin token: change a password', as: as('adminFull'), method: 'PUT', url: (_t, v) => `/api/users/${v.bobId}`, body: { what: 'user', which: ['password'], data: { password: 'another long password 1' } }, status: 403 },
  { name: 'full: delete its own account', as: as('full'), method: 'DELETE', url: (_t, v) => `/api/users/${v.bobId}`, status: 403, disk: same },
  { name: 'full: renew', as: as('full'), method: 'POST', url: '/api/renew', status: 401 },
  { name: 'full: logout', as: as('full'), method: 'POST', url: '/api/logout', status: 403 },
  { name: 'full: preferences of its own user', as: as('full'), method: 'PUT', url: (_t, v) => `/api/users/${v.bobId}`, body: { what: 'user', which: ['locale'], data: { locale: 'fr' } }, status: 200 },
];

runScenarios('API tokens: permissions, folder and read-only on every endpoint family', setup, rows);

describe('API tokens: flows', () => {
  let t: TestApp;
  afterEach(() => t?.close());
  const make = (session: string, body: Record<string, unknown>) => t.req('POST', '/api/account/tokens', { token: session, body });
  const list = (tok: string, headers: Record<string, string> = { 'X-Auth': tok }) => t.req('GET', '/api/resources/in/', { headers });

  test('creation: a subset of the owner\'s permissions, an existing folder, no admin or execute with a folder, names, limits', async () => {
    t = await makeTestApp();
    const bob = await fastUserToken(t, 'bob', { create: true, download: true, share: false, execute: true }, { scope: '/bob' });
    files(t);
    expect((await make(bob, { name: 'x', perm: ['share'] })).status).toBe(403); // bob may not share
    expect((await make(bob, { name: 'x', perm: ['admin'] })).status).toBe(403);
    expect((await make(bob, { name: 'x', perm: ['fly'] })).status).toBe(400);
    expect((await make(bob, { name: '', perm: [] })).status).toBe(400);
    expect((await make(bob, { name: 'x'.repeat(101), perm: [] })).status).toBe(400);
    expect((await make(bob, { name: 'x', perm: ['download'], path: '/nope' })).status).toBe(400);
    expect((await make(bob, { name: 'x', perm: ['download'], path: '/top.txt' })).status).toBe(400);
    expect((await make(bob, { name: 'x', perm: ['download'], path: '/../etc' })).status).toBe(400);
    expect((await make(bob, { name: 'x', perm: ['execute'], path: '/in' })).status).toBe(400);
    expect((await make(bob, { name: 'x', perm: ['download'], expiresInDays: 0 })).status).toBe(400);
    expect((await make(bob, { name: 'x', perm: ['download'], expiresInDays: 3651 })).status).toBe(400);
    const ok = await make(bob, { name: 'x', perm: ['download'], path: '/in/', expiresInDays: 30, readOnly: true });
    expect(ok.status).toBe(201);
    const made = (await ok.json()) as { token: string; path: string; expiresAt: number; readOnly: boolean };
    expect(made).toMatchObject({ path: '/in', readOnly: true });
    expect(made.token).toMatch(/^fdt_[A-Za-z0-9]{12}_[A-Za-z0-9_-]{32}$/);
    expect((await make(bob, { name: 'x', perm: [] })).status).toBe(409);
    for (let i = 1; i < 50; i++) expect((await make(bob, { name: `n${i}`, perm: [] })).status).toBe(201);
    expect((await make(bob, { name: 'n50', perm: [] })).status).toBe(400);
    const listed = (await (await t.req('GET', '/api/account/tokens', { token: bob })).json()) as { token?: string }[];
    expect(listed).toHaveLength(50);
    expect(JSON.stringify(listed)).not.toContain('fdt_');
  });

  test('hashed at rest; accepted as Bearer, X-Auth and Basic (any name or the owner\'s); last use recorded', async () => {
    t = await makeTestApp();
    const bob = await fastUserToken(t, 'bob', { download: true }, { scope: '/bob' });
    files(t);
    const token = await makeToken(t, bob, { name: 'script', perm: ['download'] });
    const secret = token.slice(17);
    const rows = await t.s.db.all<Record<string, unknown>>('SELECT * FROM api_tokens');
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(secret);
    expect(rows[0]!.secret_hash).toBe(new Bun.CryptoHasher('sha256').update(secret).digest('base64url'));
    expect((await list(token, { Authorization: `Bearer ${token}` })).status).toBe(200);
    expect((await list(token)).status).toBe(200);
    const basic = (user: string) => ({ Authorization: `Basic ${Buffer.from(`${user}:${token}`).toString('base64')}` });
    expect((await list(token, basic(''))).status).toBe(200);
    expect((await list(token, basic('BOB'))).status).toBe(200);
    expect((await list(token, basic('alice'))).status).toBe(401);
    expect((await list(token, { Authorization: `Basic ${Buffer.from(`bob:${USER_PASSWORD}`).toString('base64')}` })).status).toBe(401); // no password here
    const info = (await (await t.req('GET', '/api/account/tokens', { token: bob })).json()) as { lastUsedAt: number | null }[];
    expect(info[0]!.lastUsedAt).toBeGreaterThan(0);
    // The admin sees and revokes it.
    const admin = await t.adminToken();
    const id = await userId(t, 'bob');
    const adminList = (await (await t.req('GET', `/api/users/${id}/tokens`, { token: admin })).json()) as { id: string }[];
    expect(adminList).toHaveLength(1);
    expect((await t.req('GET', `/api/users/${id}/tokens`, { token: bob })).status).toBe(403);
    expect((await t.req('DELETE', `/api/users/${id}/tokens/${adminList[0]!.id}`, { token: admin })).status).toBe(204);
    expect((await list(token)).status).toBe(401);
  });

  test('expiry, revocation at once, a deleted owner, an owner who loses a permission', async () => {
    t = await makeTestApp();
    const bob = await fastUserToken(t, 'bob', { download: true }, { scope: '/bob' });
    files(t);
    const token = await makeToken(t, bob, { name: 'a', perm: ['download'], expiresInDays: 1 });
    const other = await makeToken(t, bob, { name: 'b', perm: ['download'] });
    const raw = (tok: string) => t.req('GET', '/api/raw/in/a.txt', { token: tok });
    expect((await raw(token)).status).toBe(200);
    await t.s.db.run('UPDATE api_tokens SET expires_at = ? WHERE name = ?', Date.now() - 1000, 'a');
    expect((await raw(token)).status).toBe(401);
    expect((await raw(other)).status).toBe(200);
    // The owner loses download: the token has it no longer.
    const id = await userId(t, 'bob');
    const admin = await t.adminToken();
    const u = (await (await t.req('GET', `/api/users/${id}`, { token: admin })).json()) as { perm: Record<string, boolean> };
    await t.s.users.update(systemActor, id, ['perm'], { perm: { ...u.perm, download: false, share: false } });
    expect((await raw(other)).status).toBe(403);
    // Revoked by the owner: refused at the next request.
    const third = await makeToken(t, await t.login('bob', USER_PASSWORD), { name: 'c', perm: [] });
    expect((await list(third)).status).toBe(200);
    const tokens = (await (await t.req('GET', '/api/account/tokens', { token: await t.login('bob', USER_PASSWORD) })).json()) as { id: string; name: string }[];
    expect((await t.req('DELETE', `/api/account/tokens/${tokens.find((x) => x.name === 'c')!.id}`, { token: await t.login('bob', USER_PASSWORD) })).status).toBe(204);
    expect((await list(third)).status).toBe(401);
    // The owner deleted: every token of theirs stops, the rows go with them.
    const fourth = await makeToken(t, await t.login('bob', USER_PASSWORD), { name: 'd', perm: [] });
    expect((await list(fourth)).status).toBe(200);
    expect((await t.req('DELETE', `/api/users/${id}`, { token: admin, body: { current_password: 'correct-horse-admin-7731' } })).status).toBe(200);
    expect((await list(fourth)).status).toBe(401);
    expect(await t.s.db.all('SELECT id FROM api_tokens')).toHaveLength(0);
  });

  test('guessing: unknown or wrong tokens are 401, then 429 per address before any lookup; audited once a minute', async () => {
    t = await makeTestApp();
    const bob = await fastUserToken(t, 'bob', { download: true }, { scope: '/bob' });
    files(t);
    const token = await makeToken(t, bob, { name: 'a', perm: ['download'] });
    const wrong = `${token.slice(0, 17)}${'A'.repeat(32)}`;
    const statuses: number[] = [];
    for (let i = 0; i < 22; i++) statuses.push((await list(i % 2 ? wrong : `fdt_${'x'.repeat(12)}_${String(i).padStart(32, '0')}`)).status);
    expect(statuses.slice(0, 20).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(20)).toEqual([429, 429]);
    const audit = await t.s.db.all<{ outcome: string }>("SELECT outcome FROM audit WHERE action = 'token.auth'");
    expect(audit).toHaveLength(1);
  });

  test('a job started with a folder token keeps its limits: moving into an ancestor fails and changes nothing', async () => {
    t = await makeTestApp();
    const bob = await fastUserToken(t, 'bob', { create: true, rename: true, download: true }, { scope: '/bob' });
    files(t);
    const token = await makeToken(t, bob, { name: 'a', perm: ['create', 'rename', 'download'], path: '/in' });
    const r = await t.req('POST', '/api/jobs', { token, body: { kind: 'move', items: ['/in/a.txt'], destination: '/' } });
    expect(r.status).toBe(202);
    const { id } = (await r.json()) as { id: number };
    let job: { state: string } = { state: 'queued' };
    for (let i = 0; i < 100 && (job.state === 'queued' || job.state === 'running'); i++) {
      await Bun.sleep(20);
      job = (await (await t.req('GET', `/api/jobs/${id}`, { token })).json()) as { state: string };
    }
    expect(job.state).toBe('failed');
    expect((await t.req('GET', '/api/raw/in/a.txt', { token })).status).toBe(200);
    expect((await t.req('GET', '/api/raw/a.txt', { token: bob })).status).toBe(404);
  });

  test('CLI: tokens add prints the secret once, ls lists without it, rm revokes at once', async () => {
    t = await makeTestApp();
    await fastUserToken(t, 'bob', { download: true }, { scope: '/bob' });
    files(t);
    const fd = (...args: string[]) => cli(['-d', t.database, '-r', t.root, ...args], { cwd: t.dir });
    const refused = await fd('tokens', 'add', '--user', 'bob', '--name', 'x', '--perm', 'admin');
    expect(refused.code).toBe(1);
    const added = await fd('tokens', 'add', '--user', 'bob', '--name', 'cli', '--perm', 'download', '--path', '/in', '--read-only', '--days', '7');
    expect(added.code).toBe(0);
    const token = /fdt_[A-Za-z0-9_-]{12}_[A-Za-z0-9_-]{32}/.exec(added.stdout)![0];
    expect((await t.req('GET', '/api/raw/in/a.txt', { token })).status).toBe(200);
    expect((await t.req('GET', '/api/raw/top.txt', { token })).status).toBe(403);
    const ls = await fd('tokens', 'ls', '--user', 'bob');
    expect(ls.stdout).toContain('cli');
    expect(ls.stdout).not.toContain(token.slice(17));
    const id = token.slice(4, 16);
    expect((await fd('tokens', 'rm', id)).code).toBe(0);
    expect((await t.req('GET', '/api/raw/in/a.txt', { token })).status).toBe(401);
  }, 30_000);

  test('basicCredentials (for WebDAV): a token, or the account password unless a second factor is required', async () => {
    t = await makeTestApp();
    const bob = await fastUserToken(t, 'bob', { download: true }, { scope: '/bob' });
    const token = await makeToken(t, bob, { name: 'dav', perm: ['download'], path: '/' });
    const viaToken = await t.s.tokenAuth.basicCredentials('bob', token, '192.0.2.1');
    expect(viaToken.user.username).toBe('bob');
    expect(viaToken.limits?.perm).toEqual(['download']);
    const code = (p: Promise<unknown>) => p.then(() => 'ok', (e: { code?: string }) => e.code);
    expect(await code(t.s.tokenAuth.basicCredentials('carol', token, '192.0.2.1'))).toBe('UNAUTHORIZED');
    expect((await t.s.tokenAuth.basicCredentials('bob', USER_PASSWORD, '192.0.2.1')).limits).toBeUndefined();
    await t.s.settings.update({ twoFactor: { required: true } }, ['twoFactor']);
    expect(await code(t.s.tokenAuth.basicCredentials('bob', USER_PASSWORD, '192.0.2.1'))).toBe('FORBIDDEN');
    expect((await t.s.tokenAuth.basicCredentials('', token, '192.0.2.1')).user.username).toBe('bob');
  });
});
