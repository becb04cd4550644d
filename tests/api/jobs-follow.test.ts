import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createHttpApp, createServices, type Services } from '../../server/app';
import type { Job } from '../../server/contract/job';
import { silentLogger } from '../../server/core/log';
import { openDatabase } from '../../server/db/database';
import { JobsStore } from '../../server/db/jobs.store';
import type { Sql } from '../../server/db/sql';
import { makeTree, readEvents, startJob } from '../helpers/jobs-fixture';
import { makeTestApp, type TestApp } from '../helpers/test-app';

// The events stream of one instance shows the jobs another instance runs on the same database (PostgreSQL): the
// second instance here is a second set of services in this process, on the same database, as jobs-cli.test.ts does.
const PG = !!process.env.FILEDECK_TEST_PG;
/** Files the followed copy takes: enough for it to run a few seconds, so its progress rows are read while it runs. */
const N = 20_000;
let t: TestApp;
/** A stream's wait, failing with what it saw when the time runs out (a follower that never sends would hang). */
const within = <T>(p: Promise<T>, ms: number, what: () => string) =>
  Promise.race([p, Bun.sleep(ms).then(() => Promise.reject(new Error(`not within ${ms} ms: ${what()}`)))]);

beforeAll(async () => {
  t = await makeTestApp();
}, 60_000);
afterAll(async () => {
  await t?.close();
}, 60_000);

describe('JobsStore.changedSince (the follow query)', () => {
  let db: Sql;
  let store: JobsStore;
  beforeAll(async () => {
    db = await openDatabase(t.database);
    store = new JobsStore(db);
  });
  afterAll(async () => {
    await db?.close();
  });
  const progress = { filesDone: 0, filesTotal: 1, bytesDone: 0, bytesTotal: 0, current: '' };
  const insert = (instance: string) => store.insert({ owner: 1, kind: 'delete', params: { kind: 'delete', items: ['/x'] }, progress, instance }, Date.now());

  test('rows other instances changed after a point, in change order, a page at a time; every write moves the stamp', async () => {
    const from = await store.now();
    const mine = await insert('here');
    const [x1, x2, x3] = [await insert('there'), await insert('there'), await insert('elsewhere')];
    const rows = await store.changedSince(from - 1, 0, 'here', 10);
    expect(rows.map((r) => r.id)).toEqual([x1, x2, x3]);
    expect(rows.every((r) => r.changedAt >= from - 1 && r.instance !== 'here')).toBe(true);
    // A page of 2, then the next from where it stopped.
    const page = await store.changedSince(from - 1, 0, 'here', 2);
    expect(page.map((r) => r.id)).toEqual([x1, x2]);
    expect((await store.changedSince(page[1]!.changedAt, page[1]!.id, 'here', 2)).map((r) => r.id)).toEqual([x3]);
    // Each write another instance must see moves the row past the newest stamp so far.
    const last = Math.max(...rows.map((r) => r.changedAt));
    await Bun.sleep(5);
    expect(await store.started(x1, Date.now())).toBe(true);
    await store.progress(x1, { ...progress, filesDone: 1 }, '', Date.now());
    const after = await store.changedSince(last, x3, 'here', 10);
    expect(after.map((r) => [r.id, r.state, r.progress.filesDone])).toEqual([[x1, 'running', 1]]);
    await Bun.sleep(5);
    await store.finish(x1, 'done', { ...progress, filesDone: 1 }, '', null, Date.now());
    await store.requestCancel(x2);
    const ends = await store.changedSince(after[0]!.changedAt, x1, 'here', 10);
    expect(ends.map((r) => [r.id, r.state, r.cancelRequested])).toEqual([[x1, 'done', false], [x2, 'queued', true]]);
    expect(await store.changedSince(from - 1, 0, 'there', 10).then((r) => r.map((x) => x.id))).toEqual([mine, x3]);
    // Only PostgreSQL is shared by several servers; one SQLite file has one.
    expect(store.shared).toBe(PG);
  });
});

describe.skipIf(!PG)('an events stream follows the jobs another instance runs', () => {
  let other: Services;
  beforeAll(async () => {
    other = await createServices(t.s.config, silentLogger);
    makeTree(join(t.root, 'src'), N, 64);
    mkdirSync(join(t.root, 'dst'));
    mkdirSync(join(t.root, 'carol', 'in'), { recursive: true });
    writeFileSync(join(t.root, 'carol', 'in', 'a.txt'), 'carol');
  }, 120_000);
  afterAll(async () => {
    await other?.close();
  });

  test("progress and the end of the other instance's job, to its owner only", async () => {
    const app2 = await createHttpApp(other);
    const admin = await t.adminToken();
    const carol = await t.userToken('carol', { create: true, download: true }, { scope: '/carol' });
    const follow = (token: string, on: (job: Job) => boolean) => {
      const ac = new AbortController();
      const seen: Job[] = [];
      const opened = app2.handle(new Request('http://localhost/api/jobs/events', { headers: { 'X-Auth': token }, signal: ac.signal }));
      const done = opened.then((res) =>
        readEvents(res, (event, data) => {
          if (event !== 'job') return;
          seen.push(data as Job);
          return on(data as Job);
        }),
      );
      return { seen, done, stop: () => ac.abort() };
    };
    let id = 0;
    const a = follow(admin, (j) => j.id === id && j.state === 'done');
    const c = follow(carol, (j) => j.kind === 'copy' && j.state === 'done');
    await Bun.sleep(0);
    id = (await startJob(t, admin, { kind: 'copy', items: ['/src'], destination: '/dst' })).id;
    await within(a.done, 60_000, () => JSON.stringify(a.seen.map((j) => [j.id, j.state, j.progress.filesDone])));
    const mine = a.seen.filter((j) => j.id === id);
    expect(mine.some((j) => j.state === 'running' && j.progress.filesDone > 0 && j.progress.filesDone < N)).toBe(true);
    expect(mine.at(-1)).toMatchObject({ state: 'done', progress: { filesDone: N, filesTotal: N } });
    // An end is never followed by an older version; carol's own job (started after) reaches her, the admin's never.
    expect(mine.findIndex((j) => j.state === 'done')).toBe(mine.length - 1);
    await startJob(t, carol, { kind: 'copy', items: ['/in/a.txt'], destination: '/' });
    await within(c.done, 60_000, () => JSON.stringify(c.seen.map((j) => [j.id, j.state])));
    expect(c.seen.map((j) => j.owner).filter((o) => o !== c.seen[0]!.owner)).toEqual([]);
    expect(c.seen.some((j) => j.id === id)).toBe(false);
    a.stop();
    c.stop();
  }, 120_000);
});
