import { afterAll, describe, expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli, startServer, type RunningServer } from '../helpers/binary';
import { postgresAvailable, startPostgres, type PgCluster } from '../helpers/postgres';

// Bad PostgreSQL URLs at start, and a database that goes away while serving and comes back.
const missing = postgresAvailable() ? null : 'PostgreSQL is not installed (Debian package postgresql)';
if (missing) console.log(`postgres outage tests skipped: ${missing}`);

let pg: PgCluster | null = null;
let server: RunningServer | null = null;
const dir = mkdtempSync(join(tmpdir(), 'filedeck-pg-outage-'));
afterAll(async () => {
  await server?.stop();
  pg?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!!missing)('PostgreSQL: bad URLs and outages', () => {
  test('an unreachable or wrong URL: one clear line and exit 1, within the connect timeout', async () => {
    pg = await startPostgres();
    const wrongDb = pg.url.replace(/\/filedeck$/, '/no_such_db');
    // 192.0.2.1 (TEST-NET-1) never answers (on some machines it is the gateway, which drops the packets; elsewhere
    // it is unreachable at once): only the timeout can end the wait. A bare number would be seconds: 1500ms.
    for (const [url, why] of [['postgres://fd@127.0.0.1:1/x', 'cannot reach'], [wrongDb, 'no_such_db'], ['postgres://fd@192.0.2.1:5432/x', 'cannot reach']] as const) {
      const t0 = performance.now();
      const r = await cli(['serve', '--port', '0', '-d', url, '-r', join(dir, 'files'), '--databaseConnectTimeout', '1500ms']);
      expect(r.code).toBe(1);
      const lines = r.stderr.trim().split('\n');
      expect(lines.length).toBe(1);
      expect(lines[0]).toContain(why);
      expect(performance.now() - t0).toBeLessThan(8000);
    }
  }, 40_000);

  test('losing the database while serving: 503 with a message; back when it returns', async () => {
    mkdirSync(join(dir, 'files', 'docs'), { recursive: true });
    writeFileSync(join(dir, 'files', 'docs', 'a.txt'), 'a');
    server = await startServer(['-d', pg!.url, '-r', join(dir, 'files'), '--log', '', '--username', 'admin', '--password', 'outage-admin-password-77'], { cwd: dir });
    const login = await fetch(`${server.url}/api/login`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ username: 'admin', password: 'outage-admin-password-77' }) });
    const token = await login.text();
    const list = () => fetch(`${server!.url}/api/resources/docs/`, { headers: { 'X-Auth': token }, signal: AbortSignal.timeout(20_000) });
    expect((await list()).status).toBe(200);
    pg!.pause();
    const down = await list();
    expect(down.status).toBe(503);
    expect(await down.text()).toContain('database cannot be reached');
    pg!.resume();
    let back = 0;
    for (let i = 0; i < 50 && back !== 200; i++) {
      back = (await list()).status;
      if (back !== 200) await Bun.sleep(200);
    }
    expect(back).toBe(200);
  }, 60_000);
});
