import { afterEach, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { NO_SANDBOX, NOT_ALLOWED } from '../../server/services/runner/runner.service';
import { execWarning } from '../../server/services/runner/create-runner';
import { MASK_WALK_BOUND, RULES_TOO_WIDE } from '../../server/services/runner/rule-masks';
import { pageConfig } from '../../server/http/page-config';
import { runCommandSocket } from '../helpers/command-socket';
import { makeTestApp, type TestApp } from '../helpers/test-app';
import { settled } from '../helpers/settle';

// Commands and hooks see only the acting user's scope: real bubblewrap, real sockets on 127.0.0.1.
let t: TestApp | null = null;
const cleanup: (() => unknown)[] = [];
afterEach(async () => {
  for (const f of cleanup.splice(0)) await f();
  await t?.close();
  t = null;
});

const COMMANDS = ['cat', 'ls', 'sh', 'bash', 'test', 'wc'];

/** bob (/users/bob) and alice (/users/alice, holding a secret) on a server listening on 127.0.0.1. */
async function twoUsers(flags: Record<string, unknown> = {}) {
  const app = await makeTestApp({ enableExec: 'true', commandTimeout: '5s', ...flags });
  t = app;
  for (const u of ['bob', 'alice']) mkdirSync(join(app.root, 'users', u), { recursive: true });
  const secret = join(app.root, 'users', 'alice', 'secret.txt');
  writeFileSync(secret, 'alice only');
  writeFileSync(join(app.root, 'users', 'bob', 'mine.txt'), 'bob here');
  const bob = await app.userToken('bob', { execute: true, create: true }, { scope: '/users/bob', commands: COMMANDS });
  const server = app.app.listen({ hostname: '127.0.0.1', port: 0 });
  cleanup.push(() => server.stop());
  const port = server.server!.port!;
  const run = (line: string, token = bob) => runCommandSocket(port, '/', line, token);
  return { app, bob, secret, run, db: app.s.config.database };
}

describe('the command sandbox (bubblewrap)', () => {
  test('commands see their scope read-write and nothing of other users, the database or /etc/passwd', async () => {
    const { app, secret, run, db } = await twoUsers();
    expect(app.s.runner.mode).toBe('bubblewrap');
    const own = await run('cat mine.txt');
    expect([own.lines, own.exit, own.binary]).toEqual([['bob here'], 0, 0]);
    for (const line of ['cat ../alice/secret.txt', `cat ${secret}`, `cat ${db}`, `ls ${join(app.dir, 'db')}`, 'cat /etc/passwd', 'cat /proc/1/root/etc/hostname']) {
      const r = await run(line);
      expect({ line, exit: r.exit === 0, text: r.lines.join('\n').includes('alice only') }).toEqual({ line, exit: false, text: false });
      expect(r.binary).toBe(0);
    }
    // Above the scope only the empty folders leading to it exist (mount points): no database folder beside the root.
    expect((await run(`ls ${app.dir}`)).lines).toEqual(['files']);
    expect((await run(`ls ${join(app.root, 'users')}`)).lines).toEqual(['bob']);
    const made = await run(`sh -c 'echo written > made.txt'`);
    expect(made.exit).toBe(0);
    expect(readFileSync(join(app.root, 'users', 'bob', 'made.txt'), 'utf8')).toBe('written\n');
    // /tmp is private: the server's /tmp is not shown (only the path down to this test's scope, which lies in it).
    const tmp = await run('ls /tmp');
    expect(tmp.lines).toEqual([basename(app.dir)]);
  });

  test('no network unless the admin allows it', async () => {
    let connections = 0;
    const listener = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { open: () => void connections++, data() {} } });
    cleanup.push(() => listener.stop(true));
    const line = `bash -c 'echo hi > /dev/tcp/127.0.0.1/${listener.port}'`;
    const closed = await twoUsers();
    const refused = await closed.run(line);
    expect(refused.exit).not.toBe(0);
    expect(connections).toBe(0);
    for (const f of cleanup.splice(1)) await f();
    await t?.close();
    const open = await twoUsers({ execNetwork: 'true' });
    const reached = await open.run(line);
    expect(reached.exit).toBe(0);
    // The listener counts the connection on its own turn of the event loop, possibly after the command's exit.
    expect(await settled(() => connections, 1)).toBe(1);
  });

  test('hooks run in the same sandbox: the acting user\'s scope only', async () => {
    const { app, bob, secret, db } = await twoUsers();
    const check = `sh -c 'test ! -e ${secret} && test ! -e ${db} && test -e mine.txt && echo seen > hook-made.txt'`;
    await app.s.settings.update({ commands: { before_upload: [check], after_upload: [`cat ${secret}`] } }, ['commands']);
    const up = await app.req('POST', '/api/resources/new.txt', { token: bob, raw: 'x' });
    expect(up.status).toBe(200); // the before-hook saw neither alice's file nor the database, and saw bob's own
    expect(readFileSync(join(app.root, 'users', 'bob', 'hook-made.txt'), 'utf8')).toBe('seen\n');
    expect(existsSync(join(app.root, 'users', 'bob', 'new.txt'))).toBe(true);
  });

  test('server files inside a scope are masked: the database cannot be read', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'filedeck-sbx-'));
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    // A careless layout: the database inside the files root, which is the admin's scope.
    const app = await makeTestApp({ enableExec: 'true', root: dir, database: join(dir, 'filedeck.db') });
    t = app;
    const eve = await app.userToken('eve', { execute: true }, { scope: '/', commands: ['wc', 'sh'] });
    expect(statSync(join(dir, 'filedeck.db')).size).toBeGreaterThan(0);
    const server = app.app.listen({ hostname: '127.0.0.1', port: 0 });
    cleanup.push(() => server.stop());
    // Covered by a device node on a nodev mount: it cannot even be opened.
    const r = await runCommandSocket(server.server!.port!, '/', `sh -c 'wc -c < filedeck.db'`, eve);
    expect(r.exit).not.toBe(0);
    expect(r.lines.join('\n')).toContain('Permission denied');
    const wal = await runCommandSocket(server.server!.port!, '/', `wc -c filedeck.db-wal`, eve);
    expect(wal.exit).not.toBe(0);
  });
});

describe('without a usable sandbox', () => {
  test('commands are refused with a clear message and hooks do not run, unless the unsafe flag is set', async () => {
    const { app, bob, run } = await twoUsers({ bwrapPath: '/nonexistent/bwrap' });
    expect(app.s.runner.mode).toBe('off');
    expect(execWarning(app.s.config, app.s.runner)).toContain('OFF');
    expect(pageConfig(app.s.config, app.s.settings.get(), app.s.runner.mode).ExecSandbox).toBe('off');
    const r = await run('cat mine.txt');
    expect([r.lines, r.code]).toEqual([[NO_SANDBOX], 1008]);
    await app.s.settings.update({ commands: { before_upload: ['false'] } }, ['commands']);
    expect((await app.req('POST', '/api/resources/a.txt', { token: bob, raw: 'x' })).status).toBe(200);

    for (const f of cleanup.splice(0)) await f();
    await t?.close();
    const unsafe = await twoUsers({ bwrapPath: '/nonexistent/bwrap', execUnsafeNoSandbox: 'true' });
    expect(unsafe.app.s.runner.mode).toBe('none-unsafe');
    expect(execWarning(unsafe.app.s.config, unsafe.app.s.runner)).toContain('WITHOUT a sandbox');
    // Unconfined, as the settings screen warns: another user's file is readable.
    const leak = await unsafe.run(`cat ${unsafe.secret}`);
    expect([leak.lines, leak.exit]).toEqual([['alice only'], 0]);
    await unsafe.app.s.settings.update({ commands: { before_upload: ['false'] } }, ['commands']);
    expect((await unsafe.app.req('POST', '/api/resources/a.txt', { token: unsafe.bob, raw: 'x' })).status).toBe(403);
  });

  test('with exec disabled the reference\'s refusal text stays', async () => {
    const { app, run } = await twoUsers({ enableExec: 'false' });
    expect(app.s.runner.mode).toBe('off');
    expect(execWarning(app.s.config, app.s.runner)).toBeNull();
    expect((await run('ls')).lines).toEqual([NOT_ALLOWED]);
  });
});

describe('rules inside the sandbox (issue 32: the runner sees what the API lets the user see)', () => {
  /** bob, scope /users/bob, with `rules`; his scope holds a denied folder, a folder allowed again inside it, a link to it and key files. */
  async function ruled(rules: unknown[]) {
    const app = await makeTestApp({ enableExec: 'true', commandTimeout: '5s' });
    t = app;
    const home = join(app.root, 'users', 'bob');
    mkdirSync(join(home, 'private', 'open'), { recursive: true });
    mkdirSync(join(home, 'pub', 'deep'), { recursive: true });
    writeFileSync(join(home, 'private', 'secret.txt'), 'denied words');
    writeFileSync(join(home, 'private', 'open', 'o.txt'), 'open again');
    writeFileSync(join(home, 'pub', 'ok.txt'), 'fine');
    writeFileSync(join(home, 'pub', 'deep', 'id.key'), 'denied key');
    symlinkSync(join(home, 'private'), join(home, 'l'));
    const bob = await app.userToken('bob', { execute: true }, { scope: '/users/bob', commands: COMMANDS, rules });
    const server = app.app.listen({ hostname: '127.0.0.1', port: 0 });
    cleanup.push(() => server.stop());
    const port = server.server!.port!;
    return { app, bob, home, run: (line: string) => runCommandSocket(port, '/', line, bob) };
  }
  const shows = (r: { lines: string[] }, text: string) => r.lines.join('\n').includes(text);

  test('a path rule: the denied folder is empty in the sandbox, directly and through a link; what a later rule allows is there', async () => {
    const { app, bob, run } = await ruled([
      { allow: false, regex: false, path: '/private', regexp: null },
      { allow: true, regex: false, path: '/private/open', regexp: null },
    ]);
    expect(app.s.runner.mode).toBe('bubblewrap');
    // The API refuses it; the sandbox must not show it either.
    expect((await app.req('GET', '/api/raw/private/secret.txt', { token: bob })).status).toBe(403);
    for (const line of ['cat private/secret.txt', 'cat l/secret.txt', `sh -c 'cat private/*'`]) {
      const r = await run(line);
      expect({ line, exit: r.exit, leaked: shows(r, 'denied words') }).toEqual({ line, exit: 1, leaked: false });
    }
    expect((await run('ls private')).lines).toEqual(['open']);
    const again = await run('cat private/open/o.txt');
    expect([again.lines, again.exit]).toEqual([['open again'], 0]);
    const ok = await run('cat pub/ok.txt');
    expect([ok.lines, ok.exit]).toEqual([['fine'], 0]);
  });

  test('a regex rule is expanded by walking the scope: every matching file is masked', async () => {
    const { run } = await ruled([{ allow: false, regex: true, path: '', regexp: { raw: '\\.key$' } }]);
    const r = await run('cat pub/deep/id.key');
    expect(shows(r, 'denied key')).toBe(false);
    // Only what the regex names is masked.
    const ok = await run('cat pub/ok.txt private/secret.txt');
    expect([ok.lines, ok.exit]).toEqual([['finedenied words'], 0]);
  });

  test('a rule that allows a server file again never uncovers it: state files are masked after the rules', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'filedeck-sbx-'));
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    mkdirSync(join(dir, 'private'));
    const app = await makeTestApp({ enableExec: 'true', root: dir, database: join(dir, 'private', 'filedeck.db') });
    t = app;
    const rules = [
      { allow: false, regex: false, path: '/private', regexp: null },
      { allow: true, regex: false, path: '/private/filedeck.db', regexp: null },
    ];
    const eve = await app.userToken('eve', { execute: true }, { scope: '/', commands: ['wc', 'sh', 'ls'], rules });
    const server = app.app.listen({ hostname: '127.0.0.1', port: 0 });
    cleanup.push(() => server.stop());
    const r = await runCommandSocket(server.server!.port!, '/', `sh -c 'wc -c < private/filedeck.db'`, eve);
    expect(r.exit).not.toBe(0);
    expect(r.lines.join('\n')).toContain('Permission denied');
    // The denied folder shows only the file the rule allows (and the masked journal files' mount points).
    const shown = (await runCommandSocket(server.server!.port!, '/', 'ls private', eve)).lines;
    expect(shown.filter((n) => !/^filedeck\.db(-wal|-shm|-journal)?$/.test(n))).toEqual([]);
    expect(shown).toContain('filedeck.db');
  });

  test('regex rules over more than the sandbox may walk: commands are refused with a clear message', async () => {
    const { run } = await ruled([{ allow: false, regex: true, path: '', regexp: { raw: '\\.key$' } }]);
    const saved = { ...MASK_WALK_BOUND };
    MASK_WALK_BOUND.entries = 3; // the scope holds more entries than this
    try {
      const r = await run('cat pub/ok.txt');
      expect([r.lines, r.code]).toEqual([[RULES_TOO_WIDE], 1008]);
    } finally {
      Object.assign(MASK_WALK_BOUND, saved);
    }
  });
});
