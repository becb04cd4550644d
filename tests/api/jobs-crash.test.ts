import { afterAll, expect, test } from 'bun:test';
import { Database } from 'bun:sqlite';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Job } from '../../server/contract/job';
import { startServer, type RunningServer } from '../helpers/binary';
import { makeTree, tempsUnder } from '../helpers/jobs-fixture';
import { settled } from '../helpers/settle';

// A real server process (the compiled binary under npm test, else the sources) killed with SIGKILL in the middle of
// a copy job, then restarted on the same data: the job is on record as interrupted with what was done, and the
// half-written copy is gone at once (the job's row names its temp), before any sweep.
const home = mkdtempSync(join(tmpdir(), 'filedeck-jobcrash-'));
const files = join(home, 'data', 'files');
const running: RunningServer[] = [];
afterAll(async () => {
  for (const s of running) if (s.proc.exitCode === null && !s.proc.killed) await s.stop();
  rmSync(home, { recursive: true, force: true });
});

const PASSWORD = 'jobs-crash-admin-pass-5521';

async function boot(): Promise<{ url: string; auth: Record<string, string> }> {
  const s = await startServer(['--username', 'admin', '--password', PASSWORD, '--log', 'stderr'], { cwd: home });
  running.push(s);
  const login = await fetch(`${s.url}/api/login`, { method: 'POST', body: JSON.stringify({ username: 'admin', password: PASSWORD }) });
  expect(login.status).toBe(200);
  return { url: s.url, auth: { 'X-Auth': await login.text() } };
}

test('kill -9 during a copy job, restart: the job is interrupted, nothing half-copied is left', async () => {
  let { url, auth } = await boot();
  makeTree(join(files, 'src'), 20_000, 4096);
  mkdirSync(join(files, 'dst'));
  const started = await fetch(`${url}/api/jobs`, { method: 'POST', headers: auth, body: JSON.stringify({ kind: 'copy', items: ['/src'], destination: '/dst' }) });
  expect(started.status).toBe(202);
  const { id } = (await started.json()) as Job;
  let seen: Job | null = null;
  for (let i = 0; i < 600; i++) {
    seen = (await (await fetch(`${url}/api/jobs/${id}`, { headers: auth })).json()) as Job;
    if (seen.state === 'running' && seen.progress.filesDone > 200) break;
    await Bun.sleep(20);
  }
  expect(seen!.state).toBe('running');
  // Progress and the temp's path are saved about once a second: wait until the row holds both (a fixed wait was a
  // guess that a loaded machine can miss), read from the database file as the restarted server will read it.
  const saved = () => {
    const db = new Database(join(home, 'data', 'filedeck.db'), { readonly: true });
    try {
      const row = db.query('SELECT progress, temp_path AS tempPath FROM jobs WHERE id = ?').get(id) as { progress: string; tempPath: string };
      return { copied: (JSON.parse(row.progress) as Job['progress']).filesDone > 0, temp: row.tempPath !== '' };
    } finally {
      db.close();
    }
  };
  expect(await settled(saved, { copied: true, temp: true })).toEqual({ copied: true, temp: true });
  const first = running[0]!;
  first.proc.kill('SIGKILL');
  await first.proc.exited;
  expect(tempsUnder(files).length).toBe(1); // the crash left the half-made copy behind

  ({ url, auth } = await boot());
  const after = (await (await fetch(`${url}/api/jobs/${id}`, { headers: auth })).json()) as Job;
  expect(after.state).toBe('interrupted');
  expect(after.error).toContain('the server stopped during the job');
  expect(after.progress.filesDone).toBeGreaterThan(0);
  expect(after.progress.filesTotal).toBe(20_000);
  expect(tempsUnder(files)).toEqual([]);
  expect(readdirSync(join(files, 'dst'))).toEqual([]);
  expect(existsSync(join(files, 'src', 'd199', 'f19999.txt'))).toBe(true);
  const list = (await (await fetch(`${url}/api/jobs`, { headers: auth })).json()) as Job[];
  expect(list.map((j) => j.state)).toEqual(['interrupted']);
}, 120_000);
