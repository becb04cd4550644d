import { afterAll, expect, test } from 'bun:test';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli, startServer, type RunningServer } from '../helpers/binary';
import { waitFor } from '../helpers/transfer-fixture';

// A real server process (the compiled binary with FILEDECK_BIN, else the sources) killed with SIGKILL in the middle
// of keeping a version, at the two worst moments, then restarted on the same data: the file and its version are
// both there (or the write never happened and the old file is current), and nothing is left orphaned.
const running: RunningServer[] = [];
const homes: string[] = [];
afterAll(async () => {
  for (const s of running) if (s.proc.exitCode === null && !s.proc.killed) await s.stop();
  for (const h of homes) rmSync(h, { recursive: true, force: true });
});

const PASSWORD = 'versions-kill-admin-pass-5521';

async function boot(home: string, env: Record<string, string> = {}) {
  const s = await startServer(['--username', 'admin', '--password', PASSWORD, '--log', 'stderr'], { cwd: home, env });
  running.push(s);
  const login = await fetch(`${s.url}/api/login`, { method: 'POST', body: JSON.stringify({ username: 'admin', password: PASSWORD }) });
  expect(login.status).toBe(200);
  return { s, auth: { 'X-Auth': await login.text() } };
}

/** Saves over keep.txt with the keep paused at `at`, kills the server there, restarts it; answers the new server. */
async function killDuringKeep(at: 'linked' | 'overwritten') {
  const home = mkdtempSync(join(tmpdir(), 'filedeck-vkill-'));
  homes.push(home);
  const marker = join(home, 'paused');
  const first = await boot(home, { FILEDECK_TEST_VERSION_PAUSE: marker, FILEDECK_TEST_VERSION_PAUSE_AT: at });
  expect((await fetch(`${first.s.url}/api/resources/keep.txt`, { method: 'POST', headers: first.auth, body: 'old bytes' })).status).toBe(200);
  const hanging = fetch(`${first.s.url}/api/resources/keep.txt`, { method: 'PUT', headers: first.auth, body: 'new bytes' }).catch(() => null);
  expect(await waitFor(() => existsSync(marker) && readFileSync(marker, 'utf8').length > 0, 15_000)).toBe(true);
  first.s.proc.kill('SIGKILL');
  await first.s.proc.exited;
  await hanging;
  await Bun.sleep(5_500); // past the grace a keep in flight gets (another instance's keep is never undone)
  const files = join(home, 'data', 'files');
  const next = await boot(home);
  const list = async () => (await (await fetch(`${next.s.url}/api/versions/keep.txt`, { headers: next.auth })).json()) as { id: string }[];
  return { files, next, list, version: readFileSync(marker, 'utf8'), home };
}

test('kill -9 after the link, before the overwrite: the old file is current, no version, no orphan', async () => {
  const { files, list, version } = await killDuringKeep('linked');
  expect(readFileSync(join(files, 'keep.txt'), 'utf8')).toBe('old bytes');
  expect(await list()).toEqual([]);
  expect(existsSync(version)).toBe(false);
  expect(readdirSync(join(files, '.filedeck-versions'))).toEqual([]);
}, 60_000);

test('kill -9 after the overwrite, before the row is settled: the new file is current and the version holds the old bytes', async () => {
  const { files, next, list, version, home } = await killDuringKeep('overwritten');
  expect(readFileSync(join(files, 'keep.txt'), 'utf8')).toBe('new bytes');
  const vs = await list();
  expect(vs).toHaveLength(1);
  const bytes = await (await fetch(`${next.s.url}/api/versions/keep.txt?version=${vs[0]!.id}`, { headers: next.auth })).text();
  expect(bytes).toBe('old bytes');
  expect(readdirSync(join(files, '.filedeck-versions'))).toEqual([version.split('/').pop()!]);
  // The CLI sees the same versions (as the admin, whose scope is the root).
  const ls = await cli(['versions', 'ls', '/keep.txt', '--user', 'admin', '--json'], { cwd: home });
  expect(ls.code).toBe(0);
  expect(ls.stdout).toContain(vs[0]!.id);
}, 60_000);
