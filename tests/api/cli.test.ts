import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { Database } from 'bun:sqlite';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli, startServer, type RunningServer } from '../helpers/binary';

// Every CLI command runs against the database of a server that is running at the same time.
const dir = mkdtempSync(join(tmpdir(), 'filedeck-cli-'));
const db = join(dir, 'db', 'filedeck.db');
const root = join(dir, 'files');
const ADMIN_PW = 'cli-admin-password-2291';
const ALICE_PW = 'alices-long-password-1';
let server: RunningServer;

const fd = (...args: string[]) => cli(['-d', db, '-r', root, ...args], { cwd: dir });
const login = (username: string, password: string) =>
  fetch(`${server.url}/api/login`, { method: 'POST', body: JSON.stringify({ username, password }) });
async function token(username: string, password: string): Promise<string> {
  const r = await login(username, password);
  expect(r.status).toBe(200);
  return r.text();
}
const api = (path: string, tok: string) => fetch(`${server.url}${path}`, { headers: { 'X-Auth': tok } });

beforeAll(async () => {
  server = await startServer(['-d', db, '-r', root, '--password', ADMIN_PW, '--log', ''], { cwd: dir });
});
afterAll(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('cli users', () => {
  test('add creates a user the running server accepts at once', async () => {
    const r = await fd('users', 'add', 'alice', ALICE_PW, '--scope', '/alice', '--locale', 'de', '--perm.delete', 'false');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('alice');
    expect(r.stdout).toMatch(/ID\s+Username\s+Scope/);
    const tok = await token('alice', ALICE_PW);
    const me = await (await api('/api/users/2', tok)).json();
    expect(me).toMatchObject({ username: 'alice', locale: 'de', perm: { delete: false, create: true, admin: false } });
    expect(statSync(join(root, 'alice')).isDirectory()).toBe(true);
  });

  test('ls and find, as tables and as --json', async () => {
    const ls = await fd('users', 'ls', '--json');
    expect(ls.code).toBe(0);
    expect(JSON.parse(ls.stdout).map((u: { username: string }) => u.username)).toEqual(['admin', 'alice']);
    expect(ls.stdout).not.toContain('$2');
    const byName = await fd('users', 'find', 'alice');
    const byId = await fd('users', 'find', '2');
    expect(byName.stdout).toBe(byId.stdout);
    expect((await fd('users', 'find', 'nobody')).code).toBe(1);
  });

  test('update changes only the given flags and a permission change ends the user\'s sessions', async () => {
    const tok = await token('alice', ALICE_PW);
    const r = await fd('users', 'update', 'alice', '--locale', 'fr', '--perm.delete', 'true', '--json');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ locale: 'fr', scope: '/alice', perm: { delete: true } });
    expect((await api('/api/users/2', tok)).status).toBe(401);
    expect((await api('/api/users/2', await token('alice', ALICE_PW))).status).toBe(200);
  });

  test('bad input is a message and exit 1, and changes nothing', async () => {
    const cases: [string[], string][] = [
      [['users', 'update', 'alice', '--password', 'short'], 'too short'],
      [['users', 'update', 'alice', '--viewMode', 'grid'], 'viewMode'],
      [['users', 'update', 'alice', '--perm.admin', 'sure'], 'true or false'],
      [['users', 'update', 'alice'], 'nothing to change'],
      [['users', 'add', 'ALICE', ALICE_PW], 'already taken'],
      [['users', 'add', 'bob', 'password1234'], 'password'],
      [['users', 'rm', 'admin'], 'last admin'],
      [['users', 'rm', '99'], 'no user'],
    ];
    for (const [args, msg] of cases) {
      const r = await fd(...args);
      expect({ args, code: r.code }).toEqual({ args, code: 1 });
      expect(r.stderr).toContain(msg);
      expect(r.stderr).not.toContain('    at '); // no stack traces for expected errors
    }
    const u = JSON.parse((await fd('users', 'find', 'alice', '--json')).stdout);
    expect(u).toMatchObject({ locale: 'fr', viewMode: 'mosaic' });
    expect((await fd('users', 'ls', '--json')).stdout).not.toContain('"bob"');
  });

  test('export writes hashes to an owner-only file; import refuses duplicates unless --overwrite', async () => {
    const file = join(dir, 'users.json');
    expect((await fd('users', 'export', file)).code).toBe(0);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const list = JSON.parse(readFileSync(file, 'utf8'));
    expect(list[1].password).toMatch(/^\$2/);
    const again = await fd('users', 'import', file);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('--overwrite');
    list[1].locale = 'ja';
    writeFileSync(file, JSON.stringify(list));
    expect((await fd('users', 'import', file, '--overwrite')).code).toBe(0);
    expect(JSON.parse((await fd('users', 'find', 'alice', '--json')).stdout).locale).toBe('ja');
    await token('alice', ALICE_PW); // the hash survived the round trip
    writeFileSync(join(dir, 'broken.json'), '[{"username":');
    expect((await fd('users', 'import', join(dir, 'broken.json'))).code).toBe(1);
  });
});

describe('cli config', () => {
  test('set changes settings the running server serves', async () => {
    const r = await fd('config', 'set', 'signup', 'true', 'branding.name', 'Team files', 'defaults.perm.share', 'false');
    expect(r.code).toBe(0);
    const s = await (await api('/api/settings', await token('admin', ADMIN_PW))).json();
    expect(s).toMatchObject({ signup: true, branding: { name: 'Team files' }, defaults: { perm: { share: false, download: true } } });
    const page = await (await fetch(`${server.url}/files/`)).text();
    if (page.includes('filedeck-config')) expect(page).toContain('"Signup":true');
  });

  test('set refuses unknown keys, wrong types and odd arguments', async () => {
    for (const args of [['nonsense', '1'], ['signup', 'maybe'], ['minimumPasswordLength', 'ten'], ['signup'], ['authMethod', 'ldap'], ['branding.theme', 'pink']]) {
      const r = await fd('config', 'set', ...args);
      expect({ args, code: r.code }).toEqual({ args, code: 1 });
    }
  });

  test('the auth method is changed from the CLI only', async () => {
    expect((await fd('config', 'set', 'authMethod', 'proxy', 'authHeader', 'X-Remote-User')).code).toBe(0);
    expect(JSON.parse((await fd('config', 'cat', '--json')).stdout).settings).toMatchObject({ authMethod: 'proxy', authHeader: 'X-Remote-User' });
    expect((await fd('config', 'set', 'authMethod', 'json')).code).toBe(0);
  });

  test('cat shows the boot configuration and settings; export/import round-trips without the signing key', async () => {
    const cat = await fd('config', 'cat');
    expect(cat.code).toBe(0);
    expect(cat.stdout).toContain('Boot configuration');
    expect(cat.stdout).toContain('branding.name');
    const file = join(dir, 'settings.yaml');
    expect((await fd('config', 'export', file)).code).toBe(0);
    const text = readFileSync(file, 'utf8');
    expect(text).toContain('signup: true');
    expect(text).not.toMatch(/jwt|secret|key:/i);
    writeFileSync(file, text.replace('signup: true', 'signup: false'));
    const tok = await token('admin', ADMIN_PW);
    expect((await fd('config', 'import', file)).code).toBe(0);
    expect((await api('/api/settings', tok)).status).toBe(200); // key kept: tokens still valid
    expect(JSON.parse((await fd('config', 'cat', '--json')).stdout).settings.signup).toBe(false);
    writeFileSync(file, 'settings:\n  rules:\n    - {allow: false, regex: true, regexp: {raw: "(["}}\n');
    expect((await fd('config', 'import', file)).code).toBe(1);
  });

  test('init creates a new owner-only database and refuses an existing one', async () => {
    const again = await fd('config', 'init');
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('already initialised');
    const fresh = join(dir, 'new', 'fresh.db');
    const r = await cli(['-d', fresh, 'config', 'init', 'signup', 'true'], { cwd: dir });
    expect(r.code).toBe(0);
    expect(statSync(fresh).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'new')).mode & 0o777).toBe(0o700);
    const users = await cli(['-d', fresh, 'users', 'ls', '--json'], { cwd: dir });
    expect(JSON.parse(users.stdout)).toEqual([]);
  });

  test('commands on a missing database fail clearly', async () => {
    const r = await cli(['-d', join(dir, 'nope.db'), 'users', 'ls'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('does not exist');
    expect(existsSync(join(dir, 'nope.db'))).toBe(false);
  });
});

describe('cli rules, cmds, shares, misc', () => {
  test('rules: global and per user, regex validated, ranges removed', async () => {
    expect((await fd('rules', 'add', '/private')).code).toBe(0);
    expect((await fd('rules', 'add', '--regex', '\\.key$')).code).toBe(0);
    const bad = await fd('rules', 'add', '--regex', '([');
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('invalid regular expression');
    expect(JSON.parse((await fd('rules', 'ls', '--json')).stdout)).toEqual([
      { allow: false, regex: false, path: '/private', regexp: null },
      { allow: false, regex: true, path: '', regexp: { raw: '\\.key$' } },
    ]);
    expect((await fd('rules', 'add', '--user', 'alice', '--allow', '/private/alice')).code).toBe(0);
    expect(JSON.parse((await fd('users', 'find', 'alice', '--json')).stdout).rules).toHaveLength(1);
    expect((await fd('rules', 'rm', '5')).code).toBe(1);
    expect((await fd('rules', 'rm', '0', '1')).code).toBe(0);
    expect((await fd('rules', 'ls')).stdout).toContain('no rules');
  });

  test('cmds: add, list by event, remove; unknown events refused', async () => {
    expect((await fd('cmds', 'add', 'after_upload', 'echo', 'uploaded')).code).toBe(0);
    expect((await fd('cmds', 'add', 'before_everything', 'x')).code).toBe(1);
    const ls = await fd('cmds', 'ls', '-e', 'upload');
    expect(ls.stdout).toContain('echo uploaded');
    expect((await fd('cmds', 'rm', 'after_upload', '3')).code).toBe(1);
    expect((await fd('cmds', 'rm', 'after_upload', '0')).code).toBe(0);
    expect(JSON.parse((await fd('cmds', 'ls', '--json')).stdout).after_upload).toEqual([]);
  });

  test('shares: ls shows no secrets, rm deletes, unknown hash fails', async () => {
    // A link made before links pinned their target (no target column values): listed, and pinned on first use.
    mkdirSync(join(root, 'alice', 'alice'), { recursive: true });
    writeFileSync(join(root, 'alice', 'alice', 'doc.txt'), 'doc');
    const sql = new Database(db);
    sql.run('PRAGMA busy_timeout = 5000');
    sql.run(`INSERT INTO shares (hash, path, user_id, expire, password_hash, token, created_at) VALUES ('AbCdEfGh12', '/alice/doc.txt', 2, 0, '$2b$10$secrethashsecrethashsecret', 'tok-secret', 0)`);
    sql.close();
    const ls = await fd('shares', 'ls');
    expect(ls.stdout).toContain('AbCdEfGh12');
    expect(ls.stdout).toContain('alice');
    const json = await fd('shares', 'ls', '--json', '--user', 'alice');
    const listed = JSON.parse(json.stdout);
    expect(listed).toHaveLength(1);
    // The reference's fields as they were, then the v2 fields of a link made before them (decision 0051).
    expect(listed[0]).toMatchObject({ hash: 'AbCdEfGh12', path: '/alice/doc.txt', userID: 2, expire: 0, hasPassword: true, username: 'alice', state: 'ok', mode: 'view', slug: '', disabled: false, maxDownloads: 0 });
    expect(json.stdout).not.toContain('tok-secret');
    expect(json.stdout).not.toContain('secrethash');
    expect(Object.keys(listed[0])).not.toContain('token');
    expect(Object.keys(listed[0])).not.toContain('passwordHash');
    expect((await fd('shares', 'rm', 'AbCdEfGh12')).code).toBe(0);
    expect((await fd('shares', 'rm', 'AbCdEfGh12')).code).toBe(1);
  });

  test('shares add creates a link the running server serves, with the same checks as the API', async () => {
    writeFileSync(join(root, 'alice', 'shared.txt'), 'shared by cli');
    const add = await fd('shares', 'add', '/shared.txt', '--user', 'alice', '--expires', '2', '--unit', 'hours', '--password', 'pw', '--json');
    expect(add.code).toBe(0);
    const share = JSON.parse(add.stdout);
    expect(share).toMatchObject({ path: '/shared.txt', hasPassword: true });
    expect(add.stdout).not.toMatch(/token|\$2/);
    const r = await fetch(`${server.url}/api/public/dl/${share.hash}`, { headers: { 'X-SHARE-PASSWORD': 'pw' } });
    expect([r.status, await r.text()]).toEqual([200, 'shared by cli']);
    expect((await fd('shares', 'add', '/missing.txt', '--user', 'alice')).code).toBe(1);
    expect((await fd('shares', 'add', '/shared.txt', '--user', 'alice', '--unit', 'weeks', '--expires', '1')).code).toBe(1);
    expect((await fd('shares', 'add', '/../etc/passwd', '--user', 'alice')).code).toBe(1);
    const rmShare = await fd('shares', 'rm', share.hash);
    expect([rmShare.code, rmShare.stderr]).toEqual([0, '']);
  });

  test('deleting a user with the CLI ends their sessions on the running server', async () => {
    const tok = await token('alice', ALICE_PW);
    expect((await fd('users', 'rm', 'alice')).code).toBe(0);
    expect((await api('/api/users/2', tok)).status).toBe(401);
    expect((await login('alice', ALICE_PW)).status).toBe(403);
  });

  test('hash, version and help', async () => {
    const h = await fd('hash', 'some-password-123');
    expect(h.stdout.trim()).toMatch(/^\$2b\$10\$.{53}$/);
    expect(await Bun.password.verify('some-password-123', h.stdout.trim())).toBe(true);
    expect((await fd('version')).stdout).toMatch(/^Filedeck v\d+\.\d+\.\d+/);
    for (const c of [[], ['users'], ['config'], ['rules'], ['cmds'], ['shares'], ['serve'], ['users', 'add']]) {
      const r = await cli([...c, '--help']);
      expect({ c, code: r.code }).toEqual({ c, code: 0 });
      expect(r.stdout).toContain('Usage: filedeck');
    }
    expect((await cli(['frobnicate'])).code).toBe(1);
  });
});
