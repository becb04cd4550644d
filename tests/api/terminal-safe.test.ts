/**
 * Terminal-safe output (issue 32, item 11): what an anonymous visitor or a user chose never reaches the admin's
 * terminal raw. Failed-login names are recorded escaped (audit.service.ts triedName), usernames with control or bidi
 * characters are refused (user-validation.ts checkUsername), and every CLI table and printer escapes what it shows
 * (cmd/table.ts terminalText, table, terminalJson), for rows written before these rules too. The CLI runs as a
 * real process (the compiled binary with FILEDECK_BIN).
 */
import { afterEach, describe, expect, test } from 'bun:test';
import { cli } from '../helpers/binary';
import { listen, type Live } from '../helpers/transfer-fixture';
import { makeTestApp, type TestApp } from '../helpers/test-app';
import { CLI_WHO } from '../../server/services/audit/audit.service';

let t: TestApp;
let live: Live | null = null;
afterEach(async () => {
  await live?.stop();
  live = null;
  await t?.close();
});

/** Anything a terminal acts on: C0 but the line break, DEL, C1, the separators and the bidi controls. */
const RAW = /[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
const fd = (...args: string[]) => cli(['-d', t.database, '-r', t.root, ...args], { cwd: t.dir });

describe('terminal-safe output', () => {
  test('a failed login named "\\x1b[2K\\rforged" is shown by `filedeck audit ls` escaped, never raw', async () => {
    t = await makeTestApp();
    live = listen(t);
    const r = await fetch(`${live.url}/api/login`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ username: '\x1b[2K\rforged\u202e\u009b31m', password: 'nope' }) });
    expect(r.status).toBe(403);
    const out = await fd('audit', 'ls', '--action', 'login');
    expect(out.code).toBe(0);
    expect(out.stdout).not.toMatch(RAW);
    expect(out.stdout).toContain('\\x1b[2K\\x0dforged\\u202e\\x9b31m');
    // The stored entry is already escaped: the web app and --json show the same harmless text.
    const stored = (await t.s.audit.list({ action: 'login', limit: 5 })).entries.find((e) => e.outcome === 'failed')!;
    expect(stored.target).toBe('\\x1b[2K\\x0dforged\\u202e\\x9b31m');
  });

  test('rows holding raw control characters (older rows, file paths) are escaped in every table and in --json', async () => {
    t = await makeTestApp();
    const evil = 'a\x1b]0;owned\x07\r\nb\u202ec\u009bd\x7f';
    // An entry whose target came from a file name (file names may hold any byte but "/").
    await t.s.audit.record(CLI_WHO, 'file.delete', `/docs/${evil}.txt`);
    // A username stored before the rule (an old database, an import): written straight into the row.
    await t.s.db.run('UPDATE users SET username = ? WHERE id = 1', `admin${evil}`);
    const audit = await fd('audit', 'ls');
    expect(audit.code).toBe(0);
    expect(audit.stdout).not.toMatch(RAW);
    expect(audit.stdout).toContain('/docs/a\\x1b]0;owned\\x07\\x0d\\x0ab\\u202ec\\x9bd\\x7f.txt');
    // One line per entry: a line break in a cell cannot start a forged row.
    expect(audit.stdout.split('\n').filter((l) => l.includes('owned')).length).toBe(1);
    const users = await fd('users', 'ls');
    expect(users.code).toBe(0);
    expect(users.stdout).not.toMatch(RAW);
    expect(users.stdout).toContain('admina\\x1b]0;owned');
    // --json: the same values for a parser, with nothing raw for a terminal.
    const json = await fd('--json', 'audit', 'ls');
    expect(json.code).toBe(0);
    expect(json.stdout).not.toMatch(RAW);
    const parsed = JSON.parse(json.stdout) as { entries: { target: string }[] };
    expect(parsed.entries.some((e) => e.target === `/docs/${evil}.txt`)).toBe(true);
    // An error naming what was typed is escaped too.
    const missing = await fd('users', 'rm', `ghost\x1b[2J`);
    expect(missing.code).toBe(1);
    expect(missing.stderr).not.toMatch(RAW);
  });

  test('usernames with control or bidi characters are refused wherever a user is made or renamed', async () => {
    t = await makeTestApp();
    const admin = await t.adminToken();
    for (const [i, name] of ['eve\x1b[2K', 'e\rve', 'eve\u009b', 'eve\u202egnp', 'eve\u2066', 'eve\x7f'].entries()) {
      const made = await t.s.users.create({ username: name, password: 'a-long-enough-password-1' }).then(() => 'ok', (e) => e.code);
      expect([JSON.stringify(name), made]).toEqual([JSON.stringify(name), 'INVALID']);
      if (i > 1) continue; // over HTTP too (a few: the admin's current password is asked, and its tries are limited)
      const posted = await t.req('POST', '/api/users', { token: admin, body: { what: 'user', which: [], current_password: 'correct-horse-admin-7731', data: { username: name, password: 'a-long-enough-password-1', perm: {} } } });
      expect([JSON.stringify(name), posted.status]).toEqual([JSON.stringify(name), 400]);
      const renamed = await t.req('PUT', '/api/users/1', { token: admin, body: { what: 'user', which: ['username'], current_password: 'correct-horse-admin-7731', data: { id: 1, username: name } } });
      expect([JSON.stringify(name), renamed.status]).toEqual([JSON.stringify(name), 400]);
    }
    const viaCli = await fd('users', 'add', 'eve\x1b[2K', 'a-long-enough-password-1');
    expect(viaCli.code).toBe(1);
    expect(viaCli.stderr).not.toMatch(RAW);
    expect((await t.s.users.list()).map((u) => u.username)).toEqual(['admin']);
  });
});
