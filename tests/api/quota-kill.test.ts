import { Database } from 'bun:sqlite';
import { afterAll, expect, test } from 'bun:test';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli, startServer, type RunningServer } from '../helpers/binary';
import { waitFor } from '../helpers/transfer-fixture';

// A real server process (the compiled binary with FILEDECK_BIN, else the sources) killed with SIGKILL while writes
// hold quota reservations: a plain upload streaming without a declared size, and a resumable upload whose length
// was reserved at creation. After the restart nothing is stuck: the dead stream's reservation is gone (the quota
// has its room back), the resumable upload keeps its own and can finish, and then no reservation is left.
const running: RunningServer[] = [];
const homes: string[] = [];
afterAll(async () => {
  for (const s of running) if (s.proc.exitCode === null && !s.proc.killed) await s.stop();
  for (const h of homes) rmSync(h, { recursive: true, force: true });
});

const PASSWORD = 'quota-kill-admin-pass-7730';
const BOB = 'bobs-quota-password-9921';
const TUS = { 'Tus-Resumable': '1.0.0' };

async function boot(home: string) {
  const s = await startServer(['--username', 'admin', '--password', PASSWORD, '--log', 'stderr'], { cwd: home });
  running.push(s);
  return s;
}

async function bobAuth(s: RunningServer) {
  const login = await fetch(`${s.url}/api/login`, { method: 'POST', body: JSON.stringify({ username: 'bob', password: BOB }) });
  expect(login.status).toBe(200);
  return { 'X-Auth': await login.text() };
}

/** The reservations in the database, read beside the running server (WAL: readers never block it). */
function reservations(home: string): { id: string; bytes: number }[] {
  const file = readdirSync(join(home, 'data')).find((n) => n.endsWith('.db'));
  const db = new Database(join(home, 'data', file!), { readonly: true });
  try {
    return db.query<{ id: string; bytes: number }, []>('SELECT id, bytes FROM quota_reservations ORDER BY bytes').all();
  } finally {
    db.close();
  }
}

test('kill -9 while uploads hold reservations: after the restart the dead one is gone and the live one finishes', async () => {
  const home = mkdtempSync(join(tmpdir(), 'filedeck-qkill-'));
  homes.push(home);
  const first = await boot(home);
  const add = await cli(['users', 'add', 'bob', BOB, '--scope', '/bob', '--quota-bytes', '100'], { cwd: home });
  expect(add.code).toBe(0);
  let auth = await bobAuth(first);
  // A resumable upload reserves its 30 bytes at creation; a plain upload streams 50 bytes and then hangs.
  expect((await fetch(`${first.url}/api/tus/resume.bin`, { method: 'POST', headers: { ...auth, ...TUS, 'Upload-Length': '30' } })).status).toBe(201);
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      c.enqueue(new Uint8Array(50).fill(115));
    },
  });
  const hanging = fetch(`${first.url}/api/resources/stream.bin`, { method: 'POST', headers: auth, body, duplex: 'half' } as RequestInit).catch(() => null);
  expect(await waitFor(() => reservations(home).length === 2, 15_000)).toBe(true);
  expect(reservations(home).map((r) => r.bytes)).toEqual([30, 50]);
  first.proc.kill('SIGKILL');
  await first.proc.exited;
  await hanging;

  const next = await boot(home);
  auth = await bobAuth(next);
  // The sweep at start dropped the dead stream's reservation and kept the registered upload's.
  expect(await waitFor(() => reservations(home).length === 1, 15_000)).toBe(true);
  expect(reservations(home)[0]).toMatchObject({ id: expect.stringMatching(/^temp:/), bytes: 30 });
  // So 70 bytes fit beside the upload's 30, and not one more.
  expect((await fetch(`${next.url}/api/resources/seventy.bin`, { method: 'POST', headers: auth, body: 'x'.repeat(70) })).status).toBe(200);
  expect((await fetch(`${next.url}/api/resources/one.bin`, { method: 'POST', headers: auth, body: 'x' })).status).toBe(507);
  // The resumable upload finishes in its reservation; then nothing is held and the quota is exactly full.
  const patch = await fetch(`${next.url}/api/tus/resume.bin`, { method: 'PATCH', headers: { ...auth, ...TUS, 'Content-Type': 'application/offset+octet-stream', 'Upload-Offset': '0' }, body: 'r'.repeat(30) });
  expect(patch.status).toBe(204);
  expect(reservations(home)).toEqual([]);
  const usage = await (await fetch(`${next.url}/api/account/usage`, { headers: auth })).json();
  expect(usage).toMatchObject({ bytes: 100, quota: { bytes: 100, files: 0 } });
  expect(readdirSync(join(home, 'data', 'files', 'bob')).filter((n) => !n.startsWith('.')).sort()).toEqual(['resume.bin', 'seventy.bin']);
}, 90_000);
