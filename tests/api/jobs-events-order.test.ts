import { afterEach, expect, test } from 'bun:test';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Job } from '../../server/contract/job';
import { makeTree, readEvents, startJob } from '../helpers/jobs-fixture';
import { makeTestApp, type TestApp } from '../helpers/test-app';

// The jobs event stream (GET /api/jobs/events) sends the list first and every change after it, even a change that
// happens while the list is being read. Sent before the list, a change is overwritten by it: the panel takes the
// list as the whole truth, so a job that started and ended meanwhile vanished, and one that ended was shown
// running for good (fixed in 14194a4).
let t: TestApp;
afterEach(async () => {
  await t?.close();
}, 60_000);

const ended = (j: Job) => j.state !== 'queued' && j.state !== 'running';

/** What the web panel shows after applying the events in order (web/state/jobs.state.ts: `jobs` replaces, `job` upserts). */
function panelAfter(events: [string, unknown][]): Map<number, string> {
  let shown = new Map<number, string>();
  for (const [event, data] of events) {
    if (event === 'jobs') shown = new Map((data as Job[]).map((j) => [j.id, j.state]));
    else if (event === 'job') shown.set((data as Job).id, (data as Job).state);
  }
  return shown;
}

test('a job that starts and ends while the stream reads its first list comes after the list, so the panel sees its end', async () => {
  t = await makeTestApp();
  const token = await t.adminToken();
  mkdirSync(join(t.root, 'src'));
  mkdirSync(join(t.root, 'dst'));
  writeFileSync(join(t.root, 'src', 'a.txt'), 'a');

  // The route reads the list through s.jobs.list; the real list runs, and then, before the route gets it, a whole
  // job runs (queued, running, done). That is the window the fix is about, made certain instead of left to timing.
  const realList = t.s.jobs.list.bind(t.s.jobs);
  let jobId = 0;
  let inWindow = false;
  t.s.jobs.list = async (actor, f) => {
    const snapshot = await realList(actor, f);
    inWindow = true;
    const end = new Promise<void>((resolve) => {
      const stop = t.s.jobs.subscribe((j) => {
        if (j.id === jobId && ended(j)) {
          stop();
          resolve();
        }
      });
    });
    jobId = (await startJob(t, token, { kind: 'copy', items: ['/src/a.txt'], destination: '/dst' })).id;
    await end;
    return snapshot;
  };

  const events = await t.req('GET', '/api/jobs/events', { token });
  expect(events.status).toBe(200);
  const seen: [string, unknown][] = [];
  // Read until both the list and the job's end have come, whatever their order.
  await readEvents(events, (event, data) => {
    seen.push([event, data]);
    return seen.some(([e]) => e === 'jobs') && seen.some(([e, d]) => e === 'job' && (d as Job).id === jobId && ended(d as Job));
  });
  expect(inWindow).toBe(true);
  expect(jobId).toBeGreaterThan(0);

  // The list (read before the job existed) is the first event; the job's every change follows it, in order.
  expect(seen[0]![0]).toBe('jobs');
  expect(seen[0]![1]).toEqual([]);
  const states = seen.filter(([e, d]) => e === 'job' && (d as Job).id === jobId).map(([, d]) => (d as Job).state);
  expect(states[0]).toBe('queued');
  expect(states.at(-1)).toBe('done');
  // And so the panel, applying them as they come, shows the job as done (not missing, not running).
  expect(panelAfter(seen).get(jobId)).toBe('done');
}, 60_000);

test('a job already on the list that ends while the list is read: the end comes after the list that says running', async () => {
  t = await makeTestApp();
  const token = await t.adminToken();
  // 300 files: the copy takes far longer than reading the list, so the list sees it live.
  makeTree(join(t.root, 'src'), 300);
  mkdirSync(join(t.root, 'dst'));

  // The job is started from inside the list: its row says queued or running when read, and the route gets the
  // list only once the job has ended (its end emitted meanwhile).
  const realList = t.s.jobs.list.bind(t.s.jobs);
  let jobId = 0;
  let listed: Job | undefined;
  t.s.jobs.list = async (actor, f) => {
    const end = new Promise<void>((resolve) => {
      const stop = t.s.jobs.subscribe((j) => {
        if (j.id === jobId && ended(j)) {
          stop();
          resolve();
        }
      });
    });
    jobId = (await startJob(t, token, { kind: 'copy', items: ['/src'], destination: '/dst' })).id;
    const snapshot = await realList(actor, f);
    listed = snapshot.find((j) => j.id === jobId);
    await end;
    return snapshot;
  };

  const events = await t.req('GET', '/api/jobs/events', { token });
  const seen: [string, unknown][] = [];
  await readEvents(events, (event, data) => {
    seen.push([event, data]);
    return seen.some(([e]) => e === 'jobs') && seen.some(([e, d]) => e === 'job' && (d as Job).id === jobId && ended(d as Job));
  });
  // The case this test is for: the list says the job has not ended (a copy that ended before the real list
  // resolved would make it the first case again; this says which happened rather than pass for the wrong reason).
  expect(listed && !ended(listed) ? 'listed live' : `listed ${listed?.state}`).toBe('listed live');
  expect(seen[0]![0]).toBe('jobs');
  expect(seen.findIndex(([e, d]) => e === 'job' && (d as Job).id === jobId && ended(d as Job))).toBeGreaterThan(0);
  expect(panelAfter(seen).get(jobId)).toBe('done');
}, 60_000);
