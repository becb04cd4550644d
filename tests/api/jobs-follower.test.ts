import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { Job } from '../../server/contract/job';
import type { Logger } from '../../server/core/log';
import { openDatabase } from '../../server/db/database';
import { JobsStore } from '../../server/db/jobs.store';
import type { Sql } from '../../server/db/sql';
import { JobFollower, type FollowTiming } from '../../server/services/jobs/job-follower';
import { postgresAvailable, startPostgres, type PgCluster } from '../helpers/postgres';
import { makeTestApp, type TestApp } from '../helpers/test-app';

// The follower's own life: when it reads, what it logs when the database fails, what it remembers. It reads rows
// through a real JobsStore on the engine under test (it runs only on PostgreSQL in the server, but its store
// queries work on both), with short intervals so a second of the server's time is a few tens of ms here.
const FAST: FollowTiming = { pollMs: 40, retryMs: 120, overlapMs: 300 };
const progress = { filesDone: 0, filesTotal: 1, bytesDone: 0, bytesTotal: 0, current: '' };

/** A logger keeping its lines (what the server would write), by level. */
function lines(): Logger & { warn: (m: string) => void; out: { level: string; msg: string }[] } {
  const out: { level: string; msg: string }[] = [];
  return { out, info: (msg) => void out.push({ level: 'info', msg }), warn: (msg) => void out.push({ level: 'warn', msg }), error: (msg) => void out.push({ level: 'error', msg }) };
}

/** A follower on `store` as the instance "here", with what it emitted and logged. */
function follower(store: JobsStore, timing: Partial<FollowTiming> = FAST) {
  const seen: Job[] = [];
  const log = lines();
  const f = new JobFollower(store, 'here', (j) => void seen.push(j), log, timing);
  return { f, seen, log, warns: () => log.out.filter((l) => l.level === 'warn') };
}

const insert = (store: JobsStore, instance = 'there') => store.insert({ owner: 1, kind: 'delete', params: { kind: 'delete', items: ['/x'] }, progress, instance }, Date.now());

/** Waits until `ok` holds, failing with `what` when it does not within `ms`. */
async function until(ok: () => boolean, ms: number, what: () => string): Promise<void> {
  for (const end = Date.now() + ms; !ok(); await Bun.sleep(10)) if (Date.now() > end) throw new Error(`not within ${ms} ms: ${what()}`);
}

let t: TestApp;
let db: Sql;
let store: JobsStore;
beforeAll(async () => {
  t = await makeTestApp();
  db = await openDatabase(t.database);
  store = new JobsStore(db);
}, 60_000);
afterAll(async () => {
  await db?.close();
  await t?.close();
}, 60_000);

test('reads only while started: stop ends it, and after close a start does nothing', async () => {
  const { f, seen } = follower(store);
  f.start();
  const a = await insert(store);
  await until(() => seen.some((j) => j.id === a), 5_000, () => JSON.stringify(seen.map((j) => j.id)));
  f.stop();
  const b = await insert(store);
  await Bun.sleep(FAST.pollMs * 5);
  expect(seen.some((j) => j.id === b)).toBe(false);
  // Started again (a new stream), it reads again; closed (the service stops), nothing starts it again.
  f.start();
  await until(() => seen.some((j) => j.id === b), 5_000, () => JSON.stringify(seen.map((j) => j.id)));
  f.close();
  f.start();
  const c = await insert(store);
  await Bun.sleep(FAST.pollMs * 5);
  expect(seen.some((j) => j.id === c)).toBe(false);
}, 30_000);

test('a failing read is logged once, retried at the retry pace, and following resumes when the table answers', async () => {
  const { f, seen, log, warns } = follower(store);
  f.start();
  const a = await insert(store);
  await until(() => seen.some((j) => j.id === a), 5_000, () => JSON.stringify(seen.map((j) => j.id)));
  // Every read fails while the table is away: many retries' worth of time, one line.
  await db.exec('ALTER TABLE jobs RENAME TO jobs_away');
  try {
    await until(() => warns().length > 0, 5_000, () => JSON.stringify(log.out));
    await Bun.sleep(FAST.retryMs * 5);
  } finally {
    await db.exec('ALTER TABLE jobs_away RENAME TO jobs');
  }
  expect(warns()).toHaveLength(1);
  expect(warns()[0]!.msg).toContain('following other instances failed');
  const b = await insert(store);
  await until(() => seen.some((j) => j.id === b), 5_000, () => JSON.stringify(log.out));
  expect(log.out.filter((l) => l.level === 'info').map((l) => l.msg)).toEqual(['jobs: following other instances again']);
  expect(warns()).toHaveLength(1);
  f.close();
}, 30_000);

test('remembers only the rows changed within the overlap of its latest read, however quiet it gets', async () => {
  const { f, seen } = follower(store);
  f.start();
  const ids = [await insert(store), await insert(store), await insert(store)];
  await until(() => ids.every((id) => seen.some((j) => j.id === id)), 5_000, () => JSON.stringify(seen.map((j) => j.id)));
  expect(f.tracked).toBeGreaterThanOrEqual(3);
  // No change for a few overlaps: nothing is read again, so nothing is kept (each version was sent once).
  await until(() => f.tracked === 0, 5_000, () => `still tracking ${f.tracked}`);
  expect(seen.filter((j) => ids.includes(j.id))).toHaveLength(3);
  // A new version of a forgotten row is still sent (once).
  expect(await store.started(ids[0]!, Date.now())).toBe(true);
  await until(() => seen.some((j) => j.id === ids[0] && j.state === 'running'), 5_000, () => JSON.stringify(seen.map((j) => [j.id, j.state])));
  await Bun.sleep(FAST.pollMs * 5);
  expect(seen.filter((j) => j.id === ids[0] && j.state === 'running')).toHaveLength(1);
  f.close();
}, 30_000);

// A real outage: a cluster of its own, stopped under the follower and started again.
describe.skipIf(!process.env.FILEDECK_TEST_PG || !postgresAvailable())('PostgreSQL down and back', () => {
  let pg: PgCluster;
  let own: Sql;
  beforeAll(async () => {
    pg = await startPostgres();
    own = await openDatabase(pg.url);
    // The owner its job rows name (the other columns have defaults).
    await own.run(`INSERT INTO users (id, username, password, scope, perm, created_at, updated_at) VALUES (1, 'admin', 'x', '/', '{}', 0, 0)`);
  }, 120_000);
  afterAll(async () => {
    await own?.close().catch(() => {});
    pg?.stop();
  }, 60_000);

  test('the server stopped: one line however long it is down, and the rows again once it is back', async () => {
    const ownStore = new JobsStore(own);
    const { f, seen, log, warns } = follower(ownStore);
    f.start();
    const a = await insert(ownStore);
    await until(() => seen.some((j) => j.id === a), 5_000, () => JSON.stringify(seen.map((j) => j.id)));
    pg.pause();
    try {
      await until(() => warns().length > 0, 30_000, () => JSON.stringify(log.out));
      await Bun.sleep(FAST.retryMs * 5);
    } finally {
      pg.resume();
    }
    expect(warns()).toHaveLength(1);
    // The pool's connections died with the server: a statement right after the restart may still fail (503 in the
    // app; postgres-outage.test.ts retries the same way), the next ones reconnect.
    let b: Awaited<ReturnType<typeof insert>> | undefined;
    for (let i = 0; b === undefined; i++) {
      try {
        b = await insert(ownStore);
      } catch (e) {
        if (i >= 50) throw e;
        await Bun.sleep(200);
      }
    }
    await until(() => seen.some((j) => j.id === b), 30_000, () => JSON.stringify(log.out));
    expect(log.out.filter((l) => l.level === 'info')).toHaveLength(1);
    f.close();
  }, 120_000);
});
