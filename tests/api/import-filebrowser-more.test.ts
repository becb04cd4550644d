import { describe, expect, test } from 'bun:test';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readFilebrowserDb } from '../../server/services/import/filebrowser/read-db';
import { dumpFromExports } from '../../server/services/import/filebrowser/fb-exports';
import { cli } from '../helpers/binary';
import { cliRefused } from '../helpers/cli-expect';
import { writeBoltFile, stormId } from '../helpers/bolt-writer';
import { copyFbFixture, fbFixtureHashes } from '../helpers/fb-fixtures';
import { createShareTargets, dbState, expected, fbFile, JULY_2026, renameTestAdmin, runImport } from '../helpers/filebrowser-fixtures';
import { makeTestApp, type TestApp } from '../helpers/test-app';

/**
 * The large fixture (500 users, 5,000 links: overflow and branch pages, deletions, orphans), filebrowser's JSON
 * exports, and the CLI: a damaged or foreign file imports nothing, the server values of filebrowser's config file and
 * FB_* variables, and the fixtures stay as they were. On the engine under test (FILEDECK_TEST_PG for PostgreSQL).
 */
const large = expected('expected-large-summary.json');

async function withApp(fn: (t: TestApp) => Promise<void>): Promise<void> {
  const t = await makeTestApp();
  try {
    await fn(t);
  } finally {
    await t.close();
  }
}

describe('filebrowser import: large.db', () => {
  test('500 users and the 4,587 live links of owners that exist; expired and orphaned ones reported and skipped; a second run changes nothing', () =>
    withApp(async (t) => {
      await renameTestAdmin(t);
      const dump = await readFilebrowserDb(fbFile('large.db'));
      createShareTargets(t, dump);
      const { plan } = await runImport(t, dump, { now: JULY_2026 });
      const reasons = (word: string) => plan.shares.filter((s) => s.action === 'skip' && s.reason!.startsWith(word)).length;
      expect(plan.users.filter((u) => u.action === 'create').length).toBe(large.users);
      expect(reasons('expired')).toBe(large['expiredSharesAsOf2026-07-01']);
      // Orphans that had also expired were counted as expired.
      const orphansExpired = dump.shares.filter((s) => large.deletedUserIDs.includes(s.value.userID) && s.value.expire !== 0 && s.value.expire <= JULY_2026).length;
      expect(reasons('orphaned')).toBe(large.orphanShares - orphansExpired);
      const created = plan.shares.filter((s) => s.action === 'create');
      expect(created.length).toBe(large.shares - reasons('expired') - reasons('orphaned'));
      expect(created.every((s) => s.reach === 'ok')).toBe(true);
      expect((await t.s.stores.shares.all()).length).toBe(created.length);
      expect((await t.s.stores.users.all()).length).toBe(large.users + 1);
      // Sample users: the largest records (overflow pages) with all their rules, and their old passwords.
      for (const sample of large.sampleUsers as { value: Record<string, any> }[]) {
        const u = (await t.s.stores.users.byUsername(sample.value.username))!;
        expect(u.password).toBe(sample.value.password);
        expect(u.rules.length).toBe((sample.value.rules ?? []).length);
        expect(u.perm.admin).toBe(sample.value.perm.admin);
        expect(await t.login(u.username, `${u.username}-fixture-pw`)).toContain('.');
      }
      // Sample password links by their old URLs.
      for (const s of large.sampleShares as { password: string; value: { hash: string } }[]) {
        expect((await t.req('GET', `/api/public/share/${s.value.hash}`)).status).toBe(401);
        const open = await t.req('GET', `/api/public/share/${s.value.hash}`, { headers: { 'X-SHARE-PASSWORD': encodeURIComponent(s.password) } });
        expect(open.status).toBe(200);
      }
      const before = await dbState(t);
      const again = await runImport(t, dump, { now: JULY_2026 });
      expect(again.result.changed).toBe(false);
      expect(await dbState(t)).toEqual(before);
    }), 300_000);
});

describe("filebrowser import: filebrowser's JSON exports", () => {
  const basic = expected('expected-basic.json');
  const usersExport = basic.users.map((u: { value: unknown }) => u.value);
  const configExport = { settings: basic.config.settings, server: basic.config.server, auther: basic.config.auther };

  test('users and config exports: accounts with their passwords, and the settings', () =>
    withApp(async (t) => {
      await renameTestAdmin(t);
      const { dump, settings } = dumpFromExports(usersExport, configExport);
      const { plan } = await runImport(t, dump, { noSettings: !settings });
      expect(plan.users.map((u) => u.action)).toEqual(['create', 'create', 'create']);
      for (const [name, pw] of Object.entries(basic.plaintext.userPasswords as Record<string, string>)) expect(await t.login(name, pw)).toContain('.');
      expect(t.s.settings.get()).toMatchObject({ signup: true, createUserDir: true, userHomeBasePath: '/home', shell: ['sh', '-c'] });
    }));

  test('a users export alone leaves the settings as they are; a malformed export is refused', () =>
    withApp(async (t) => {
      await renameTestAdmin(t);
      const revision = await t.s.stores.settings.revision();
      const { dump, settings } = dumpFromExports(usersExport, null);
      await runImport(t, dump, { noSettings: !settings });
      expect(await t.s.stores.settings.revision()).toBe(revision);
      expect((await t.s.stores.users.byUsername('alice'))!.scope).toBe('/projects/alice');
      expect(() => dumpFromExports({ users: [] }, null)).toThrow('must be a list');
      expect(() => dumpFromExports(usersExport, { server: {} })).toThrow('settings');
    }));
});

describe('filebrowser import: the CLI', () => {
  const v1 = writeBoltFile({
    config: { key: '"c2VjcmV0"', commands: '{"before_save":[]}', __storm_metadata: { codec: 'json' } },
    User: { [stormId(1)]: '{"ID":1,"admin":true,"filesystem":"/srv","username":"admin"}', __storm_metadata: { codec: 'json' } },
  });

  test('a truncated, damaged, random or 1.x file: exit 1 with a clear message, nothing imported; the fixtures untouched', () =>
    withApp(async (t) => {
      const hashes = fbFixtureHashes();
      const dir = mkdtempSync(join(tmpdir(), 'fb-bad-'));
      try {
        const whole = readFileSync(fbFile('basic.db'));
        const bothMetas = new Uint8Array(whole);
        bothMetas.fill(0xff, 16, 80).fill(0xff, 4096 + 16, 4096 + 80);
        const bad: [string, Uint8Array, string][] = [
          ['truncated.db', whole.subarray(0, 20_000), 'filebrowser database'],
          ['random.db', crypto.getRandomValues(new Uint8Array(65536)), 'filebrowser database'],
          ['metas.db', bothMetas, 'filebrowser database'],
          ['v1.db', v1, '1.x'],
        ];
        const before = await dbState(t);
        for (const [name, bytes, says] of bad) {
          writeFileSync(join(dir, name), bytes);
          await cliRefused(cli(['-d', t.database, '-r', t.root, 'import', 'filebrowser', join(dir, name)]), says);
        }
        await cliRefused(cli(['-d', t.database, '-r', t.root, 'import', 'filebrowser', join(dir, 'absent.db')]), 'absent.db');
        expect(await dbState(t)).toEqual(before);
        // The real file, imported by the CLI, is read only: byte for byte the same afterwards.
        await renameTestAdmin(t);
        const copy = copyFbFixture('basic.db', dir);
        const bytes = readFileSync(copy);
        const out = await cli(['-d', t.database, '-r', t.root, 'import', 'filebrowser', copy, '--json']);
        expect(out.code).toBe(0);
        expect(JSON.parse(out.stdout).counts.users.create).toBe(3);
        expect(readFileSync(copy).equals(bytes)).toBe(true);
        expect(fbFixtureHashes()).toEqual(hashes);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }), 120_000);

  test("a dry run prints the plan and writes nothing, not even a new database; server values from filebrowser's config file and FB_* variables", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fb-cli-'));
    try {
      writeFileSync(join(dir, '.filebrowser.toml'), 'port = 9090\nbaseURL = "/fb/"\ndisableExec = true\n');
      const db = join(dir, 'new.db');
      const out = await cli(['-d', db, '-r', join(dir, 'files'), 'import', 'filebrowser', fbFile('basic.db'), '--dry-run'], { cwd: dir, env: { FB_ADDRESS: '10.0.0.5' } });
      expect(out.code).toBe(0);
      expect(out.stdout).toContain('Dry run');
      expect(out.stdout).toMatch(/create\s+alice/);
      expect(out.stdout).toContain('port: 9090');
      expect(out.stdout).toContain('baseURL: /fb');
      expect(out.stdout).toContain('address: 10.0.0.5');
      expect(out.stdout).toContain('enableExec: false');
      expect(out.stdout).toContain('FB_ADDRESS');
      expect(Bun.file(db).size).toBe(0);
      expect(await Bun.file(db).exists()).toBe(false);
      // filebrowser-json: --config after the verb is filebrowser's export, not Filedeck's config file.
      const basic = expected('expected-basic.json');
      writeFileSync(join(dir, 'users.json'), JSON.stringify(basic.users.map((u: { value: unknown }) => u.value)));
      writeFileSync(join(dir, 'config.json'), JSON.stringify({ settings: basic.config.settings, server: basic.config.server, auther: basic.config.auther }));
      const json = await cli(['-d', db, '-r', join(dir, 'files'), 'import', 'filebrowser-json', '--users', join(dir, 'users.json'), '--config', join(dir, 'config.json'), '--write-config', join(dir, 'filedeck.yaml')], { cwd: dir });
      expect(json.stderr).toBe('');
      expect(json.stdout).toMatch(/created\b.*\n[\s\S]*create\s+bob/);
      expect(readFileSync(join(dir, 'filedeck.yaml'), 'utf8')).toContain('root: /srv/filebrowser');
      // A fresh database made by the import holds its users only (serve adds a first admin only to a database without users).
      const ls = await cli(['-d', db, '-r', join(dir, 'files'), 'users', 'ls', '--json']);
      expect(JSON.parse(ls.stdout).map((u: { username: string }) => u.username)).toEqual(['admin', 'alice', 'bob']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
