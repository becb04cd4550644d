import { afterEach, describe, expect, test } from 'bun:test';
import { mkdirSync, readFileSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createHttpApp, createServices, type Services } from '../../server/app';
import { silentLogger } from '../../server/core/log';
import { parseIf } from '../../server/services/dav/dav-locks-if';
import { grantedTimeout } from '../../server/services/dav/dav-locks.service';
import { runScenarios } from '../helpers/scenario';
import { ADMIN_PASSWORD, makeTestApp, USER_PASSWORD, type TestApp } from '../helpers/test-app';

/**
 * WebDAV locks (issue 36; RFC 4918 §6–7, §9.10–11, §10.4) through the real app: exclusive and shared conflicts,
 * depth infinity, If headers (tagged, untagged, Not, ETags), refresh, timeouts on a moved clock, UNLOCK, the
 * per-user cap, locks that go with MOVE, DELETE and their owner, and the attack of the issue: LOCK used to block
 * another user's file. On FILEDECK_TEST_PG, two instances on one database never both get an exclusive lock.
 */
const PG = !!process.env.FILEDECK_TEST_PG;
const WRITE = { create: true, modify: true, delete: true, rename: true, download: true };
const basic = (user: string) => ({ Authorization: `Basic ${Buffer.from(`${user}:${USER_PASSWORD}`).toString('base64')}` });
const lockinfo = (scope: 'exclusive' | 'shared', owner = 'litmus test suite') =>
  `<?xml version="1.0" encoding="utf-8"?><D:lockinfo xmlns:D="DAV:"><D:lockscope><D:${scope}/></D:lockscope><D:locktype><D:write/></D:locktype><D:owner>${owner}</D:owner></D:lockinfo>`;

let t: TestApp | null = null;
afterEach(async () => {
  await t?.close();
  t = null;
});

/** An app with users alice and bob (both scope '/', write permissions) and files /a.txt, /dir/x.txt. */
async function app(extraUsers: (t: TestApp) => Promise<void> = async () => {}): Promise<TestApp> {
  t = await makeTestApp();
  await t.userToken('alice', WRITE, { scope: '/' });
  await t.userToken('bob', WRITE, { scope: '/' });
  await extraUsers(t);
  mkdirSync(join(t.root, 'dir'), { recursive: true });
  writeFileSync(join(t.root, 'a.txt'), 'hello');
  writeFileSync(join(t.root, 'dir', 'x.txt'), 'x');
  return t;
}

function dav(t: TestApp, user: string, method: string, path: string, opts: { headers?: Record<string, string>; body?: string } = {}) {
  return t.req(method, `/dav${path}`, { headers: { ...basic(user), ...opts.headers }, raw: opts.body });
}

async function lock(t: TestApp, user: string, path: string, scope: 'exclusive' | 'shared' = 'exclusive', headers: Record<string, string> = {}) {
  const r = await dav(t, user, 'LOCK', path, { headers: { 'Content-Type': 'application/xml', ...headers }, body: lockinfo(scope) });
  const text = await r.text();
  const token = /<([^>]+)>/.exec(r.headers.get('lock-token') ?? '')?.[1] ?? '';
  return { status: r.status, text, token };
}

/** Rows in dav_locks, expired or not (PostgreSQL counts as text). */
const lockRows = async (t: TestApp) => Number((await t.s.db.get<{ n: number | string }>('SELECT COUNT(*) AS n FROM dav_locks'))!.n);

const etagOf = async (t: TestApp, user: string, path: string) => (await dav(t, user, 'HEAD', path)).headers.get('etag') ?? '';

describe('exclusive and shared locks', () => {
  test('an exclusive lock answers its activelock and Lock-Token, and shuts out every other lock', async () => {
    const t = await app();
    const a = await lock(t, 'alice', '/a.txt');
    expect(a.status).toBe(200);
    expect(a.token).toMatch(/^urn:uuid:[0-9a-f-]{36}$/);
    expect(a.text).toContain('<D:exclusive/>');
    expect(a.text).toContain(`<D:href>${a.token}</D:href>`);
    expect(a.text).toContain('litmus test suite');
    expect(a.text).toContain('Second-600');
    for (const [who, scope] of [['alice', 'exclusive'], ['alice', 'shared'], ['bob', 'exclusive'], ['bob', 'shared']] as const) {
      const again = await lock(t, who, '/a.txt', scope);
      expect({ who, scope, status: again.status }).toEqual({ who, scope, status: 423 });
      expect(again.text).toContain('no-conflicting-lock');
    }
  });

  test('shared locks live together; an exclusive one then waits; each holder writes with their own token', async () => {
    const t = await app();
    const a = await lock(t, 'alice', '/a.txt', 'shared');
    const b = await lock(t, 'bob', '/a.txt', 'shared');
    expect([a.status, b.status]).toEqual([200, 200]);
    expect((await lock(t, 'alice', '/a.txt', 'exclusive')).status).toBe(423);
    expect((await dav(t, 'bob', 'PUT', '/a.txt', { body: 'b', headers: { If: `(<${b.token}>)` } })).status).toBe(204);
    expect((await dav(t, 'bob', 'PUT', '/a.txt', { body: 'b', headers: { If: `(<${a.token}>)` } })).status).toBe(423); // alice's token is not bob's
    expect((await dav(t, 'bob', 'PUT', '/a.txt', { body: 'b' })).status).toBe(423);
  });

  test('a lock is refused when a lock below (depth infinity) or above (infinity) is in the way', async () => {
    const t = await app();
    const child = await lock(t, 'bob', '/dir/x.txt', 'exclusive', { Depth: '0' });
    expect(child.status).toBe(200);
    expect((await lock(t, 'alice', '/dir', 'shared', { Depth: 'infinity' })).status).toBe(423);
    expect((await lock(t, 'alice', '/dir', 'shared', { Depth: '0' })).status).toBe(200); // depth 0 does not reach the child
    expect((await lock(t, 'alice', '/dir', 'shared', { Depth: '1' })).status).toBe(400);
  });
});

test('PROPFIND shows the lock in lockdiscovery, at its root and on what it covers, to every user', async () => {
  const t = await app();
  const find = async (user: string, path: string) =>
    (await dav(t, user, 'PROPFIND', path, { headers: { Depth: '0' }, body: '<D:propfind xmlns:D="DAV:"><D:prop><D:lockdiscovery/></D:prop></D:propfind>' })).text();
  expect(await find('bob', '/dir/x.txt')).not.toContain('activelock'); // asked before any lock exists
  const l = await lock(t, 'alice', '/dir', 'shared', { Depth: 'infinity' });
  for (const [user, path] of [['alice', '/dir'], ['bob', '/dir/x.txt']]) {
    const xml = await find(user!, path!);
    expect(xml).toContain(l.token);
    expect(xml).toContain('<D:lockroot><D:href>/dav/dir</D:href></D:lockroot>');
    expect(xml).toContain('<D:shared/>');
  }
  expect(await find('bob', '/a.txt')).not.toContain('activelock');
});

describe('what a lock stops', () => {
  test('depth infinity on a folder blocks a child PUT, a new member, MKCOL and DELETE until the token is submitted', async () => {
    const t = await app();
    const l = await lock(t, 'alice', '/dir', 'exclusive', { Depth: 'infinity' });
    expect(l.status).toBe(200);
    const put = await dav(t, 'bob', 'PUT', '/dir/x.txt', { body: 'bob' });
    expect(put.status).toBe(423);
    const text = await put.text();
    expect(text).toContain('lock-token-submitted');
    expect(text).toContain('<D:href>/dav/dir</D:href>');
    expect((await dav(t, 'alice', 'PUT', '/dir/new.txt', { body: 'n' })).status).toBe(423);
    expect((await dav(t, 'alice', 'MKCOL', '/dir/sub')).status).toBe(423);
    expect((await dav(t, 'alice', 'DELETE', '/dir/x.txt')).status).toBe(423);
    expect(readFileSync(join(t.root, 'dir', 'x.txt'), 'utf8')).toBe('x');
    // The token, untagged or tagged with the lock root as neon sends it, opens it to its owner only.
    expect((await dav(t, 'alice', 'PUT', '/dir/x.txt', { body: 'alice', headers: { If: `(<${l.token}>)` } })).status).toBe(204);
    expect((await dav(t, 'alice', 'PUT', '/dir/new.txt', { body: 'n', headers: { If: `<http://localhost/dav/dir> (<${l.token}>)` } })).status).toBe(201);
    expect((await dav(t, 'bob', 'PUT', '/dir/x.txt', { body: 'bob', headers: { If: `(<${l.token}>)` } })).status).toBe(423);
    expect(readFileSync(join(t.root, 'dir', 'x.txt'), 'utf8')).toBe('alice');
  });

  test('a depth-0 lock on a folder guards its membership, not its members\' content', async () => {
    const t = await app();
    expect((await lock(t, 'alice', '/dir', 'exclusive', { Depth: '0' })).status).toBe(200);
    expect((await dav(t, 'bob', 'PUT', '/dir/x.txt', { body: 'b' })).status).toBe(204);
    expect((await dav(t, 'bob', 'PUT', '/dir/new.txt', { body: 'b' })).status).toBe(423);
  });

  test('MOVE and DELETE take the locks of what they moved or deleted with them', async () => {
    const t = await app();
    const l = await lock(t, 'alice', '/a.txt');
    const moved = await dav(t, 'alice', 'MOVE', '/a.txt', { headers: { Destination: 'http://localhost/dav/b.txt', If: `(<${l.token}>)` } });
    expect(moved.status).toBe(201);
    writeFileSync(join(t.root, 'a.txt'), 'again');
    expect((await dav(t, 'bob', 'PUT', '/a.txt', { body: 'b' })).status).toBe(204);
    expect((await dav(t, 'bob', 'PUT', '/b.txt', { body: 'b' })).status).toBe(204);
    const d = await lock(t, 'alice', '/dir', 'exclusive');
    expect((await dav(t, 'alice', 'DELETE', '/dir', { headers: { If: `(<${d.token}>)` } })).status).toBe(204);
    mkdirSync(join(t.root, 'dir'));
    expect((await dav(t, 'bob', 'PUT', '/dir/y.txt', { body: 'y' })).status).toBe(201);
    expect(await lockRows(t)).toBe(0);
  });

  test('a LOCK on an unmapped URL makes an empty file (201); a missing parent is a 409', async () => {
    const t = await app();
    const l = await lock(t, 'alice', '/new.txt');
    expect(l.status).toBe(201);
    expect(readFileSync(join(t.root, 'new.txt'), 'utf8')).toBe('');
    expect((await lock(t, 'alice', '/nowhere/new.txt')).status).toBe(409);
    expect(existsSync(join(t.root, 'nowhere'))).toBe(false);
  });
});

describe('If headers', () => {
  test('tokens and ETags: tagged, untagged, Not, several lists OR-ed', async () => {
    const t = await app();
    const l = await lock(t, 'alice', '/a.txt');
    const put = async (If: string) => (await dav(t, 'alice', 'PUT', '/a.txt', { body: 'v', headers: { If } })).status;
    let etag = await etagOf(t, 'alice', '/a.txt');
    expect(etag).not.toBe('');
    expect(await put(`(<${l.token}> [${etag}])`)).toBe(204);
    etag = await etagOf(t, 'alice', '/a.txt');
    expect(await put(`<http://localhost/dav/a.txt> (<${l.token}> [${etag}])`)).toBe(204);
    etag = await etagOf(t, 'alice', '/a.txt');
    expect(await put(`(<DAV:no-lock> [${etag}])`)).toBe(412);
    expect(await put(`(<${l.token}>) (Not <DAV:no-lock>)`)).toBe(204);
    expect(await put(`(<${l.token}x>) (Not <DAV:no-lock>)`)).toBe(423); // holds, but submits no token of the lock
    etag = await etagOf(t, 'alice', '/a.txt');
    expect(await put(`(<${l.token}> [${etag}]) (Not <DAV:no-lock> [${etag}])`)).toBe(204);
    expect(await put(`(<${l.token}> ["bogus"]) (Not <DAV:no-lock> ["bogus"])`)).toBe(412);
    expect(await put(`(<${l.token}`)).toBe(400);
    expect(await put('garbage')).toBe(400);
  });

  test('ETag-only conditions on an unlocked file; a tag naming another resource is about that one', async () => {
    const t = await app();
    const put = async (If: string) => (await dav(t, 'bob', 'PUT', '/a.txt', { body: 'v', headers: { If } })).status;
    const etag = await etagOf(t, 'bob', '/a.txt');
    const other = await etagOf(t, 'bob', '/dir/x.txt');
    expect(await put('(["nope"])')).toBe(412);
    expect(await put(`(Not ["nope"])`)).toBe(204);
    expect(await put(`<http://localhost/dav/dir/x.txt> ([${other}])`)).toBe(204);
    expect(await put(`<http://localhost/dav/dir/x.txt> ([${etag}])`)).toBe(412);
    expect(await put(`<http://elsewhere.example/other/x> (["nope"])`)).toBe(204); // not ours: ignored
    expect(await put('(<DAV:no-lock>)')).toBe(412);
  });

  test('the grammar', () => {
    expect(parseIf('(<urn:uuid:1> ["e"]) (Not <DAV:no-lock>)')).toEqual([
      { tag: null, conditions: [{ not: false, kind: 'token', value: 'urn:uuid:1' }, { not: false, kind: 'etag', value: '"e"' }] },
      { tag: null, conditions: [{ not: true, kind: 'token', value: 'DAV:no-lock' }] },
    ]);
    expect(parseIf('<http://h/dav/a> (<urn:uuid:1>) (NOT [W/"x"]) </dav/b> (<urn:uuid:2>)')).toEqual([
      { tag: 'http://h/dav/a', conditions: [{ not: false, kind: 'token', value: 'urn:uuid:1' }] },
      { tag: 'http://h/dav/a', conditions: [{ not: true, kind: 'etag', value: 'W/"x"' }] },
      { tag: '/dav/b', conditions: [{ not: false, kind: 'token', value: 'urn:uuid:2' }] },
    ]);
    for (const bad of ['()', '(<a> <b>', '(<a>) <http://x> (<b>)', '<http://x>', '(Nothing)', '([e])', `(${'<a> '.repeat(101)})`]) expect(() => parseIf(bad)).toThrow();
    expect(parseIf(null)).toBeNull();
  });
});

describe('refresh, timeouts, UNLOCK', () => {
  test('a LOCK without a body refreshes the lock named in If, with the Timeout asked (capped at a day)', async () => {
    const t = await app();
    const l = await lock(t, 'alice', '/a.txt', 'exclusive', { Timeout: 'Second-100' });
    expect(l.text).toContain('Second-100');
    const refresh = (user: string, headers: Record<string, string>) => dav(t, user, 'LOCK', '/a.txt', { headers });
    const r = await refresh('alice', { If: `(<${l.token}>)`, Timeout: 'Infinite, Second-4100000000' });
    expect(r.status).toBe(200);
    expect(await r.text()).toContain('Second-86400');
    expect((await refresh('alice', {})).status).toBe(400);
    expect((await refresh('alice', { If: '(<urn:uuid:00000000-0000-0000-0000-000000000000>)' })).status).toBe(412);
    expect((await refresh('bob', { If: `(<${l.token}>)` })).status).toBe(403);
    // Through a member of a locked folder (litmus' indirect refresh).
    const d = await lock(t, 'alice', '/dir', 'exclusive');
    const ind = await dav(t, 'alice', 'LOCK', '/dir/x.txt', { headers: { If: `(<${d.token}>)`, Timeout: 'Second-50' } });
    expect(ind.status).toBe(200);
    expect(await ind.text()).toContain('<D:href>/dav/dir</D:href>');
    expect(grantedTimeout(null)).toBe(600);
    expect(grantedTimeout('Second-0')).toBe(1);
    expect(grantedTimeout('Extra, Second-7')).toBe(7);
  });

  test('an expired lock is ignored at once and swept later', async () => {
    const t = await app();
    expect((await lock(t, 'alice', '/a.txt', 'exclusive', { Timeout: 'Second-60' })).status).toBe(200);
    expect((await dav(t, 'bob', 'PUT', '/a.txt', { body: 'b' })).status).toBe(423);
    const start = Date.now();
    t.s.davLocks.clock = () => start + 61_000;
    expect((await dav(t, 'bob', 'PUT', '/a.txt', { body: 'b' })).status).toBe(204);
    expect(await t.s.davLocks.sweep()).toBe(1);
    expect(await t.s.davLocks.sweep()).toBe(0);
  });

  test('UNLOCK: 204 for the owner, 403 for another user, 409 for a token not on the URL, 400 without one', async () => {
    const t = await app();
    const l = await lock(t, 'alice', '/a.txt');
    const unlock = (user: string, path: string, token?: string) => dav(t, user, 'UNLOCK', path, { headers: token ? { 'Lock-Token': `<${token}>` } : {} });
    expect((await unlock('bob', '/a.txt', l.token)).status).toBe(403);
    const wrong = await unlock('alice', '/dir/x.txt', l.token);
    expect(wrong.status).toBe(409);
    expect(await wrong.text()).toContain('lock-token-matches-request-uri');
    expect((await unlock('alice', '/a.txt')).status).toBe(400);
    expect((await unlock('alice', '/a.txt', l.token)).status).toBe(204);
    expect((await unlock('alice', '/a.txt', l.token)).status).toBe(409);
    expect((await dav(t, 'bob', 'PUT', '/a.txt', { body: 'b' })).status).toBe(204);
  });
});

describe('limits', () => {
  test('at most maxPerUser live locks per user (507); an owner over 8 KiB is 413; a DOCTYPE is 400', async () => {
    const t = await app();
    t.s.davLocks.maxPerUser = 2;
    expect((await lock(t, 'alice', '/a.txt', 'shared')).status).toBe(200);
    expect((await lock(t, 'alice', '/dir/x.txt', 'shared')).status).toBe(200);
    expect((await lock(t, 'alice', '/dir', 'shared', { Depth: '0' })).status).toBe(507);
    expect((await lock(t, 'bob', '/dir', 'shared', { Depth: '0' })).status).toBe(200);
    const big = await dav(t, 'bob', 'LOCK', '/a.txt', { body: lockinfo('shared', 'x'.repeat(9000)) });
    expect(big.status).toBe(413);
    const huge = await dav(t, 'bob', 'LOCK', '/a.txt', { body: lockinfo('shared', 'x'.repeat(100_000)) });
    expect(huge.status).toBe(413);
    const entity = await dav(t, 'bob', 'LOCK', '/a.txt', { body: `<?xml version="1.0"?><!DOCTYPE l [<!ENTITY e "x">]>${lockinfo('shared', '&e;')}` });
    expect(entity.status).toBe(400);
    expect((await dav(t, 'bob', 'LOCK', '/a.txt', { body: '<D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/></D:lockscope></D:lockinfo>' })).status).toBe(400);
  });
});

describe('LOCK used to block another user\'s file (issue 36 attack)', () => {
  // bob owns /bob; reader sees all of it but may not change anything; carol may write only outside /bob (a rule).
  const setup = async (t: TestApp) => {
    mkdirSync(join(t.root, 'bob'), { recursive: true });
    writeFileSync(join(t.root, 'bob', 'f.txt'), 'bob');
    await t.userToken('bob', WRITE, { scope: '/bob' });
    await t.userToken('reader', { create: false, modify: false, delete: false, rename: false }, { scope: '/' });
    await t.userToken('carol', WRITE, { scope: '/', rules: [{ allow: false, path: '/bob', regex: false, regexp: null }] });
    return {};
  };
  const row = (name: string, user: string, path: string, status: number) => ({
    name,
    as: () => basic(user),
    method: 'LOCK',
    url: `/dav${path}`,
    raw: lockinfo('exclusive'),
    status,
    disk: { under: 'bob', after: 'same' as const },
    after: async (t: TestApp) => {
      expect(await lockRows(t)).toBe(0);
      expect((await t.req('PUT', '/dav/f.txt', { headers: basic('bob'), raw: 'still mine' })).status).toBe(204);
    },
  });
  runScenarios('a lock is a claim to change', setup, [
    row('a user who may only read the file', 'reader', '/bob/f.txt', 403),
    row('a user who may only read, on a new name in the folder', 'reader', '/bob/new.txt', 403),
    row('a user whose rules hide the folder', 'carol', '/bob/f.txt', 403),
  ]);

  test('a lock of one user never opens the file to another who submits its token', async () => {
    const t = await app();
    const l = await lock(t, 'alice', '/a.txt');
    expect((await dav(t, 'bob', 'DELETE', '/a.txt', { headers: { If: `(<${l.token}>)` } })).status).toBe(423);
    expect((await dav(t, 'bob', 'MOVE', '/a.txt', { headers: { Destination: 'http://localhost/dav/z.txt', If: `(<${l.token}>)` } })).status).toBe(423);
    expect(readFileSync(join(t.root, 'a.txt'), 'utf8')).toBe('hello');
  });

  test('removing a user drops their locks: a lock never stands in the admin\'s way', async () => {
    const t = await app();
    expect((await lock(t, 'bob', '/a.txt')).status).toBe(200);
    const bob = (await t.s.stores.users.byUsername('bob'))!;
    const r = await t.req('DELETE', `/api/users/${bob.id}`, { token: await t.adminToken(), body: { current_password: ADMIN_PASSWORD } });
    expect(r.status).toBeLessThan(300);
    expect(await lockRows(t)).toBe(0);
    expect((await dav(t, 'alice', 'PUT', '/a.txt', { body: 'a' })).status).toBe(204);
  });
});

describe.skipIf(!PG)('two instances on one PostgreSQL', () => {
  test('never both get an exclusive lock on one file', async () => {
    const t = await app();
    const other: Services = await createServices(t.s.config, silentLogger);
    try {
      const app2 = await createHttpApp(other);
      const send = (which: number, path: string) =>
        (which ? app2.handle.bind(app2) : t!.app.handle.bind(t!.app))(new Request(`http://localhost/dav${path}`, { method: 'LOCK', headers: basic(which ? 'bob' : 'alice'), body: lockinfo('exclusive') }));
      for (let round = 0; round < 5; round++) {
        const path = `/race-${round}.txt`;
        writeFileSync(join(t.root, path.slice(1)), 'r');
        const got = await Promise.all(Array.from({ length: 10 }, (_, i) => send(i % 2, path)));
        expect(got.map((r) => r.status).sort()).toEqual([200, ...Array(9).fill(423)]);
      }
      // A lock taken on one instance stops a write on the other.
      expect((await app2.handle(new Request('http://localhost/dav/race-0.txt', { method: 'PUT', headers: basic('alice'), body: 'x' }))).status).toBe(423);
    } finally {
      await other.close();
    }
  });
});

describe('locks and the trash', () => {
  test('an item deleted to the trash through the web API takes its locks along: a new file at its name is not locked', async () => {
    const t = await app();
    const a = await lock(t, 'alice', '/a.txt');
    expect(a.status).toBe(200);
    expect((await dav(t, 'bob', 'PUT', '/a.txt', { body: 'bob' })).status).toBe(423);
    const session = await t.login('alice', USER_PASSWORD);
    expect((await t.req('DELETE', '/api/resources/a.txt', { token: session })).status).toBe(204);
    expect(await lockRows(t)).toBe(0);
    expect((await dav(t, 'bob', 'PUT', '/a.txt', { body: 'bob' })).status).toBe(201);
    expect(readFileSync(join(t.root, 'a.txt'), 'utf8')).toBe('bob');
  });
});
