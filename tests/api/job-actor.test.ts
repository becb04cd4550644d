import { afterEach, expect, test } from 'bun:test';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { createHttpApp, createServices } from '../../server/app';
import { silentLogger } from '../../server/core/log';
import { makeTree, startJob, tempsUnder } from '../helpers/jobs-fixture';
import { ADMIN_PASSWORD, makeTestApp, type TestApp } from '../helpers/test-app';

// A running job acts with its owner's rights as the database has them now (jobs/job-actor.ts): checked before each
// item and about once a second, it ends when they lose the permission, the scope or the account.
let t: TestApp;
afterEach(async () => {
  await t?.close();
}, 30_000);

type LiveJob = { temp: string; state: string };
const liveJobs = () => (t.s.jobs as unknown as { live: Map<number, LiveJob> }).live;

/** Calls `act` once, when the job first reports a temp (its first item is being copied): the same point before and after the fix. */
function onFirstTemp(id: number, act: () => Promise<unknown>): Promise<unknown> {
  const live = liveJobs().get(id)!;
  let temp = '';
  let fired: Promise<unknown> | null = null;
  let resolve!: (p: Promise<unknown>) => void;
  const done = new Promise<Promise<unknown>>((r) => (resolve = r));
  Object.defineProperty(live, 'temp', {
    get: () => temp,
    set: (v: string) => {
      temp = v;
      if (v && !fired) resolve((fired = act()));
    },
  });
  return done.then((p) => p);
}

async function ended(id: number, token: string) {
  for (;;) {
    const r = await t.req('GET', `/api/jobs/${id}`, { token });
    const j = await r.json();
    if (j.state !== 'queued' && j.state !== 'running') return j;
    await Bun.sleep(20);
  }
}

/**
 * bob (scope /bob) with /big (1,000 files: its copy takes far longer than the admin's one request) and /small to
 * copy into /dst.
 */
async function setup() {
  t = await makeTestApp();
  const admin = await t.adminToken();
  makeTree(join(t.root, 'bob/big'), 1000, 256);
  makeTree(join(t.root, 'bob/small'), 1, 16);
  mkdirSync(join(t.root, 'bob/dst'));
  const bob = await t.userToken('bob', { create: true }, { scope: '/bob' });
  return { admin, bob };
}

test('create taken away while a copy job runs: the job fails with the reason and the next item is not copied', async () => {
  const { admin, bob } = await setup();
  const job = await startJob(t, bob, { kind: 'copy', items: ['/big', '/small'], destination: '/dst' });
  const revoked = onFirstTemp(job.id, async () => {
    const perm = { ...(await t.s.users.find('bob')).perm, create: false };
    const r = await t.req('PUT', '/api/users/2', { token: admin, body: { what: 'user', which: ['perm'], current_password: ADMIN_PASSWORD, data: { id: 2, perm } } });
    expect(r.status).toBe(200);
  });
  await revoked;
  const end = await ended(job.id, admin);
  expect(end.state).toBe('failed');
  expect(end.error).toContain('may no longer');
  expect(end.error).toContain('create');
  expect(existsSync(join(t.root, 'bob/dst/small'))).toBe(false);
  expect(tempsUnder(t.root)).toEqual([]);
}, 30_000);

test('scope changed while a job runs: it ends rather than act on paths of another scope', async () => {
  const { admin, bob } = await setup();
  mkdirSync(join(t.root, 'elsewhere'));
  const job = await startJob(t, bob, { kind: 'copy', items: ['/big', '/small'], destination: '/dst' });
  await onFirstTemp(job.id, async () => {
    const r = await t.req('PUT', '/api/users/2', { token: admin, body: { what: 'user', which: ['scope'], current_password: ADMIN_PASSWORD, data: { id: 2, scope: '/elsewhere' } } });
    expect(r.status).toBe(200);
  });
  const end = await ended(job.id, admin);
  expect(end.state).toBe('failed');
  expect(end.error).toContain('scope changed');
  expect(existsSync(join(t.root, 'bob/dst/small'))).toBe(false);
  expect(readdirSync(join(t.root, 'elsewhere'))).toEqual([]);
}, 30_000);

test('the user deleted while their job runs: the job stops at once and leaves nothing half-copied', async () => {
  const { admin, bob } = await setup();
  const job = await startJob(t, bob, { kind: 'copy', items: ['/big', '/small'], destination: '/dst' });
  await onFirstTemp(job.id, async () => expect((await t.req('DELETE', '/api/users/2', { token: admin, body: { current_password: ADMIN_PASSWORD } })).status).toBe(200));
  for (let i = 0; i < 1000 && liveJobs().size; i++) await Bun.sleep(20);
  expect(liveJobs().size).toBe(0);
  expect(readdirSync(join(t.root, 'bob/dst'))).toEqual([]); // neither the big folder (its staged copy discarded) nor the small one
  expect(tempsUnder(t.root)).toEqual([]);
}, 30_000);

test('across instances: a job run by another instance on the same database ends when its owner loses the permission here', async () => {
  const { admin, bob } = await setup();
  const other = await createServices(t.s.config, silentLogger);
  try {
    const app2 = await createHttpApp(other);
    const r = await app2.handle(new Request('http://localhost/api/jobs', { method: 'POST', headers: { 'X-Auth': bob, 'Content-Type': 'application/json' }, body: JSON.stringify({ kind: 'copy', items: ['/big', '/small'], destination: '/dst' }) }));
    expect(r.status).toBe(202);
    const { id } = await r.json();
    const live = (other.jobs as unknown as { live: Map<number, LiveJob> }).live.get(id)!;
    let temp = '';
    let revoking: Promise<Response> | null = null;
    Object.defineProperty(live, 'temp', {
      get: () => temp,
      set: (v: string) => {
        temp = v;
        revoking ??= (async () => t.req('PUT', '/api/users/2', { token: admin, body: { what: 'user', which: ['perm'], current_password: ADMIN_PASSWORD, data: { id: 2, perm: { ...(await t.s.users.find('bob')).perm, create: false } } } }))();
      },
    });
    const end = await ended(id, admin); // read through this instance: the row is shared
    expect((await revoking!).status).toBe(200);
    expect(end.state).toBe('failed');
    expect(end.error).toContain('may no longer');
    expect(existsSync(join(t.root, 'bob/dst/small'))).toBe(false);
  } finally {
    await other.close();
  }
}, 30_000);
