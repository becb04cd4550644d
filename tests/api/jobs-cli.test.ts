import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SQL } from 'bun';
import { createHttpApp, createServices, type Services } from '../../server/app';
import type { Job } from '../../server/contract/job';
import { silentLogger } from '../../server/core/log';
import { cli, cliHeld, startServer, type RunningServer } from '../helpers/binary';
import { cliJson, cliRefused } from '../helpers/cli-expect';
import { makeTree, startJob, tempsUnder, waitJob } from '../helpers/jobs-fixture';
import { makeTestApp, type TestApp } from '../helpers/test-app';

// `filedeck jobs` runs in its own process against the database of an app whose jobs run in this process (SQLite, or
// PostgreSQL with FILEDECK_TEST_PG): so every cancel here crosses processes, through the job's row, as it does
// against a running server or another instance.
let t: TestApp;
let bob = '';
let admin = '';
const N = 20_000;

const fd = (...args: string[]) => cli(['-d', t.database, '-r', t.root, ...args], { cwd: t.dir });
/** fd() with this process's event loop held: the jobs of `t` run on it, so none moves while the command runs. */
const fdHeld = (...args: string[]) => cliHeld(['-d', t.database, '-r', t.root, ...args], { cwd: t.dir });
const json = cliJson;
const refused = cliRefused;
const api = async (id: number) => (await (await t.req('GET', `/api/jobs/${id}`, { token: admin })).json()) as Job;
/** Waits until a job has copied some files, so a cancel meets it mid-copy. */
async function running(id: number): Promise<Job> {
  for (let i = 0; i < 1500; i++) {
    const j = await api(id);
    if (j.state !== 'queued' && (j.state !== 'running' || j.progress.filesDone > 50)) return j;
    await Bun.sleep(20);
  }
  throw new Error(`job ${id} did not start`);
}

beforeAll(async () => {
  t = await makeTestApp();
  admin = await t.adminToken();
  bob = await t.userToken('bob');
  makeTree(join(t.root, 'src'), N, 4096);
  for (const d of ['dst1', 'dst2', 'dst3', 'dst4']) mkdirSync(join(t.root, d));
}, 120_000);
afterAll(async () => {
  await t?.close();
}, 60_000);

describe('filedeck jobs', () => {
  test('ls, show and cancel: a queued job at once, a running one within about a second, nothing half-copied', async () => {
    const small = await startJob(t, bob, { kind: 'copy', items: ['/src/d0/f0.txt'], destination: '/dst4' });
    expect((await waitJob(t, bob, small.id)).state).toBe('done');
    // Bob runs one job at a time: the second waits in the queue.
    const big = await startJob(t, bob, { kind: 'copy', items: ['/src'], destination: '/dst1' });
    const queued = await startJob(t, bob, { kind: 'copy', items: ['/src'], destination: '/dst2' });
    expect((await running(big.id)).state).toBe('running');
    expect((await api(queued.id)).state).toBe('queued');

    const ls = await fdHeld('jobs', 'ls');
    expect(ls.code).toBe(0);
    expect(ls.stdout).toMatch(/ID\s+Owner\s+Kind\s+State\s+Progress/);
    expect(ls.stdout).toMatch(new RegExp(`${big.id}\\s+bob\\s+copy\\s+running`));
    expect(ls.stdout).toMatch(new RegExp(`${queued.id}\\s+bob\\s+copy\\s+queued`));
    expect(ls.stdout).not.toMatch(new RegExp(`^${small.id}\\s`, 'm')); // ended: only with --all
    expect((await json<Job[]>(fdHeld('jobs', 'ls', '--all', '--json'))).map((j) => j.id)).toEqual([queued.id, big.id, small.id]);
    expect((await json<Job[]>(fdHeld('jobs', 'ls', '--state', 'done', '--user', 'bob', '--json'))).map((j) => j.id)).toEqual([small.id]);
    expect(await json<Job[]>(fdHeld('jobs', 'ls', '--all', '--user', 'admin', '--json'))).toEqual([]);
    expect((await fdHeld('jobs', 'ls', '--user', 'admin')).stdout).toContain('No queued or running jobs');
    const shown = await json<Job>(fdHeld('jobs', 'show', String(small.id), '--json'));
    expect(shown).toMatchObject({ id: small.id, kind: 'copy', state: 'done', params: { items: ['/src/d0/f0.txt'], destination: '/dst4' } });
    const show = await fdHeld('jobs', 'show', String(big.id));
    expect(show.stdout).toMatch(/State\s+running/);
    expect(show.stdout).toMatch(/Owner\s+bob/);

    // The queued job is cancelled there and then, and the app holding it never runs it.
    const q = await json<Job>(fdHeld('jobs', 'cancel', String(queued.id), '--json'));
    expect(q.state).toBe('cancelled');
    // The running one: asked through its row, stopped by the app's tick, its staged copy discarded.
    // The CLI waits for the end, which needs this loop: it runs freely, and the loop is held (so the job cannot end
    // on its own first) until the cancel is on the job's row.
    const cancelling = fd('jobs', 'cancel', String(big.id));
    for (let i = 0; i < 100; i++) {
      const row = await json<Job>(fdHeld('jobs', 'show', String(big.id), '--json'));
      expect(row.state).toBe('running');
      if (row.cancelRequested) break;
    }
    const asked = Date.now();
    const out = await cancelling;
    expect(out.stderr).toBe('');
    expect(out.stdout.trim()).toBe(`Job ${big.id} cancelled`);
    const end = await waitJob(t, admin, big.id, 10_000);
    expect(end.state).toBe('cancelled');
    expect(end.error).toBe('cancelled');
    expect(end.progress.filesDone).toBeLessThan(N);
    // From the moment the job could move again; the cancel itself takes about a second.
    expect(Date.now() - asked).toBeLessThan(6_000);
    expect((await waitJob(t, admin, queued.id, 5_000)).state).toBe('cancelled');
    expect(readdirSync(join(t.root, 'dst1'))).toEqual([]);
    expect(readdirSync(join(t.root, 'dst2'))).toEqual([]);
    expect(tempsUnder(t.root)).toEqual([]);
    // Cancelling an ended job changes nothing.
    expect((await fd('jobs', 'cancel', String(small.id))).stdout.trim()).toBe(`Job ${small.id} had already ended: done`);
    expect((await api(small.id)).state).toBe('done');
  }, 120_000);

  test('bad input: one line, exit 1', async () => {
    await refused(fd('jobs', 'show', '999999'), 'no job 999999');
    await refused(fd('jobs', 'show', 'abc'), 'is not a job id');
    await refused(fd('jobs', 'cancel', '0'), 'is not a job id');
    await refused(fd('jobs', 'cancel', '424242'), 'no job 424242');
    await refused(fd('jobs', 'ls', '--state', 'sideways'), 'is not a job state');
    await refused(fd('jobs', 'ls', '--user', 'nobody'), 'nobody');
    await refused(fd('jobs', 'ls', '--limit', 'lots'), '--limit');
    await refused(fd('jobs', 'cancel', '1', '--wait', 'forever'), '--wait');
  }, 60_000);
});

describe('cancel on another instance', () => {
  let other: Services;
  beforeAll(async () => {
    other = await createServices(t.s.config, silentLogger);
  });
  afterAll(async () => {
    await other?.close();
  });

  test('DELETE /api/jobs/:id on an instance that does not hold the job cancels it (was 409); a user still cancels only their own', async () => {
    const app2 = await createHttpApp(other);
    const del = (id: number, token: string) => app2.handle(new Request(`http://localhost/api/jobs/${id}`, { method: 'DELETE', headers: { 'X-Auth': token } }));
    const job = await startJob(t, bob, { kind: 'copy', items: ['/src'], destination: '/dst3' });
    expect((await running(job.id)).state).toBe('running');
    const carol = await t.userToken('carol');
    expect((await del(job.id, carol)).status).toBe(404);
    const r = await del(job.id, bob);
    expect(r.status).toBe(200);
    const seen = (await r.json()) as Job;
    expect(seen.state).toBe('running');
    expect(seen.cancelRequested).toBe(true);
    const asked = Date.now();
    const end = await waitJob(t, bob, job.id, 10_000);
    expect(end.state).toBe('cancelled');
    expect(Date.now() - asked).toBeLessThan(2_500);
    expect(end.cancelRequested).toBeUndefined();
    expect(readdirSync(join(t.root, 'dst3'))).toEqual([]);
    expect(tempsUnder(t.root)).toEqual([]);
    expect(existsSync(join(t.root, 'src', 'd199', `f${N - 1}.txt`))).toBe(true);
  }, 120_000);
});

describe('a served instance', () => {
  const dir = mkdtempSync(join(tmpdir(), 'filedeck-jobs-cli-'));
  const root = join(dir, 'files');
  let db = join(dir, 'db', 'filedeck.db');
  let server: RunningServer | null = null;
  const PW = 'jobs-cli-admin-password-6613';
  beforeAll(async () => {
    const pg = process.env.FILEDECK_TEST_PG;
    if (pg) {
      const sql = new SQL(pg, { max: 1 });
      const name = `jobscli_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
      await sql.unsafe(`CREATE SCHEMA ${name}`);
      await sql.close();
      db = `${pg}?search_path=${name}`;
    }
    server = await startServer(['-d', db, '-r', root, '--username', 'admin', '--password', PW, '--log', ''], { cwd: dir });
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('filedeck jobs cancel stops a copy running in `filedeck serve`: cancelled, nothing half-copied', async () => {
    makeTree(join(root, 'src'), N, 4096);
    mkdirSync(join(root, 'dst'));
    const login = await fetch(`${server!.url}/api/login`, { method: 'POST', body: JSON.stringify({ username: 'admin', password: PW }) });
    const auth = { 'X-Auth': await login.text() };
    const get = async (id: number) => (await (await fetch(`${server!.url}/api/jobs/${id}`, { headers: auth })).json()) as Job;
    const r = await fetch(`${server!.url}/api/jobs`, { method: 'POST', headers: auth, body: JSON.stringify({ kind: 'copy', items: ['/src'], destination: '/dst' }) });
    expect(r.status).toBe(202);
    const { id } = (await r.json()) as Job;
    let j = await get(id);
    for (let i = 0; i < 1500 && (j.state === 'queued' || (j.state === 'running' && j.progress.filesDone < 50)); i++) {
      await Bun.sleep(20);
      j = await get(id);
    }
    expect(j.state).toBe('running');
    const out = await cli(['-d', db, '-r', root, 'jobs', 'cancel', String(id), '--json'], { cwd: dir });
    expect(out.stderr).toBe('');
    const end = JSON.parse(out.stdout) as Job;
    expect(end.state).toBe('cancelled');
    expect(end.progress.filesDone).toBeLessThan(N);
    expect((await get(id)).state).toBe('cancelled');
    expect(readdirSync(join(root, 'dst'))).toEqual([]);
    expect(tempsUnder(root)).toEqual([]);
  }, 120_000);
});
