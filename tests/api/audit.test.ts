import { afterEach, describe, expect, test } from 'bun:test';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AuditEntry, AuditPage } from '../../server/contract/audit';
import { AuditStore } from '../../server/db/audit.store';
import { actorFor, systemActor } from '../../server/services/actor';
import { ADMIN_PASSWORD, USER_PASSWORD, makeTestApp, type TestApp } from '../helpers/test-app';
import { runScenarios, type Scenario } from '../helpers/scenario';

let t: TestApp;
afterEach(async () => {
  await t?.close();
  t = undefined as unknown as TestApp; // a scenario table's rows leave it unset: close each app once
});

async function audit(query = ''): Promise<AuditPage> {
  const r = await t.req('GET', `/api/audit${query}`, { token: await t.adminToken() });
  expect(r.status).toBe(200);
  return (await r.json()) as AuditPage;
}

const one = (entries: AuditEntry[], action: string, pred: (e: AuditEntry) => boolean = () => true) => {
  const found = entries.filter((e) => e.action === action && pred(e));
  expect(found.length).toBe(1);
  return found[0]!;
};

describe('audit log: an entry for each event kind', () => {
  test('logins (ok, failed, rate-limited), logout, users, permissions, settings, shares, deletes, imports, sessions', async () => {
    t = await makeTestApp();
    const admin = await t.adminToken();
    // Logins: a failure under the tried name, a success, a rate-limited attempt after 10 failures.
    expect((await t.req('POST', '/api/login', { body: { username: 'admin', password: 'wrong-password' } })).status).toBe(403);
    const outToken = await t.login('admin', ADMIN_PASSWORD);
    // Users: create, change a preference, change permissions, delete.
    const create = await t.req('POST', '/api/users', { token: admin, body: { what: 'user', which: [], current_password: ADMIN_PASSWORD, data: { username: 'bob', password: USER_PASSWORD, perm: { share: true, download: true, delete: true, create: true } } } });
    expect(create.status).toBe(201);
    const bob = (await t.s.users.find('bob')).id;
    expect((await t.req('PUT', `/api/users/${bob}`, { token: admin, body: { what: 'user', which: ['locale', 'password'], data: { id: bob, locale: 'fr', password: 'a-brand-new-password-99' } , current_password: ADMIN_PASSWORD } })).status).toBe(200);
    expect((await t.req('PUT', `/api/users/${bob}`, { token: admin, body: { what: 'user', which: ['perm'], data: { id: bob, perm: { ...(await t.s.users.find('bob')).perm, execute: true, delete: false } }, current_password: ADMIN_PASSWORD } })).status).toBe(200);
    // Settings.
    expect((await t.req('PUT', '/api/settings', { token: admin, body: { signup: true, auditRetentionDays: 30 } })).status).toBe(200);
    // Shares: create, used twice from one address (one row), delete; a file delete.
    mkdirSync(join(t.root, 'docs'), { recursive: true });
    writeFileSync(join(t.root, 'docs', 'a.txt'), 'a');
    writeFileSync(join(t.root, 'gone.txt'), 'x');
    const share = (await (await t.req('POST', '/api/share/docs', { token: admin, body: {} })).json()) as { hash: string };
    expect((await t.req('GET', `/api/public/share/${share.hash}`)).status).toBe(200);
    expect((await t.req('GET', `/api/public/dl/${share.hash}/a.txt`)).status).toBe(200);
    expect((await t.req('DELETE', `/api/share/${share.hash}`, { token: admin })).status).toBe(200);
    expect([200, 204]).toContain((await t.req('DELETE', '/api/resources/gone.txt?permanent=true', { token: admin })).status);
    // Imports and ended sessions (the CLI's services), then user deletion and logout.
    await t.s.users.import([{ username: 'carol', password: '$2a$10$abcdefghijklmnopqrstuuJ0Z0Z0Z0Z0Z0Z0Z0Z0Z0Z0Z0Z0Z0Z0', perm: { admin: false } }], { file: 'users.json' });
    await t.s.settings.import(systemActor, t.s.settings.get(), 'settings.yaml');
    await t.s.auth.endSessions(systemActor, (await t.s.users.find('carol')).id);
    expect((await t.req('DELETE', `/api/users/${bob}`, { token: admin, body: { current_password: ADMIN_PASSWORD } })).status).toBe(200);
    expect((await t.req('POST', '/api/logout', { token: outToken })).status).toBe(200);
    // Last (the address is then locked out): failures until the limiter answers 429.
    let refused = 0;
    for (let i = 0; i < 15 && (await t.req('POST', '/api/login', { body: { username: 'mallory', password: `guess-${i}` } })).status === 403; i++) refused++;

    const { entries } = await audit('?limit=500');
    const failed = one(entries, 'login', (e) => e.outcome === 'failed' && e.target === 'admin');
    expect(failed).toMatchObject({ userId: null, address: 'local', detail: { known: true } });
    expect(refused).toBeGreaterThan(3);
    expect(entries.filter((e) => e.action === 'login' && e.target === 'mallory' && e.outcome === 'failed').length).toBe(refused);
    one(entries, 'login', (e) => e.target === 'mallory' && e.outcome === 'limited');
    expect(entries.filter((e) => e.action === 'login' && e.outcome === 'ok' && e.userName === 'admin').length).toBeGreaterThanOrEqual(2);
    expect(one(entries, 'user.create', (e) => e.target === 'bob')).toMatchObject({ userName: 'admin', address: 'local', outcome: 'ok' });
    expect(one(entries, 'user.update', (e) => e.target === 'bob' && (e.detail.fields as string[]).includes('locale')).detail.fields).toEqual(['locale', 'password']);
    expect(one(entries, 'user.permissions', (e) => e.target === 'bob').detail).toMatchObject({ granted: ['execute'], revoked: ['delete'] });
    expect(one(entries, 'user.delete').target).toBe('bob');
    expect(one(entries, 'settings.update').detail.fields).toEqual(expect.arrayContaining(['signup', 'auditRetentionDays']));
    expect(one(entries, 'share.create').detail).toMatchObject({ path: '/docs', owner: 'admin', password: false });
    expect(one(entries, 'share.used')).toMatchObject({ target: share.hash, userName: '', address: 'local' });
    one(entries, 'share.delete', (e) => e.target === share.hash);
    expect(one(entries, 'file.delete')).toMatchObject({ target: '/gone.txt', userName: 'admin' });
    expect(one(entries, 'users.import')).toMatchObject({ target: 'users.json', userName: 'cli', address: 'cli', detail: { count: 1, users: ['carol'] } });
    one(entries, 'config.import', (e) => e.target === 'settings.yaml');
    expect(one(entries, 'sessions.end').target).toBe('carol');
    one(entries, 'logout', (e) => e.userName === 'admin');
    // Never a password or a hash, whatever the event.
    const all = JSON.stringify(entries);
    for (const secret of [ADMIN_PASSWORD, USER_PASSWORD, 'a-brand-new-password-99', 'wrong-password', 'guess-1', '$2a$']) expect(all).not.toContain(secret);
  });

  test('runner commands: the command line and its exit code; refusals too', async () => {
    t = await makeTestApp({ enableExec: 'true', commandTimeout: '5s' });
    if (!t.s.runner.enabled) {
      console.warn('skipped: no usable command sandbox here');
      return;
    }
    await t.s.users.update(systemActor, 1, ['commands'], { commands: ['echo', 'false'] });
    const admin = actorFor(await t.s.users.find('admin'), { root: t.root, globalRules: [], followExternalSymlinks: false, address: '10.1.2.3' });
    expect(await t.s.runner.run(await t.s.runner.prepare(admin, '/', 'echo hello'), () => {})).toBe(0);
    expect(await t.s.runner.run(await t.s.runner.prepare(admin, '/', 'false'), () => {})).toBe(1);
    await expect(t.s.runner.prepare(admin, '/', 'rm -rf /')).rejects.toThrow();
    const { entries } = await audit('?action=command');
    expect(one(entries, 'command.run', (e) => e.target === 'echo hello')).toMatchObject({ outcome: 'ok', address: '10.1.2.3', detail: { exit: 0, path: '/' } });
    expect(one(entries, 'command.run', (e) => e.target === 'false')).toMatchObject({ outcome: 'failed', detail: { exit: 1 } });
    one(entries, 'command.run', (e) => e.target === 'rm -rf /' && e.outcome === 'denied');
  });
});

describe('audit log: reading it', () => {
  test('filters (user, action and family, since/until, text), paging with a cursor', async () => {
    t = await makeTestApp();
    const store = new AuditStore(t.s.db);
    const now = Date.now();
    const row = (i: number, over: Partial<AuditEntry> = {}) => ({ time: now - i * 3_600_000, userId: 1, userName: 'admin', address: '10.0.0.1', action: 'file.delete' as const, target: `/f${i}.txt`, detail: {}, outcome: 'ok' as const, ...over });
    for (let i = 0; i < 30; i++) await store.insert(row(i));
    await store.insert(row(0, { userName: 'Eve', userId: 7, action: 'share.create', target: 'hash_100%', detail: { path: '/Secret Plans' } }));
    await store.insert(row(50, { action: 'share.delete', target: 'old' }));

    expect((await audit('?user=eve')).entries.map((e) => e.target)).toEqual(['hash_100%']);
    expect((await audit('?action=share')).entries.map((e) => e.action).sort()).toEqual(['share.create', 'share.delete']);
    expect((await audit('?action=share.delete')).entries.length).toBe(1);
    expect((await audit('?since=5h30m&action=file.delete')).entries.length).toBe(6);
    expect((await audit(`?until=${now - 48 * 3_600_000}`)).entries.map((e) => e.target)).toEqual(['old']);
    expect((await audit(`?since=${new Date(now - 2.5 * 3_600_000).toISOString()}&action=file`)).entries.length).toBe(3);
    expect((await audit('?text=secret%20plans')).entries.map((e) => e.userName)).toEqual(['Eve']);
    expect((await audit('?text=100%25')).entries.length).toBe(1); // % is matched literally
    expect((await audit('?text=_')).entries.length).toBe(1);

    const seen: number[] = [];
    const times: number[] = [];
    let cursor: string | null = '';
    let pages = 0;
    while (cursor !== null) {
      const page: AuditPage = await audit(`?action=file.delete&limit=7${cursor ? `&cursor=${cursor}` : ''}`);
      seen.push(...page.entries.map((e) => e.id));
      times.push(...page.entries.map((e) => e.time));
      cursor = page.next;
      pages++;
    }
    expect(pages).toBe(5);
    expect(seen.length).toBe(30);
    expect(new Set(seen).size).toBe(30);
    expect([...times].sort((a, b) => b - a)).toEqual(times); // newest first, by time (ids here grow as times fall)
    expect(times[0]).toBe(now);
  });

  // Bad query values are 400 with the reason; only admins read the log. Reads only: one app for the table.
  runScenarios(
    'who may read it and with what query',
    async (t) => ({ bob: await t.userToken('bob', { share: true }) }),
    [
      ...([['?limit=0', 'limit'], ['?limit=x', 'limit'], ['?limit=501', 'limit'], ['?action=nope', 'unknown action'], ['?since=yesterday', 'since'], ['?cursor=abc', 'cursor'], ['?since=1h&until=2h', 'since must not be after until'], ['?user=a&user=b', 'once']] as const).map(
        ([q, msg]): Scenario => ({ name: `${q} is 400 (${msg})`, as: 'admin', method: 'GET', url: `/api/audit${q}`, status: 400, contains: msg }),
      ),
      { name: 'a non-admin gets 403', as: 'bob', method: 'GET', url: '/api/audit', status: 403 },
      { name: 'anonymous gets 401', as: 'anon', method: 'GET', url: '/api/audit', status: 401 },
    ],
    { shared: true },
  );

  test('retention: the purge removes entries older than auditRetentionDays and keeps the rest', async () => {
    t = await makeTestApp();
    const store = new AuditStore(t.s.db);
    const day = 86_400_000;
    for (const age of [1, 5, 9, 200]) await store.insert({ time: Date.now() - age * day, userId: null, userName: 'cli', address: 'cli', action: 'sessions.end', target: `age-${age}`, detail: {}, outcome: 'ok' });
    expect(await t.s.audit.purge()).toBe(1); // default 90 days: only the 200-day-old entry goes
    await t.s.settings.update({ auditRetentionDays: 7 }, ['auditRetentionDays']);
    expect(await t.s.audit.purge()).toBe(1);
    const left = (await audit('?action=sessions.end')).entries.map((e) => e.target).sort();
    expect(left).toEqual(['age-1', 'age-5']);
    const bad = await t.req('PUT', '/api/settings', { token: await t.adminToken(), body: { auditRetentionDays: 0 } });
    expect(bad.status).toBe(400);
  });
});
