import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Job } from '../../server/contract/job';
import { filedeckCommand, startServer, type RunningServer } from '../helpers/binary';
import { makeTree, readEvents } from '../helpers/jobs-fixture';
import { nginxAvailable, startNginx, type Nginx } from '../helpers/nginx';
import { postgresAvailable, startPostgres, type PgCluster } from '../helpers/postgres';

// Two Filedeck processes on one PostgreSQL database and one files root, Debian's nginx in front (round-robin, no
// stickiness). Everything a user does must hold whichever instance answers: that is what "shared state" means.

const missing = !postgresAvailable() ? 'PostgreSQL is not installed (Debian package postgresql)' : !nginxAvailable() ? 'nginx is not installed (Debian package nginx)' : null;
if (missing) console.log(`multi-instance scenario skipped: ${missing}`);

const ADMIN = 'multi-admin-password-5521';
const BOB = 'bobs-multi-password-8830';
let pg: PgCluster;
let dir: string;
let a: RunningServer, b: RunningServer;
let lb: Nginx;

beforeAll(async () => {
  if (missing) return;
  pg = await startPostgres();
  dir = mkdtempSync(join(tmpdir(), 'filedeck-multi-'));
  const root = join(dir, 'files');
  mkdirSync(join(root, 'docs'), { recursive: true });
  writeFileSync(join(root, 'docs', 'hello.txt'), 'hello from the shared root');
  const args = ['-d', pg.url, '-r', root, '--cacheDir', join(dir, 'cache'), '--log', '', '--username', 'admin', '--password', ADMIN];
  // The first start migrates and makes the admin; the second meets a ready database.
  // Each its own name index (a local SQLite file per instance, as on two machines); the preview cache is shared.
  a = await startServer([...args, '--indexDir', join(dir, 'index-a')], { cwd: dir, cmd: filedeckCommand() });
  b = await startServer([...args, '--indexDir', join(dir, 'index-b')], { cwd: dir, cmd: filedeckCommand() });
  lb = await startNginx([a.url, b.url]);
}, 60_000);

afterAll(async () => {
  if (missing) return;
  await lb?.stop();
  await a?.stop();
  await b?.stop();
  pg?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const req = (base: string, method: string, path: string, init: { token?: string; body?: unknown; headers?: Record<string, string>; raw?: BodyInit } = {}) =>
  fetch(base + path, {
    method,
    headers: { ...(init.token ? { 'X-Auth': init.token } : {}), ...(init.body !== undefined ? { 'Content-Type': 'application/json' } : {}), ...init.headers },
    body: init.body !== undefined ? JSON.stringify(init.body) : init.raw,
  });
const login = async (base: string, username: string, password: string) => {
  const r = await req(base, 'POST', '/api/login', { body: { username, password } });
  expect(r.status).toBe(200);
  return r.text();
};
const both = () => [a.url, b.url];

/** One user's events stream on one instance: every job event it carried, and a wait for the one `until` names. */
function follow(base: string, token: string, until: (j: Job) => boolean) {
  const ac = new AbortController();
  const seen: Job[] = [];
  const done = fetch(`${base}/api/jobs/events`, { headers: { 'X-Auth': token }, signal: ac.signal }).then((res) => {
    expect(res.status).toBe(200);
    return readEvents(res, (event, data) => {
      if (event !== 'job') return;
      seen.push(data as Job);
      return until(data as Job);
    });
  });
  // A stream that never carries the event fails with what it did carry, rather than hanging the suite.
  const wait = (ms: number) => Promise.race([done, Bun.sleep(ms).then(() => Promise.reject(new Error(`not within ${ms} ms: ${JSON.stringify(seen.map((j) => [j.id, j.state, j.progress.filesDone]))}`)))]);
  return { seen, wait, stop: () => ac.abort() };
}

describe.skipIf(!!missing)('two instances behind nginx on one PostgreSQL database', () => {
  let admin: string;
  let bob: string;

  test('log in through nginx; the token works on both instances; lists agree', async () => {
    admin = await login(lb.url, 'admin', ADMIN);
    for (const base of [...both(), lb.url, lb.url]) {
      const r = await req(base, 'GET', '/api/resources/docs/', { token: admin });
      expect(r.status).toBe(200);
      expect((await r.json()).items.map((i: { name: string }) => i.name)).toEqual(['hello.txt']);
    }
  });

  test('tus: started on instance 1, resumed on instance 2, bytes intact, listed through nginx', async () => {
    const data = crypto.getRandomValues(new Uint8Array(256 * 1024));
    const tus = { 'Tus-Resumable': '1.0.0' };
    const created = await req(a.url, 'POST', '/api/tus/docs/upload.bin', { token: admin, headers: { ...tus, 'Upload-Length': String(data.length) } });
    expect(created.status).toBe(201);
    const patch = (base: string, from: number, to: number) =>
      req(base, 'PATCH', '/api/tus/docs/upload.bin', { token: admin, headers: { ...tus, 'Upload-Offset': String(from), 'Content-Type': 'application/offset+octet-stream' }, raw: data.slice(from, to) });
    expect((await patch(a.url, 0, 100_000)).status).toBe(204);
    const head = await req(b.url, 'HEAD', '/api/tus/docs/upload.bin', { token: admin, headers: tus });
    expect(head.headers.get('upload-offset')).toBe('100000');
    const done = await patch(b.url, 100_000, data.length);
    expect([done.status, done.headers.get('upload-offset')]).toEqual([204, String(data.length)]);
    const names = (await (await req(lb.url, 'GET', '/api/resources/docs/', { token: admin })).json()).items.map((i: { name: string }) => i.name);
    expect(names).toEqual(['hello.txt', 'upload.bin']);
    expect(new Uint8Array(readFileSync(join(dir, 'files', 'docs', 'upload.bin')))).toEqual(data);
  });

  test('a share made on one instance opens anonymously on both', async () => {
    const r = await req(a.url, 'POST', '/api/share/docs/hello.txt', { token: admin, body: {} });
    expect(r.status).toBe(200);
    const { hash } = (await r.json()) as { hash: string };
    for (const base of [...both(), lb.url]) {
      const dl = await req(base, 'GET', `/api/public/dl/${hash}`);
      expect([dl.status, await dl.text()]).toEqual([200, 'hello from the shared root']);
    }
  });

  test('a settings change on one instance applies on the other within a second', async () => {
    expect((await req(b.url, 'POST', '/api/signup', { body: { username: 'early', password: 'an-early-long-password-1' } })).status).toBe(405);
    const set = await req(a.url, 'PUT', '/api/settings', { token: admin, body: { signup: true } });
    expect(set.status).toBe(200);
    await Bun.sleep(1000);
    expect((await req(b.url, 'POST', '/api/signup', { body: { username: 'late', password: 'a-late-long-password-12' } })).status).toBe(200);
  });

  test("a user's permission change is refused on both instances", async () => {
    const created = await req(a.url, 'POST', '/api/users', { token: admin, body: { what: 'user', which: [], current_password: ADMIN, data: { username: 'bob', password: BOB, scope: '/docs', perm: { download: true } } } });
    expect(created.status).toBe(201);
    bob = await login(lb.url, 'bob', BOB);
    for (const base of both()) expect((await req(base, 'GET', '/api/raw/hello.txt', { token: bob })).status).toBe(200);
    const id = (await (await req(a.url, 'GET', '/api/users', { token: admin })).json()).find((u: { username: string }) => u.username === 'bob').id;
    const users = await req(b.url, 'GET', `/api/users/${id}`, { token: admin });
    const perm = { ...(await users.json()).perm, download: false, share: false };
    const upd = await req(b.url, 'PUT', `/api/users/${id}`, { token: admin, body: { what: 'user', which: ['perm'], current_password: ADMIN, data: { id, perm } } });
    expect(upd.status).toBe(200);
    // The change ends bob's sessions everywhere; a fresh login is refused the download on both.
    for (const base of both()) expect((await req(base, 'GET', '/api/raw/hello.txt', { token: bob })).status).toBe(401);
    bob = await login(a.url, 'bob', BOB);
    for (const base of both()) expect((await req(base, 'GET', '/api/raw/hello.txt', { token: bob })).status).toBe(403);
  });

  test('logout on one instance: the token is refused on both', async () => {
    const token = await login(b.url, 'admin', ADMIN);
    for (const base of both()) expect((await req(base, 'GET', '/api/users', { token })).status).toBe(200);
    expect((await req(a.url, 'POST', '/api/logout', { token })).status).toBe(200);
    for (const base of [...both(), lb.url]) expect((await req(base, 'GET', '/api/users', { token })).status).toBe(401);
  });

  test("a job run by instance 1 shows on instance 2's events stream, its progress and its end, to its owner only", async () => {
    const N = 20_000; // a copy of a few seconds: its progress rows are read while it runs
    makeTree(join(dir, 'files', 'many'), N, 64);
    mkdirSync(join(dir, 'files', 'copies'));
    mkdirSync(join(dir, 'files', 'carol', 'in'), { recursive: true });
    writeFileSync(join(dir, 'files', 'carol', 'in', 'a.txt'), 'carol');
    const made = await req(a.url, 'POST', '/api/users', { token: admin, body: { what: 'user', which: [], current_password: ADMIN, data: { username: 'carol', password: BOB, scope: '/carol', perm: { create: true, download: true } } } });
    expect(made.status).toBe(201);
    const carol = await login(a.url, 'carol', BOB);
    let id = 0;
    const adminStream = follow(b.url, admin, (j) => j.id === id && j.state === 'done');
    const carolStream = follow(b.url, carol, (j) => j.kind === 'copy' && j.state === 'done');
    const started = await req(a.url, 'POST', '/api/jobs', { token: admin, body: { kind: 'copy', items: ['/many'], destination: '/copies' } });
    expect(started.status).toBe(202);
    id = ((await started.json()) as Job).id;
    await adminStream.wait(120_000);
    const mine = adminStream.seen.filter((j) => j.id === id);
    expect(mine.some((j) => j.state === 'running' && j.progress.filesDone > 0 && j.progress.filesDone < N)).toBe(true);
    expect(mine.at(-1)).toMatchObject({ state: 'done', owner: mine[0]!.owner, progress: { filesDone: N, filesTotal: N } });
    expect(mine.filter((j) => j.state === 'done')).toHaveLength(1);
    // Carol's own job, started after the admin's ended, reaches her stream on instance 2; the admin's never did.
    const hers = await req(a.url, 'POST', '/api/jobs', { token: carol, body: { kind: 'copy', items: ['/in/a.txt'], destination: '/' } });
    expect(hers.status).toBe(202);
    await carolStream.wait(60_000);
    expect(carolStream.seen.some((j) => j.id === id)).toBe(false);
    expect(new Set(carolStream.seen.map((j) => j.id))).toEqual(new Set([((await hers.json()) as Job).id]));
    adminStream.stop();
    carolStream.stop();
  }, 180_000);

  test('the login rate limit counts across both instances', async () => {
    // Alternating instances cannot double the allowance: the counters are rows in the shared database.
    const codes: number[] = [];
    for (let i = 0; i < 10; i++) codes.push((await req(both()[i % 2]!, 'POST', '/api/login', { body: { username: 'bob', password: `wrong-${i}` } })).status);
    expect(codes).toEqual(Array(10).fill(403));
    for (const base of [...both(), lb.url]) {
      const r = await req(base, 'POST', '/api/login', { body: { username: 'bob', password: BOB } });
      expect(r.status).toBe(429);
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
    }
  });
});
