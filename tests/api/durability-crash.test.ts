import { afterAll, expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type RunningServer } from '../helpers/binary';
import { random, sha256, waitFor } from '../helpers/transfer-fixture';

// A real server process (the compiled binary under npm test, else the sources) killed with SIGKILL mid-upload,
// then restarted on the same data: the old file is intact, the start sweep removes the dead temp, tus resumes.
const home = mkdtempSync(join(tmpdir(), 'filedeck-crash-'));
const files = join(home, 'data', 'files');
const running: RunningServer[] = [];
afterAll(async () => {
  for (const s of running) if (s.proc.exitCode === null && !s.proc.killed) await s.stop();
  rmSync(home, { recursive: true, force: true });
});

const PASSWORD = 'crash-test-admin-pass-9931';
const OCTET = { 'Content-Type': 'application/offset+octet-stream' };
const temps = () => readdirSync(files, { recursive: true, withFileTypes: true }).filter((e) => /^\.filedeck-.*\.part$/.test(e.name)).map((e) => join(e.parentPath, e.name));

async function boot(): Promise<{ url: string; token: string }> {
  const s = await startServer(['--username', 'admin', '--password', PASSWORD, '--log', 'stderr'], { cwd: home });
  running.push(s);
  const login = await fetch(`${s.url}/api/login`, { method: 'POST', body: JSON.stringify({ username: 'admin', password: PASSWORD }) });
  expect(login.status).toBe(200);
  return { url: s.url, token: await login.text() };
}

test('kill -9 mid-upload: old file byte-identical, temps swept at restart, tus upload resumes', async () => {
  mkdirSync(home, { recursive: true });
  let { url, token } = await boot();
  const auth = { 'X-Auth': token };
  const old = random(300_000);
  expect((await fetch(`${url}/api/resources/keep.bin`, { method: 'POST', headers: auth, body: old })).status).toBe(200);

  // A POST overwriting keep.bin that sends part of its body and then stalls.
  const stall = new AbortController();
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      c.enqueue(random(200_000));
    },
  });
  const hanging = fetch(`${url}/api/resources/keep.bin?override=true`, { method: 'POST', headers: auth, body, signal: stall.signal, duplex: 'half' } as RequestInit).catch(() => null);
  // A resumable upload that received half of its bytes.
  const src = random(400_000);
  expect((await fetch(`${url}/api/tus/t.bin`, { method: 'POST', headers: { ...auth, 'Upload-Length': String(src.length) } })).status).toBe(201);
  const half = await fetch(`${url}/api/tus/t.bin`, { method: 'PATCH', headers: { ...auth, ...OCTET, 'Upload-Offset': '0' }, body: src.slice(0, 200_000) });
  expect(half.status).toBe(204);
  expect(await waitFor(() => temps().length === 2)).toBe(true);

  const first = running[0]!;
  first.proc.kill('SIGKILL');
  await first.proc.exited;
  stall.abort();
  await hanging;
  expect(temps()).toHaveLength(2); // the crash left both behind
  expect(sha256(readFileSync(join(files, 'keep.bin')))).toBe(sha256(old));

  await Bun.sleep(3_200); // past the sweep's age floor (it only covers a writer's open-to-lock instant)
  ({ url, token } = await boot());
  const auth2 = { 'X-Auth': token };
  expect(await waitFor(() => temps().length === 1)).toBe(true); // the stalled POST's temp is gone; tus's is registered
  expect(sha256(readFileSync(join(files, 'keep.bin')))).toBe(sha256(old));

  const head = await fetch(`${url}/api/tus/t.bin`, { method: 'HEAD', headers: auth2 });
  expect(head.headers.get('upload-offset')).toBe('200000');
  const rest = await fetch(`${url}/api/tus/t.bin`, { method: 'PATCH', headers: { ...auth2, ...OCTET, 'Upload-Offset': '200000' }, body: src.slice(200_000) });
  expect(rest.status).toBe(204);
  expect(sha256(readFileSync(join(files, 't.bin')))).toBe(sha256(src));
  expect(temps()).toEqual([]);
}, 60_000);
