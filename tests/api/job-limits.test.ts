import { afterEach, expect, test } from 'bun:test';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Job } from '../../server/contract/job';
import { JobsStore } from '../../server/db/jobs.store';
import { makeTestApp, type TestApp } from '../helpers/test-app';

// Queued work is bounded: jobs and their items per user and in all (config caps, 429 past them), lists and events
// never carry every item of a long job, GET /api/jobs pages.
let t: TestApp;
afterEach(async () => {
  await t?.close();
});

const progress = { filesDone: 0, filesTotal: 0, bytesDone: 0, bytesTotal: 0, current: '' };
/**
 * A job queued by another instance (its row only; this process never runs it): what a flood of queued jobs looks
 * like to the caps and to the lists, with no timing involved.
 */
const queuedElsewhere = (owner: number, items: string[]) =>
  new JobsStore(t.s.db).insert({ owner, kind: 'delete', params: { kind: 'delete', items }, progress, instance: 'another-host:1:abcd' }, Date.now());
const names = (n: number, prefix: string) => Array.from({ length: n }, (_, i) => `/${prefix}-${String(i).padStart(5, '0')}-${'x'.repeat(90)}`);

test('caps: a user past their queued jobs or items, and everyone past the total, get 429 with a message; an ended job frees its place', async () => {
  t = await makeTestApp({ jobQueuePerUser: 3, jobItemsPerUser: 100, jobQueue: 5, jobItems: 250 });
  const bob = await t.userToken('bob', { create: true, rename: true, delete: true });
  const carol = await t.userToken('carol', { create: true, rename: true, delete: true });
  mkdirSync(join(t.root, 'f'));
  for (let i = 0; i < 100; i++) writeFileSync(join(t.root, 'f', `${i}.txt`), 'x');
  const items = (n: number) => Array.from({ length: n }, (_, i) => `/f/${i}.txt`);
  const start = (token: string, n: number) => t.req('POST', '/api/jobs', { token, body: { kind: 'copy', items: items(n), destination: '/' } });

  const a = await queuedElsewhere(2, names(10, 'a'));
  await queuedElsewhere(2, names(10, 'b'));
  await queuedElsewhere(2, names(10, 'c'));
  const jobs = await start(bob, 1);
  expect(jobs.status).toBe(429);
  expect(await jobs.text()).toContain('you have 3 jobs queued or running');
  // Cancelling one frees its place (a queued job of another process is cancelled through its row).
  expect((await t.req('DELETE', `/api/jobs/${a}`, { token: bob })).status).toBe(200);
  const much = await start(bob, 90); // 20 queued + 90 > 100
  expect(much.status).toBe(429);
  expect(await much.text()).toContain('more than the 100 allowed');
  expect((await t.req('POST', '/api/jobs', { token: bob, body: { kind: 'copy', items: names(101, 'z'), destination: '/' } })).status).toBe(429);

  // In all: carol has nothing queued, but the server is at its total.
  await queuedElsewhere(1, names(100, 'd'));
  await queuedElsewhere(1, names(100, 'e'));
  const total = await start(carol, 40); // 20 + 200 + 40 > 250
  expect(total.status).toBe(429);
  expect(await total.text()).toContain('the server\'s queued and running jobs');
  expect((await start(carol, 30)).status).toBe(202); // 250: exactly at the cap
  const rows = await new JobsStore(t.s.db).active(3);
  expect(rows.all.items).toBeLessThanOrEqual(250);
}, 30_000);

test('GET /api/jobs and the events show the first 20 items of a long job with its count, and page with limit and cursor', async () => {
  t = await makeTestApp();
  const admin = await t.adminToken();
  // Five jobs of 10,000 long names each (~5 MB of names): the list once carried every one of them.
  for (let i = 0; i < 5; i++) await queuedElsewhere(1, names(10_000, `j${i}`));
  const r = await t.req('GET', '/api/jobs', { token: admin });
  expect(r.status).toBe(200);
  const body = await r.text();
  expect(body.length).toBeLessThan(100_000);
  const list: Job[] = JSON.parse(body);
  expect(list).toHaveLength(5);
  for (const j of list) {
    expect(j.params.items).toHaveLength(20);
    expect(j.params.itemCount).toBe(10_000);
  }
  // One job asked for by id while it waits: every item it was given.
  const one: Job = await (await t.req('GET', `/api/jobs/${list[0]!.id}`, { token: admin })).json();
  expect(one.params.items).toHaveLength(10_000);

  // Pages: newest first, the cursor in X-Next-Cursor while more may follow, no job twice.
  const p1 = await t.req('GET', '/api/jobs?limit=2', { token: admin });
  const first: Job[] = await p1.json();
  expect(first.map((j) => j.id)).toEqual(list.slice(0, 2).map((j) => j.id));
  const cursor = p1.headers.get('x-next-cursor');
  expect(cursor).toBe(String(first[1]!.id));
  const p2 = await t.req('GET', `/api/jobs?limit=2&cursor=${cursor}`, { token: admin });
  expect(((await p2.json()) as Job[]).map((j) => j.id)).toEqual(list.slice(2, 4).map((j) => j.id));
  const p3 = await t.req('GET', `/api/jobs?limit=2&cursor=${p2.headers.get('x-next-cursor')}`, { token: admin });
  expect(((await p3.json()) as Job[]).map((j) => j.id)).toEqual([list[4]!.id]);
  expect(p3.headers.get('x-next-cursor')).toBeNull();
  for (const bad of ['limit=0', 'limit=501', 'limit=x', 'cursor=-1']) expect((await t.req('GET', `/api/jobs?${bad}`, { token: admin })).status).toBe(400);
}, 30_000);

test('a queued job keeps only its first items in memory, and an ended one keeps a summary on record', async () => {
  t = await makeTestApp();
  const admin = await t.adminToken();
  mkdirSync(join(t.root, 'f'));
  for (let i = 0; i < 30; i++) writeFileSync(join(t.root, 'f', `${i}.txt`), 'x');
  const items = Array.from({ length: 30 }, (_, i) => `/f/${i}.txt`);
  const r = await t.req('POST', '/api/jobs', { token: admin, body: { kind: 'delete', items, permanent: true } });
  expect(r.status).toBe(202);
  const job: Job = await r.json();
  expect(job.params.items).toHaveLength(20);
  expect(job.params.itemCount).toBe(30);
  // Waiting or running, the process holds at most the first 20 until the job starts and reads the rest from its row.
  const live = (t.s.jobs as unknown as { live: Map<number, { state: string; req: { items: string[] } }> }).live.get(job.id);
  if (live?.state === 'queued') expect(live.req.items.length).toBeLessThanOrEqual(20);
  let end: Job;
  for (;;) {
    end = await (await t.req('GET', `/api/jobs/${job.id}`, { token: admin })).json();
    if (end.state !== 'queued' && end.state !== 'running') break;
    await Bun.sleep(20);
  }
  expect(end.state).toBe('done'); // every one of the 30 items was done, not only the 20 shown
  expect((await t.req('GET', '/api/resources/f', { token: admin }).then((x) => x.json())).items).toEqual([]);
  const row = await new JobsStore(t.s.db).get(job.id);
  expect(row!.params.items).toHaveLength(20);
  expect(row!.params.itemCount).toBe(30);
}, 30_000);
