import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SQL } from 'bun';
import { cli, filedeckCommand, startServer, type CliResult, type RunningServer } from '../helpers/binary';
import { cliJson, cliRefused } from '../helpers/cli-expect';

/**
 * Every admin verb added for issue 17 (shares add/update, sessions ls/end, health, audit ls), run twice: against
 * the database of a server that is running at the same time, and offline (the server stopped). With
 * FILEDECK_TEST_PG the database is a schema on that PostgreSQL server instead of a SQLite file.
 */
const ADMIN_PW = 'cli-admin-password-5531';
const ALICE_PW = 'alices-long-password-77';

async function databaseFor(dir: string): Promise<string> {
  const pg = process.env.FILEDECK_TEST_PG;
  if (!pg) return join(dir, 'db', 'filedeck.db');
  const admin = new SQL(pg, { max: 1 });
  const name = `cli_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  await admin.unsafe(`CREATE SCHEMA ${name}`);
  await admin.close();
  return `${pg}?search_path=${name}`;
}

for (const mode of ['running server', 'offline'] as const) {
  describe(`admin verbs (${mode})`, () => {
    const dir = mkdtempSync(join(tmpdir(), 'filedeck-cli-admin-'));
    const root = join(dir, 'files');
    let db = '';
    let server: RunningServer | null = null;
    let url = '';
    let aliceToken = '';
    const fd = (...args: string[]) => cli(['-d', db, '-r', root, ...args], { cwd: dir });
    /** Runs a verb with `input` on standard input (for `--password -`). */
    async function fdIn(input: string, ...args: string[]): Promise<CliResult> {
      const p = Bun.spawn([...filedeckCommand(), '-d', db, '-r', root, ...args], { cwd: dir, stdin: new Blob([input]), stdout: 'pipe', stderr: 'pipe' });
      const [stdout, stderr, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
      return { code, stdout, stderr };
    }
    const json = cliJson;
    const refused = cliRefused;
    const shareCount = async () => (await json<unknown[]>(fd('shares', 'ls', '--json'))).length;

    beforeAll(async () => {
      db = await databaseFor(dir);
      mkdirSync(join(root, 'alice', 'docs'), { recursive: true });
      writeFileSync(join(root, 'alice', 'docs', 'a.txt'), 'hello');
      server = await startServer(['-d', db, '-r', root, '--password', ADMIN_PW, '--log', ''], { cwd: dir });
      url = server.url;
      expect((await fd('users', 'add', 'alice', ALICE_PW, '--scope', '/alice', '--perm.share', 'true', '--perm.download', 'true')).code).toBe(0);
      const r = await fetch(`${url}/api/login`, { method: 'POST', body: JSON.stringify({ username: 'alice', password: ALICE_PW }) });
      expect(r.status).toBe(200);
      aliceToken = await r.text();
      if (mode === 'offline') {
        await server.stop();
        server = null;
      }
    }, 30_000);
    afterAll(async () => {
      await server?.stop();
      rmSync(dir, { recursive: true, force: true });
    });

    test('health: database reachable, schema version, users count; a missing database is one line and exit 1', async () => {
      const h = await json<{ status: string; schema: { version: number; latest: number }; users: number; database: { reachable: boolean } }>(fd('health', '--json'));
      expect(h.status).toBe('ok');
      expect(h.database.reachable).toBe(true);
      expect(h.schema.version).toBe(h.schema.latest);
      expect(h.users).toBe(2);
      const human = await fd('health');
      expect(human.stdout).toMatch(/schema\s+version \d+/);
      if (!process.env.FILEDECK_TEST_PG) await refused(cli(['-d', join(dir, 'nope.db'), '-r', root, 'health']), 'does not exist');
    });

    test('shares add: prints the link, --expires 2d, --password - from standard input; bad input changes nothing', async () => {
      const made = await json<{ hash: string; link: string; expire: number; hasPassword: boolean; path: string }>(fd('shares', 'add', '/docs', '--user', 'alice', '--expires', '2d', '--json'));
      expect(made.link).toEndWith(`/share/${made.hash}`);
      expect(made.path).toBe('/docs');
      expect(Math.abs(made.expire - (Math.floor(Date.now() / 1000) + 2 * 86400))).toBeLessThan(60);
      const human = await fd('shares', 'add', '/docs/a.txt', '--user', 'alice', '--url', 'https://files.example.org/');
      expect(human.code).toBe(0);
      expect(human.stdout.split('\n')[0]).toMatch(/^https:\/\/files\.example\.org\/share\/[\w-]{12}$/);
      const locked = await json<{ hash: string; hasPassword: boolean }>(fdIn('s3cret-share-pass\n', 'shares', 'add', '/docs', '--user', 'alice', '--password', '-', '--json'));
      expect(locked.hasPassword).toBe(true);
      if (server) {
        expect((await fetch(`${url}/api/public/share/${locked.hash}`)).status).toBe(401);
        expect((await fetch(`${url}/api/public/share/${locked.hash}`, { headers: { 'X-SHARE-PASSWORD': 's3cret-share-pass' } })).status).toBe(200);
      }
      const before = await shareCount();
      await refused(fd('shares', 'add', '/docs', '--user', 'nobody'), 'no user "nobody"');
      await refused(fd('shares', 'add', '/missing', '--user', 'alice'), 'filedeck:');
      await refused(fd('shares', 'add', '/docs', '--user', 'alice', '--expires', '2x'), 'not a duration');
      await refused(fdIn('', 'shares', 'add', '/docs', '--user', 'alice', '--password', '-'), 'no password on standard input');
      expect(await shareCount()).toBe(before);
    });

    test('shares update: --expires, --password -, --no-password; bad input changes nothing', async () => {
      const { hash } = await json<{ hash: string }>(fd('shares', 'add', '/docs', '--user', 'alice', '--json'));
      const longer = await json<{ expire: number }>(fd('shares', 'update', hash, '--expires', '12h', '--json'));
      expect(Math.abs(longer.expire - (Math.floor(Date.now() / 1000) + 12 * 3600))).toBeLessThan(60);
      expect((await json<{ expire: number }>(fd('shares', 'update', hash, '--expires', '0', '--json'))).expire).toBe(0);
      expect((await json<{ hasPassword: boolean }>(fdIn('new-pass-123', 'shares', 'update', hash, '--password', '-', '--json'))).hasPassword).toBe(true);
      if (server) expect((await fetch(`${url}/api/public/share/${hash}`)).status).toBe(401);
      expect((await json<{ hasPassword: boolean }>(fd('shares', 'update', hash, '--no-password', '--json'))).hasPassword).toBe(false);
      if (server) expect((await fetch(`${url}/api/public/share/${hash}`)).status).toBe(200);
      await refused(fd('shares', 'update', 'no-such-hash', '--expires', '1d'), 'no share "no-such-hash"');
      await refused(fd('shares', 'update', hash, '--expires', 'soon'), 'not a duration');
      await refused(fd('shares', 'update', hash), 'nothing to change');
      const after = (await json<{ hash: string; expire: number; hasPassword: boolean }[]>(fd('shares', 'ls', '--json'))).find((x) => x.hash === hash)!;
      expect(after).toMatchObject({ expire: 0, hasPassword: false });
    });

    test('sessions ls and end (--user, --all): the running server refuses the ended tokens at once', async () => {
      const list = await json<{ id: string; username: string }[]>(fd('sessions', 'ls', '--json'));
      expect(list.some((x) => x.username === 'alice')).toBe(true);
      expect(list.every((x) => x.id.length === 8)).toBe(true);
      expect((await json<{ username: string }[]>(fd('sessions', 'ls', '--user', 'alice', '--json'))).every((x) => x.username === 'alice')).toBe(true);
      await refused(fd('sessions', 'end'), 'either --user');
      await refused(fd('sessions', 'end', '--user', 'alice', '--all'), 'either --user');
      await refused(fd('sessions', 'ls', '--user', 'nobody'), 'no user "nobody"');
      await refused(fd('sessions', 'end', '--user', 'nobody'), 'no user "nobody"');
      expect((await json<unknown[]>(fd('sessions', 'ls', '--user', 'alice', '--json'))).length).toBeGreaterThan(0); // nothing ended by the refusals
      const ended = await json<{ ended: number; user: string }>(fd('sessions', 'end', '--user', 'alice', '--json'));
      expect(ended).toMatchObject({ user: 'alice' });
      expect(ended.ended).toBeGreaterThan(0);
      expect(await json<unknown[]>(fd('sessions', 'ls', '--user', 'alice', '--json'))).toEqual([]);
      if (server) {
        expect((await fetch(`${url}/api/resources/`, { headers: { 'X-Auth': aliceToken } })).status).toBe(401);
        const r = await fetch(`${url}/api/login`, { method: 'POST', body: JSON.stringify({ username: 'admin', password: ADMIN_PW }) });
        expect(r.status).toBe(200);
      }
      const all = await fd('sessions', 'end', '--all');
      expect(all.code).toBe(0);
      expect(all.stdout).toMatch(/^\d+ sessions? ended/);
      expect(await json<unknown[]>(fd('sessions', 'ls', '--json'))).toEqual([]);
    });

    test('audit ls: what the verbs did, filtered; bad values are one line and exit 1', async () => {
      const page = await json<{ entries: { action: string; userName: string; address: string; target: string }[]; next: string | null }>(fd('audit', 'ls', '--json', '--limit', '500'));
      const actions = new Set(page.entries.map((e) => e.action));
      for (const a of ['user.create', 'login', 'share.create', 'share.update', 'sessions.end']) expect(actions).toContain(a);
      const mine = await json<{ entries: { action: string; userName: string; address: string }[] }>(fd('audit', 'ls', '--action', 'share', '--user', 'cli', '--since', '1h', '--json'));
      expect(mine.entries.length).toBeGreaterThan(3);
      expect(mine.entries.every((e) => e.action.startsWith('share.') && e.userName === 'cli' && e.address === 'cli')).toBe(true);
      const logins = await json<{ entries: { target: string }[] }>(fd('audit', 'ls', '--action', 'login', '--user', 'alice', '--json'));
      expect(logins.entries.map((e) => e.target)).toContain('alice');
      const two = await json<{ entries: unknown[]; next: string | null }>(fd('audit', 'ls', '--limit', '2', '--json'));
      expect(two.entries.length).toBe(2);
      expect(two.next).not.toBeNull();
      const human = await fd('audit', 'ls', '--action', 'sessions.end');
      expect(human.stdout).toMatch(/Time\s+User\s+Address\s+Action\s+Target\s+Outcome/);
      await refused(fd('audit', 'ls', '--since', 'last tuesday'), 'since must be');
      await refused(fd('audit', 'ls', '--limit', 'many'), '--limit');
      await refused(fd('audit', 'ls', '--action', 'explode'), 'unknown action');
    });
  });
}
