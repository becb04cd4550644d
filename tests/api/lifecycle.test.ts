import { afterEach, describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { openFdsUnder } from '../helpers/open-fds';
import { makeTestApp, type TestApp } from '../helpers/test-app';

// One lifecycle for everything a server runs besides requests (services/background/background.ts): `serve`
// starts it, Services.close() stops it, and a stop leaves no timer, worker, watcher or descriptor behind.
const ROOT = resolve(import.meta.dir, '../..');
let t: TestApp | null = null;
afterEach(async () => {
  await t?.close();
  t = null;
});

describe('background lifecycle', () => {
  test('start runs every task; stop ends each of them and closes what they opened', async () => {
    t = await makeTestApp();
    writeFileSync(join(t.root, 'a.txt'), 'a');
    const before = openFdsUnder(t.dir);
    await t.s.background.start();
    await t.s.index.settled();
    expect(t.s.background.activity()).toEqual({ timers: 6, tempSweep: true, trashPurge: true, index: true }); // uploads, audit, quota reconcile, versions upkeep, WebDAV lock sweep, share log sweep
    expect(t.s.index.status().state).toBe('ready');
    expect(openFdsUnder(t.dir)).toBeGreaterThan(before); // the index database and its watch are open
    await t.s.background.stop();
    expect(t.s.background.activity()).toEqual({ timers: 0, tempSweep: false, trashPurge: false, index: false });
    expect(openFdsUnder(t.dir)).toBe(before);
    await t.s.background.stop(); // twice is harmless
  });

  test('a process that starts the background and closes its services exits by itself (nothing keeps it alive)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'filedeck-lifecycle-'));
    try {
      const script = join(dir, 'run.ts');
      writeFileSync(
        script,
        `import { createServices, initialise } from ${JSON.stringify(join(ROOT, 'server/app'))};
import { loadConfig } from ${JSON.stringify(join(ROOT, 'server/core/config'))};
import { silentLogger } from ${JSON.stringify(join(ROOT, 'server/core/log'))};
const config = loadConfig({ noDefaultFiles: true, env: {}, flags: { root: ${JSON.stringify(join(dir, 'files'))}, database: ${JSON.stringify(join(dir, 'db', 'filedeck.db'))}, cacheDir: ${JSON.stringify(join(dir, 'db', 'cache'))} } });
const s = await createServices(config, silentLogger);
await initialise(s, { username: 'admin', password: 'lifecycle-admin-password-1' });
await s.background.start();
await s.index.settled();
await s.close();
console.log('closed');
`,
      );
      const p = Bun.spawn([process.execPath, script], { stdout: 'pipe', stderr: 'pipe' });
      const exited = await Promise.race([p.exited, Bun.sleep(30_000).then(() => 'timeout' as const)]);
      if (exited === 'timeout') p.kill('SIGKILL');
      expect([exited, (await new Response(p.stdout).text()).trim()]).toEqual([0, 'closed']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 40_000);
});
