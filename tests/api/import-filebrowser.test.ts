import { describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readFilebrowserDb } from '../../server/services/import/filebrowser/read-db';
import { systemActor } from '../../server/services/actor';
import type { FilebrowserDump } from '../../server/services/import/filebrowser/fb-dump';
import { createShareTargets, dbState, expected, fbFile, renameTestAdmin, runImport } from '../helpers/filebrowser-fixtures';
import { diskSnapshot, runScenarios, type Scenario } from '../helpers/scenario';
import { makeTestApp, type TestApp } from '../helpers/test-app';

/**
 * `filedeck import filebrowser` on the engine under test (SQLite; PostgreSQL with FILEDECK_TEST_PG): the fixtures of
 * issue 38 imported through the real reader and compared with their expected JSON, then used through the real HTTP
 * app: the old passwords sign in, the old share URLs open (with and without their password), rules and scopes hold.
 */
const basic = expected('expected-basic.json');
const PW: Record<string, string> = basic.plaintext.userPasswords;
const SHARE_PW = basic.plaintext.sharePasswords.OrFQv_Mj as string;
const TOKEN = basic.shares.find((s: { key: string }) => s.key === 'OrFQv_Mj').value.token as string;

/** The files alice's and the global rules are about, beside the shared items. */
function ruleFiles(t: TestApp): void {
  const put = (p: string, text = p) => {
    mkdirSync(join(t.root, p, '..'), { recursive: true });
    writeFileSync(join(t.root, p), text);
  };
  put('projects/alice/ok.txt');
  put('projects/alice/archive/old.txt');
  put('projects/alice/notes.secret');
  put('projects/alice/tool.exe');
  put('private/x.txt');
  put('private/shared/y.txt');
}

/** A test app holding basic.db imported (its admin renamed first), with the shared items and rule files on disk. */
async function importedBasic(t: TestApp, db = 'basic.db'): Promise<Record<string, string>> {
  await renameTestAdmin(t);
  const dump = await readFilebrowserDb(fbFile(db));
  createShareTargets(t, dump);
  ruleFiles(t);
  await runImport(t, dump);
  const tokens: Record<string, string> = {};
  for (const [name, pw] of Object.entries(PW)) tokens[`fb-${name}`] = await t.login(name, pw);
  return tokens;
}

const rows: Scenario[] = [
  // Old passwords (bcrypt $2a$ hashes kept as they were).
  ...Object.entries(PW).map(([username, password]): Scenario => ({ name: `${username} signs in with the old password`, as: 'anon', method: 'POST', url: '/api/login', body: { username, password }, status: 200 })),
  { name: 'a wrong password still fails', as: 'anon', method: 'POST', url: '/api/login', body: { username: 'alice', password: 'not-alices-password' }, status: 403 },
  // Old share URLs: the same hashes.
  { name: 'a permanent file link opens by its old hash', as: 'anon', method: 'GET', url: '/api/public/share/STUOS7kz', status: 200, contains: 'handbook.pdf' },
  { name: 'and downloads', as: 'anon', method: 'GET', url: '/api/public/dl/STUOS7kz', status: 200, contains: 'content of STUOS7kz' },
  { name: 'the share page of the old URL is served', as: 'anon', method: 'GET', url: '/share/STUOS7kz', status: 200, contains: '<html' },
  { name: 'a folder link (stored with a trailing /) lists its folder', as: 'anon', method: 'GET', url: '/api/public/share/LInS1TVj', status: 200, contains: 'inside.txt' },
  { name: 'a file inside the folder link downloads', as: 'anon', method: 'GET', url: '/api/public/dl/LInS1TVj/inside.txt', status: 200, contains: 'inside LInS1TVj' },
  { name: 'a password link without its password: 401', as: 'anon', method: 'GET', url: '/api/public/share/OrFQv_Mj', status: 401 },
  { name: 'with a wrong password: 401', as: 'anon', method: 'GET', url: '/api/public/share/OrFQv_Mj', headers: { 'X-SHARE-PASSWORD': 'wrong-password' }, status: 401 },
  { name: 'with its old password', as: 'anon', method: 'GET', url: '/api/public/share/OrFQv_Mj', headers: { 'X-SHARE-PASSWORD': SHARE_PW }, status: 200, contains: 'plan.md' },
  { name: 'its old token downloads', as: 'anon', method: 'GET', url: `/api/public/dl/OrFQv_Mj?token=${TOKEN}`, status: 200, contains: 'content of OrFQv_Mj' },
  { name: 'an unknown hash: 404', as: 'anon', method: 'GET', url: '/api/public/share/NOPE1234', status: 404 },
  // Rules: alice's own (regex and path) and the global ones (path, regex, a UI-style allow beneath a deny).
  { name: 'alice reads an allowed file', as: 'fb-alice', method: 'GET', url: '/api/raw/ok.txt', status: 200 },
  { name: "alice's path rule /archive denies", as: 'fb-alice', method: 'GET', url: '/api/raw/archive/old.txt', status: 403 },
  { name: "alice's regex rule \\.secret$ denies", as: 'fb-alice', method: 'GET', url: '/api/raw/notes.secret', status: 403 },
  { name: 'the global regex rule denies .exe', as: 'fb-alice', method: 'GET', url: '/api/raw/tool.exe', status: 403 },
  { name: 'the global path rule /private denies, admins included', as: 'fb-admin', method: 'GET', url: '/api/raw/private/x.txt', status: 403 },
  { name: 'the later allow rule /private/shared lets through', as: 'fb-admin', method: 'GET', url: '/api/raw/private/shared/y.txt', status: 200 },
  // Scopes and permissions.
  { name: "bob's scope /home/bob is his root", as: 'fb-bob', method: 'GET', url: '/api/raw/notes/plan.md', status: 200, contains: 'content of OrFQv_Mj' },
  { name: "bob cannot reach outside his scope", as: 'fb-bob', method: 'GET', url: '/api/raw/docs/R%26D/handbook.pdf', status: 404 },
  { name: 'bob may not modify (perm.modify was off)', as: 'fb-bob', method: 'PUT', url: '/api/resources/notes/plan.md', raw: 'changed', status: 403 },
  { name: "alice's scope /projects/alice is her root", as: 'fb-alice', method: 'GET', url: '/api/resources/', status: 200, contains: 'ok.txt', excludes: 'handbook' },
];

runScenarios('imported basic.db through the HTTP app', importedBasic, rows, { shared: true, timeout: 30_000 });

/** What the users and links of a fixture became here, next to its expected JSON. */
async function compareWithExpected(t: TestApp, exp: { users: { value: Record<string, any> }[]; shares: { key: string; value: Record<string, any> }[] }) {
  const users = new Map((await t.s.stores.users.all()).map((u) => [u.username, u]));
  for (const { value: fb } of exp.users) {
    const u = users.get(fb.username)!;
    expect(u).toBeDefined();
    expect(u.password).toBe(fb.password);
    expect(u.perm).toEqual({ ...fb.perm, share: fb.perm.share && (fb.perm.download || fb.perm.admin) });
    expect(u.commands).toEqual(fb.commands ?? []);
    expect(u.lockPassword).toBe(!!fb.lockPassword && !fb.perm.admin);
    expect(u.locale).toBe(fb.locale || 'en');
    expect(u.viewMode).toBe(fb.viewMode || 'list');
    expect(u.sorting).toEqual({ by: fb.sorting.by || 'name', asc: !!fb.sorting.asc });
    expect([u.singleClick, u.hideDotfiles, u.dateFormat, u.redirectAfterCopyMove]).toEqual([!!fb.singleClick, !!fb.hideDotfiles, !!fb.dateFormat, !!fb.redirectAfterCopyMove]);
    expect(u.aceEditorTheme).toBe(fb.aceEditorTheme ?? '');
    expect(u.scope).toBe('/' + String(fb.scope).split('/').filter((p: string) => p && p !== '.').join('/'));
    expect(u.rules.map((r) => [r.allow, r.regex, r.regex ? r.regexp!.raw : r.path])).toEqual((fb.rules ?? []).map((r: any) => [r.allow, r.regex, r.regex ? r.regexp.raw : r.path]));
  }
  const shares = await t.s.stores.shares.all();
  const names = new Map([...users.values()].map((u) => [u.id, u.username]));
  const fbNames = new Map(exp.users.map((u) => [u.value.id, u.value.username]));
  expect(shares.map((s) => s.hash).sort()).toEqual(exp.shares.map((s) => s.key).sort());
  for (const { value: fb } of exp.shares) {
    const s = shares.find((x) => x.hash === fb.hash)!;
    expect(names.get(s.userId)).toBe(fbNames.get(fb.userID));
    expect(s.path).toBe(fb.path.length > 1 ? fb.path.replace(/\/$/, '') : fb.path);
    expect([s.expire, s.passwordHash, s.token]).toEqual([fb.expire, fb.password_hash ?? '', fb.token ?? '']);
  }
}

describe('filebrowser import: the fixtures as their expected JSON says', () => {
  for (const [db, json] of [['basic.db', 'expected-basic.json'], ['basic-16k.db', 'expected-basic.json'], ['older.db', 'expected-older.json']] as const)
    test(`${db} onto an empty database`, async () => {
      const t = await makeTestApp();
      try {
        await renameTestAdmin(t);
        const exp = expected(json);
        const dump = await readFilebrowserDb(fbFile(db));
        createShareTargets(t, dump);
        const { plan, result } = await runImport(t, dump);
        expect(result.changed).toBe(true);
        expect(plan.shares.every((s) => s.action === 'create' && s.reach === 'ok')).toBe(true);
        await compareWithExpected(t, exp);
        for (const [name, pw] of Object.entries(exp.plaintext.userPasswords as Record<string, string>)) expect(await t.login(name, pw)).toContain('.');
        // Every link by its old URL: without its password (when it has one), then with it.
        const sharePw = (exp.plaintext.sharePasswords ?? {}) as Record<string, string>;
        for (const { key } of exp.shares) {
          const bare = await t.req('GET', `/api/public/share/${key}`);
          expect({ key, status: bare.status }).toEqual({ key, status: sharePw[key] ? 401 : 200 });
          if (sharePw[key]) expect((await t.req('GET', `/api/public/share/${key}`, { headers: { 'X-SHARE-PASSWORD': sharePw[key]! } })).status).toBe(200);
        }
        // Settings: the mapped global values are in effect.
        const s = t.s.settings.get();
        const fbs = exp.config.settings;
        expect([s.signup, s.createUserDir, s.authMethod]).toEqual([fbs.signup, !!fbs.createUserDir, 'json']);
        expect(s.shell).toEqual((fbs.shell as string[]).filter(Boolean));
        expect(s.branding.name).toBe(fbs.branding.name);
        expect(s.rules.length).toBe((fbs.rules ?? []).length);
        if (db === 'older.db') {
          expect(plan.users.find((u) => u.username === 'carol')!.notes.join()).toContain('host path');
          expect(s.userHomeBasePath).toBe('/users');
        } else {
          expect(s.commands.after_upload).toEqual(fbs.commands.after_upload);
          expect(s.branding).toMatchObject({ theme: 'dark', color: '#1e88e5', files: '/srv/branding', disableExternal: true });
          expect(plan.serverConfig).toMatchObject({ root: '/srv/filebrowser', baseURL: '/files', address: '0.0.0.0', port: 8080, tokenExpirationTime: '2h', enableExec: true });
          expect(plan.notes.join('\n')).toContain('reCAPTCHA');
        }
      } finally {
        await t.close();
      }
    }, 60_000);
});

describe('filebrowser import: dry run, second run, conflicts, all or nothing', () => {
  let dump: FilebrowserDump;
  const load = async () => (dump ??= await readFilebrowserDb(fbFile('basic.db')));

  test('a dry run (a plan) writes nothing: no row, no setting, no folder', async () => {
    const t = await makeTestApp();
    try {
      await renameTestAdmin(t);
      const before = await dbState(t);
      const disk = diskSnapshot(t.root);
      const plan = await t.s.filebrowserImport.plan(await load(), { source: 'basic.db' });
      expect(plan.users.map((u) => u.action)).toEqual(['create', 'create', 'create']);
      expect(plan.shares.map((s) => [s.hash, s.action, s.reach])).toEqual([['LInS1TVj', 'create', 'missing'], ['OrFQv_Mj', 'create', 'missing'], ['STUOS7kz', 'create', 'missing']]);
      expect(await dbState(t)).toEqual(before);
      expect(diskSnapshot(t.root)).toEqual(disk);
    } finally {
      await t.close();
    }
  });

  test('a second run changes nothing and says so', async () => {
    const t = await makeTestApp();
    try {
      await renameTestAdmin(t);
      createShareTargets(t, await load());
      await runImport(t, await load());
      const before = await dbState(t);
      const audits = (await t.s.audit.list({ action: 'import.filebrowser' })).entries.length;
      const again = await runImport(t, await load());
      expect(again.result.changed).toBe(false);
      expect(again.plan.users.every((u) => u.action === 'unchanged')).toBe(true);
      expect(again.plan.shares.every((s) => s.action === 'unchanged')).toBe(true);
      expect(again.plan.settings.changed).toEqual([]);
      expect(await dbState(t)).toEqual(before);
      expect((await t.s.audit.list({ action: 'import.filebrowser' })).entries.length).toBe(audits);
      // A user who changed their password here since is a conflict now, left alone; their links stay as they are.
      await t.s.users.update(systemActor, (await t.s.stores.users.byUsername('alice'))!.id, ['password'], { password: 'alices-new-password-31' });
      const third = await runImport(t, await load());
      expect(third.plan.users.find((u) => u.username === 'alice')!.action).toBe('conflict');
      expect(third.plan.shares.find((s) => s.hash === 'LInS1TVj')!.action).toBe('unchanged');
      expect(third.result.changed).toBe(false);
      expect(await t.login('alice', 'alices-new-password-31')).toContain('.');
    } finally {
      await t.close();
    }
  });

  test('an existing username is a conflict left alone (its links skipped); --merge replaces it', async () => {
    const t = await makeTestApp(); // its admin is called "admin", as the fixture's
    try {
      createShareTargets(t, await load());
      const first = await runImport(t, await load());
      const admin = first.plan.users.find((u) => u.username === 'admin')!;
      expect(admin.action).toBe('conflict');
      expect(admin.reason).toContain('--merge');
      expect(first.plan.shares.find((s) => s.hash === 'STUOS7kz')).toMatchObject({ action: 'skip', reason: expect.stringContaining('not merged') });
      expect(await t.s.stores.shares.byHash('STUOS7kz')).toBeNull();
      expect(await t.adminToken()).toContain('.'); // the admin here keeps their own password
      const merged = await runImport(t, await load(), { merge: true });
      expect(merged.plan.users.find((u) => u.username === 'admin')!.action).toBe('merge');
      expect(merged.plan.users.filter((u) => u.username !== 'admin').every((u) => u.action === 'unchanged')).toBe(true);
      expect(await t.login('admin', PW.admin!)).toContain('.');
      expect((await t.s.stores.shares.byHash('STUOS7kz'))!.userId).toBe(1);
    } finally {
      await t.close();
    }
  });

  test('a hash that is, case-folded, the slug of a link here is a conflict: reported and skipped, the link kept', async () => {
    const t = await makeTestApp();
    try {
      await renameTestAdmin(t);
      createShareTargets(t, await load());
      mkdirSync(join(t.root, 'mine'), { recursive: true });
      await t.s.stores.shares.insert({ hash: 'existing-link-1', path: '/mine', userId: 1, expire: 0, passwordHash: '', token: '', target: '', targetId: '' });
      await t.s.db.run('UPDATE shares SET slug = ? WHERE hash = ?', 'stuos7kz', 'existing-link-1');
      const { plan } = await runImport(t, await load());
      expect(plan.shares.find((s) => s.hash === 'STUOS7kz')).toMatchObject({ action: 'conflict', reason: expect.stringContaining('slug "stuos7kz"') });
      expect(plan.shares.filter((s) => s.hash !== 'STUOS7kz').map((s) => s.action)).toEqual(['create', 'create']);
      expect(await t.s.stores.shares.byHash('STUOS7kz')).toBeNull();
      expect((await t.s.stores.shares.bySlug('stuos7kz'))!.hash).toBe('existing-link-1');
      expect((await t.s.stores.shares.byHash('LInS1TVj'))!.target).not.toBe('');
    } finally {
      await t.close();
    }
  });

  test('a failure inside the transaction leaves nothing: no user, link, setting or new folder', async () => {
    const t = await makeTestApp();
    try {
      await renameTestAdmin(t);
      const plan = await t.s.filebrowserImport.plan(await load(), { source: 'basic.db' });
      // Someone takes one of the hashes between the plan and its application: the insert fails at the end.
      await t.s.stores.shares.insert({ hash: 'STUOS7kz', path: '/x', userId: 1, expire: 0, passwordHash: '', token: '', target: '', targetId: '' });
      const before = await dbState(t);
      const disk = diskSnapshot(t.root);
      await expect(t.s.filebrowserImport.apply(plan)).rejects.toThrow();
      expect(await dbState(t)).toEqual(before);
      expect(diskSnapshot(t.root)).toEqual(disk);
      expect(existsSync(join(t.root, 'projects/alice'))).toBe(false);
    } finally {
      await t.close();
    }
  });
});
