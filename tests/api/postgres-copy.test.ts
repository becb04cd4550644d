import { afterAll, describe, expect, test } from 'bun:test';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServices } from '../../server/app';
import { loadConfig } from '../../server/core/config';
import { silentLogger } from '../../server/core/log';
import { cli } from '../helpers/binary';
import { postgresAvailable, startPostgres, type PgCluster } from '../helpers/postgres';
import { ADMIN_PASSWORD, USER_PASSWORD, makeTestApp } from '../helpers/test-app';

// `filedeck db copy` between engines, both ways, with its refusals. Runs on the SQLite test app as the source.
const missing = postgresAvailable() ? null : 'PostgreSQL is not installed (Debian package postgresql)';
if (missing) console.log(`db copy tests skipped: ${missing}`);
let pg: PgCluster | null = null;
afterAll(() => pg?.stop());

describe.skipIf(!!missing || !!process.env.FILEDECK_TEST_PG)('filedeck db copy', () => {
  test('SQLite -> PostgreSQL -> SQLite keeps users, sessions, shares, settings and the signing key; refuses a non-empty target', async () => {
    pg = await startPostgres();
    const t2 = await makeTestApp();
    await t2.userToken('bob');
    mkdirSync(join(t2.root, 'docs'), { recursive: true });
    writeFileSync(join(t2.root, 'docs/a.txt'), 'alpha');
    const s2 = (await (await t2.req('POST', '/api/share/docs/a.txt', { token: await t2.adminToken(), body: {} })).json()) as { hash: string };
    const src = t2.database;
    const key = t2.s.settings.signingKey();
    await t2.s.close();

    const copy = await cli(['db', 'copy', '--from', src, '--to', pg.url, '--json']);
    expect(copy.code).toBe(0);
    const report = JSON.parse(copy.stdout) as { table: string; rows: number }[];
    expect(report.find((r) => r.table === 'users')!.rows).toBe(2);
    expect(report.find((r) => r.table === 'shares')!.rows).toBe(1);
    expect(report.map((r) => r.table)).toContain('rate_limits');

    const again = await cli(['db', 'copy', '--from', src, '--to', pg.url]);
    expect(again.code).toBe(1);
    expect(again.stderr.trim().split('\n')).toEqual([expect.stringContaining('not empty')]);
    expect((await cli(['db', 'copy', '--from', src, '--to', pg.url, '--force'])).code).toBe(0);

    // And back into a new SQLite file: the same people can log in, links and key survive, new ids follow on.
    const back = join(t2.dir, 'back', 'filedeck.db');
    expect((await cli(['db', 'copy', '--from', pg.url, '--to', back])).code).toBe(0);
    for (const database of [pg.url, back]) {
      const s = await createServices(loadConfig({ noDefaultFiles: true, env: {}, flags: { root: t2.root, database } }), silentLogger);
      try {
        expect((await s.auth.loginWithPassword('admin', ADMIN_PASSWORD, 'x')).username).toBe('admin');
        expect((await s.auth.loginWithPassword('bob', USER_PASSWORD, 'x')).username).toBe('bob');
        expect(await s.stores.shares.byHash(s2.hash)).not.toBeNull();
        await s.settings.load();
        expect(Buffer.from(s.settings.signingKey()).equals(Buffer.from(key))).toBe(true);
        const carol = await s.users.create({ username: 'carol', password: 'carols-long-password-123' });
        expect(carol.id).toBe(3);
      } finally {
        await s.close();
      }
    }
    await t2.close();
  }, 60_000);

  test('bad input: one clear line and exit 1', async () => {
    for (const [args, why] of [
      [['--from', '/nonexistent/x.db', '--to', '/tmp/y.db'], 'does not exist'],
      [['--from', 'postgres://fd@127.0.0.1:1/x', '--to', '/tmp/y.db', '--connect-timeout', '1000'], 'cannot reach'],
      [['--to', '/tmp/y.db'], "required option '--from"],
    ] as const) {
      const r = await cli(['db', 'copy', ...args]);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(why);
    }
  });
});
