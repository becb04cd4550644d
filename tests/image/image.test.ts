import { afterAll, describe, expect, test } from 'bun:test';
import { spawnSync } from 'node:child_process';
import { chownSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { containerEnv } from '../../scripts/build-image';

// The container image, built from this repository with podman and run as a service would be: non-root, data in
// a volume, health checked, stopped by SIGTERM, data kept across a restart. Needs the compiled executable.
const ROOT = resolve(import.meta.dir, '../..');
const BIN = process.env.FILEDECK_BIN;
const dir = mkdtempSync(join(tmpdir(), 'filedeck-image-test-'));
const { env, runArgs } = containerEnv(dir);
const TAG = `filedeck:test-${process.pid}`;
const NAME = `filedeck-test-${process.pid}`;
const PASSWORD = 'container-admin-password-9';
const port = 21000 + (process.pid % 9000);
const base = `http://127.0.0.1:${port}`;
const VOLUME = `filedeck-test-volume-${process.pid}`;
afterAll(() => {
  podman(['rm', '-f', NAME]);
  podman(['rm', '-f', `${NAME}-nv`]);
  podman(['volume', 'rm', '-f', VOLUME]);
  podman(['rmi', '-f', TAG]);
  rmSync(dir, { recursive: true, force: true });
});

function podman(args: string[]) {
  const r = spawnSync('podman', [...runArgs, ...args], { env, encoding: 'utf8', timeout: 120_000 });
  return { code: r.status ?? 1, out: `${r.stdout ?? ''}${r.stderr ?? ''}` };
}

async function waitHealthy(name = NAME): Promise<void> {
  const until = Date.now() + 20_000;
  while (Date.now() < until) {
    const ok = await fetch(`${base}/health`).then((r) => r.status === 200, () => false);
    if (ok) return;
    await Bun.sleep(200);
  }
  throw new Error(`container did not become healthy:\n${podman(['logs', name]).out}`);
}

const login = async () => {
  const r = await fetch(`${base}/api/login`, { method: 'POST', body: JSON.stringify({ username: 'admin', password: PASSWORD }) });
  expect(r.status).toBe(200);
  return r.text();
};

describe.skipIf(!BIN)('container image', () => {
  test('builds FROM scratch, runs as a non-root user, keeps its data across a restart, stops on SIGTERM', async () => {
    const build = spawnSync(process.execPath, [join(ROOT, 'scripts/build-image.ts'), '--tag', TAG, '--bin', BIN!], { encoding: 'utf8', timeout: 300_000 });
    expect(build.status).toBe(0);
    const size = /image \S+: ([\d.]+) MiB/.exec(build.stdout)?.[1];
    console.log(`image size ${size} MiB`);
    const data = join(dir, 'data');
    mkdirSync(data);
    chownSync(data, 10001, 10001);
    const t0 = performance.now();
    const run = podman(['run', '-d', '--name', NAME, '--network', 'host', '--read-only', '-v', `${data}:/data`, '-e', `FILEDECK_PORT=${port}`, '-e', 'FILEDECK_ADDRESS=127.0.0.1', TAG, 'serve', '--password', PASSWORD]);
    expect(run.out).not.toContain('Error');
    expect(run.code).toBe(0);
    await waitHealthy();
    console.log(`container cold start to healthy: ${Math.round(performance.now() - t0)} ms`);
    expect(podman(['exec', NAME, '/usr/local/bin/filedeck', 'healthcheck']).code).toBe(0);
    expect(statSync(join(data, 'filedeck.db')).uid).toBe(10001);

    const token = await login();
    const up = await fetch(`${base}/api/resources/kept.txt`, { method: 'POST', headers: { 'X-Auth': token }, body: 'kept across restarts' });
    expect(up.status).toBe(200);

    const t1 = performance.now();
    expect(podman(['stop', '-t', '20', NAME]).code).toBe(0);
    const stopMs = performance.now() - t1;
    expect(stopMs).toBeLessThan(15_000); // SIGTERM handled by PID 1, not the 20 s kill
    expect(podman(['inspect', NAME, '--format', '{{.State.ExitCode}}']).out.trim()).toBe('0');

    expect(podman(['start', NAME]).code).toBe(0);
    await waitHealthy();
    const token2 = await login();
    const got = await fetch(`${base}/api/raw/kept.txt`, { headers: { 'X-Auth': token2 } });
    expect(await got.text()).toBe('kept across restarts');
  }, 240_000);

  // The usual way people run it: a fresh named volume, which podman and docker populate from the image's /data
  // (its owner included). Before /data was copied --chown, this stopped at once with EACCES on /data/filedeck.db.
  test('runs on a fresh named volume', async () => {
    podman(['stop', '-t', '20', NAME]); // the first test's container holds the port
    podman(['volume', 'rm', '-f', VOLUME]);
    const run = podman(['run', '-d', '--name', `${NAME}-nv`, '--network', 'host', '--read-only', '-v', `${VOLUME}:/data`, '-e', `FILEDECK_PORT=${port}`, '-e', 'FILEDECK_ADDRESS=127.0.0.1', TAG, 'serve', '--password', PASSWORD]);
    expect(run.code).toBe(0);
    await waitHealthy(`${NAME}-nv`);
    const token = await login();
    const up = await fetch(`${base}/api/resources/in-volume.txt`, { method: 'POST', headers: { 'X-Auth': token }, body: 'named volume' });
    expect(up.status).toBe(200);
    expect(podman(['exec', `${NAME}-nv`, '/usr/local/bin/filedeck', 'healthcheck']).code).toBe(0);
    expect(podman(['stop', '-t', '20', `${NAME}-nv`]).code).toBe(0);
  }, 120_000);
});
