import { afterEach, expect, test } from 'bun:test';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Job } from '../../server/contract/job';
import { makeTree, readEvents, startJob, tempsUnder, waitJob } from '../helpers/jobs-fixture';
import { makeTestApp, type TestApp } from '../helpers/test-app';
import { runScenarios, type Scenario } from '../helpers/scenario';

// Background jobs through app.handle(): a real database, real files, the job running in the service as it does in
// the server. Each test gets a fresh app.
let t: TestApp;
afterEach(async () => {
  await t?.close();
  t = undefined as unknown as TestApp; // a scenario table's rows leave it unset: close each app once
}, 60_000);

const countFiles = (dir: string) => readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length;

test('a 10,000-file copy as a job: progress events with rate and time left, then done with every file', async () => {
  const N = 10_000;
  t = await makeTestApp();
  const token = await t.adminToken();
  // Big enough to run well past the 500 ms after which a job reports its rate (5,000 files ended within ~750 ms).
  const bytes = makeTree(join(t.root, 'src'), N, 512);
  mkdirSync(join(t.root, 'dst'));
  const events = await t.req('GET', '/api/jobs/events', { token });
  expect(events.headers.get('content-type')).toContain('text/event-stream');
  const seen: Job[] = [];
  let snapshot: unknown = null;
  let id = 0;
  const reading = readEvents(events, (event, data) => {
    if (event === 'jobs') snapshot = data;
    if (event === 'job') seen.push(data as Job);
    const j = data as Job;
    return event === 'job' && j.id === id && j.state === 'done';
  });
  const job = await startJob(t, token, { kind: 'copy', items: ['/src'], destination: '/dst' });
  id = job.id;
  expect(job.state === 'queued' || job.state === 'running').toBe(true);
  await reading;
  expect(snapshot).toEqual([]);
  const mine = seen.filter((j) => j.id === id);
  const last = mine.at(-1)!;
  expect(last.state).toBe('done');
  expect(last.progress).toMatchObject({ filesDone: N, filesTotal: N, bytesDone: bytes, bytesTotal: bytes });
  expect(last.result?.paths).toEqual(['/dst/src']);
  // Progress came in steps while running, not only at the end.
  const running = mine.filter((j) => j.state === 'running' && j.progress.filesDone > 0 && j.progress.filesDone < N);
  expect(running.length).toBeGreaterThan(0);
  expect(running.some((j) => j.rate > 0 && j.secondsLeft !== null)).toBe(true);
  expect(countFiles(join(t.root, 'dst', 'src'))).toBe(N);
  expect(tempsUnder(t.root)).toEqual([]);
}, 120_000);

test('cancel mid-copy: state cancelled, nothing half-copied left (no folder, no temp)', async () => {
  t = await makeTestApp();
  const token = await t.adminToken();
  makeTree(join(t.root, 'src'), 5000, 8192);
  mkdirSync(join(t.root, 'dst'));
  const events = await t.req('GET', '/api/jobs/events', { token });
  let id = 0;
  let cancelledAt = -1;
  const reading = readEvents(events, (event, data) => {
    const j = data as Job;
    if (event !== 'job' || j.id !== id) return;
    if (cancelledAt < 0 && j.state === 'running' && j.progress.filesDone > 0) {
      cancelledAt = j.progress.filesDone;
      void t.req('DELETE', `/api/jobs/${id}`, { token });
    }
    return j.state !== 'queued' && j.state !== 'running';
  });
  id = (await startJob(t, token, { kind: 'copy', items: ['/src'], destination: '/dst' })).id;
  await reading;
  const end = await waitJob(t, token, id);
  expect(end.state).toBe('cancelled');
  expect(cancelledAt).toBeGreaterThan(0);
  expect(end.progress.filesDone).toBeLessThan(5000);
  expect(readdirSync(join(t.root, 'dst'))).toEqual([]);
  expect(tempsUnder(t.root)).toEqual([]);
  expect(countFiles(join(t.root, 'src'))).toBe(5000);
}, 120_000);

test('a job keeps running with no client connected, and is listed with its end', async () => {
  t = await makeTestApp();
  const token = await t.adminToken();
  makeTree(join(t.root, 'a'), 1500);
  mkdirSync(join(t.root, 'b'));
  const events = await t.req('GET', '/api/jobs/events', { token });
  await events.body!.cancel(); // the tab closes at once
  const job = await startJob(t, token, { kind: 'move', items: ['/a'], destination: '/b' });
  const end = await waitJob(t, token, job.id);
  expect(end.state).toBe('done');
  expect(existsSync(join(t.root, 'a'))).toBe(false);
  expect(countFiles(join(t.root, 'b', 'a'))).toBe(1500);
  const list: Job[] = await (await t.req('GET', '/api/jobs', { token })).json();
  expect(list.map((j) => [j.id, j.state])).toEqual([[job.id, 'done']]);
}, 60_000);

test('conflicts decided up front: skip, keep both, replace', async () => {
  t = await makeTestApp();
  const token = await t.adminToken();
  for (const d of ['x', 'dst']) mkdirSync(join(t.root, d));
  writeFileSync(join(t.root, 'x', 'one.txt'), 'new');
  writeFileSync(join(t.root, 'x', 'two.txt'), 'two');
  writeFileSync(join(t.root, 'dst', 'one.txt'), 'old');
  const items = ['/x/one.txt', '/x/two.txt'];
  const skip = await waitJob(t, token, (await startJob(t, token, { kind: 'copy', items, destination: '/dst', conflict: 'skip' })).id);
  expect(skip.state).toBe('done');
  expect(skip.result).toEqual({ paths: ['/dst/two.txt'], skipped: ['/x/one.txt'] });
  expect(readFileSync(join(t.root, 'dst', 'one.txt'), 'utf8')).toBe('old');
  const both = await waitJob(t, token, (await startJob(t, token, { kind: 'copy', items: ['/x/one.txt'], destination: '/dst', conflict: 'rename' })).id);
  expect(both.result?.paths).toEqual(['/dst/one(1).txt']);
  const replace = await waitJob(t, token, (await startJob(t, token, { kind: 'copy', items: ['/x/one.txt'], destination: '/dst', conflict: 'replace' })).id);
  expect(replace.state).toBe('done');
  expect(readFileSync(join(t.root, 'dst', 'one.txt'), 'utf8')).toBe('new');
}, 60_000);

// Each row is refused before anything starts, so the rows share one app (the old loop's order kept).
runScenarios(
  'bad job requests are 4xx at once',
  async (t) => {
    mkdirSync(join(t.root, 'src'));
    writeFileSync(join(t.root, 'src', 'f.txt'), 'f');
    return {};
  },
  ([
    [{ kind: 'shred', items: ['/src'] }, 400, 'kind must be one of'],
    [{ kind: 'copy', items: [] }, 400, 'non-empty list'],
    [{ kind: 'copy', items: ['/../etc'], destination: '/' }, 400, 'relative segment'],
    [{ kind: 'copy', items: ['/missing'], destination: '/src' }, 404, ''],
    [{ kind: 'copy', items: ['/src'], destination: '/src/f.txt' }, 400, 'must be a folder'],
    [{ kind: 'move', items: ['/src'], destination: '/src' }, 400, 'inside the source'],
    [{ kind: 'copy', items: ['/src'], destination: '/src', conflict: 'merge' }, 400, 'conflict must be'],
    [{ kind: 'extract', items: ['/src/f.txt'] }, 415, 'not an archive'],
    [{ kind: 'delete', items: ['/src'], destination: '/x' }, 400, 'no destination'],
    [{ kind: 'copy', items: ['/src'], destination: '/', extra: 1 }, 400, 'unknown job field'],
  ] as [unknown, number, string][]).map(([body, status, text]): Scenario => ({ name: JSON.stringify(body), as: 'admin', method: 'POST', url: '/api/jobs', body, status, contains: text })),
  { shared: true },
);

test('permissions and rules are the routes\' own', async () => {
  t = await makeTestApp();
  const admin = await t.adminToken();
  mkdirSync(join(t.root, 'src'));
  writeFileSync(join(t.root, 'src', 'f.txt'), 'f');
  // A user without delete cannot start a delete job; a rule hiding a file inside a tree fails the job as the route would.
  const bob = await t.userToken('bob', { delete: false }, { scope: '/' });
  expect((await t.req('POST', '/api/jobs', { token: bob, body: { kind: 'delete', items: ['/src'] } })).status).toBe(403);
  const carol = await t.userToken('carol', {}, { scope: '/', rules: [{ allow: false, path: '/src/f.txt', regex: false }] });
  mkdirSync(join(t.root, 'out'));
  const job = await waitJob(t, carol, (await startJob(t, carol, { kind: 'delete', items: ['/src'] })).id);
  expect(job.state).toBe('failed');
  expect(existsSync(join(t.root, 'src', 'f.txt'))).toBe(true);
  // Jobs are private: another user neither sees nor cancels them.
  expect((await t.req('GET', `/api/jobs/${job.id}`, { token: bob })).status).toBe(404);
  expect((await t.req('DELETE', `/api/jobs/${job.id}`, { token: bob })).status).toBe(404);
  expect((await t.req('GET', `/api/jobs/${job.id}`, { token: admin })).status).toBe(200);
}, 60_000);

test('archive-to-file: written through a temp and claimed; keeps both on a name clash', async () => {
  t = await makeTestApp();
  const token = await t.adminToken();
  makeTree(join(t.root, 'docs'), 120);
  mkdirSync(join(t.root, 'out'));
  writeFileSync(join(t.root, 'out', 'docs.zip'), 'taken');
  const j = await waitJob(t, token, (await startJob(t, token, { kind: 'archive', items: ['/docs'], destination: '/out' })).id);
  expect(j.state).toBe('done');
  expect(j.result?.paths).toEqual(['/out/docs(1).zip']);
  const zip = readFileSync(join(t.root, 'out', 'docs(1).zip'));
  expect(zip.subarray(0, 2).toString()).toBe('PK');
  const listing = Bun.spawnSync(['unzip', '-l', join(t.root, 'out', 'docs(1).zip')]).stdout.toString();
  expect(listing).toContain('122 files'); // 120 files and their 2 folders
  expect(readFileSync(join(t.root, 'out', 'docs.zip'), 'utf8')).toBe('taken');
  expect(tempsUnder(t.root)).toEqual([]);
}, 60_000);

test('two jobs of one user run one after the other; at most two at once overall', async () => {
  t = await makeTestApp();
  const token = await t.adminToken();
  for (const n of ['a', 'b']) makeTree(join(t.root, n), 800);
  mkdirSync(join(t.root, 'dst'));
  const first = await startJob(t, token, { kind: 'copy', items: ['/a'], destination: '/dst' });
  const second = await startJob(t, token, { kind: 'copy', items: ['/b'], destination: '/dst' });
  expect(second.state).toBe('queued');
  const [a, b] = [await waitJob(t, token, first.id), await waitJob(t, token, second.id)];
  expect([a.state, b.state]).toEqual(['done', 'done']);
  expect(b.startedAt!).toBeGreaterThanOrEqual(a.finishedAt!);
}, 60_000);

test('a delete job does what DELETE does: into the trash when it is on, for good with permanent', async () => {
  t = await makeTestApp();
  const token = await t.adminToken();
  makeTree(join(t.root, 'old'), 300);
  makeTree(join(t.root, 'gone'), 300);
  const trashed = await waitJob(t, token, (await startJob(t, token, { kind: 'delete', items: ['/old'] })).id);
  expect([trashed.state, trashed.progress.filesDone]).toEqual(['done', 300]);
  const forGood = await waitJob(t, token, (await startJob(t, token, { kind: 'delete', items: ['/gone'], permanent: true })).id);
  expect(forGood.state).toBe('done');
  expect(existsSync(join(t.root, 'old')) || existsSync(join(t.root, 'gone'))).toBe(false);
  const trash = JSON.stringify(await (await t.req('GET', '/api/trash', { token })).json());
  expect(trash).toContain('/old');
  expect(trash).not.toContain('/gone');
}, 60_000);
