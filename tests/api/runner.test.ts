import { afterEach, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { splitCommandLine } from '../../server/services/runner/command-line';
import { ADMIN_PASSWORD, makeTestApp, type TestApp } from '../helpers/test-app';

let t: TestApp;
let stop: (() => Promise<void>) | null = null;
afterEach(async () => {
  await stop?.();
  stop = null;
  t?.close();
});

interface Run {
  lines: string[];
  exit: number | null;
  code: number;
  reason: string;
  /** Frames that were not text: the runner must send none. */
  binary: number;
}

/** What our web app does: the close code states the exit (1000 = 0, 4000+N = N); a failure's last line says it too. */
function settle(out: Run): Run {
  out.exit = out.code === 1000 ? 0 : out.code >= 4000 && out.code < 5000 ? out.code - 4000 : null;
  if (out.exit) {
    expect(out.lines[out.lines.length - 1]).toBe(`exit status ${out.exit}`);
    out.lines.pop();
  }
  return out;
}

/** Opens the command socket on a real loopback server, sends one line, collects everything until close. */
async function start(flags: Record<string, unknown> = { enableExec: 'true', commandTimeout: '2s' }) {
  t = await makeTestApp(flags);
  mkdirSync(join(t.root, 'work'), { recursive: true });
  writeFileSync(join(t.root, 'work', 'hello.txt'), 'hi');
  const server = t.app.listen({ hostname: '127.0.0.1', port: 0 });
  stop = async () => {
    await server.stop();
  };
  const port = server.server!.port;
  const run = (line: string, opts: { token?: string; path?: string; origin?: string; closeAfterMs?: number; cookie?: boolean } = {}) =>
    new Promise<Run>((resolve) => {
      const query = opts.token && !opts.cookie ? `?auth=${opts.token}` : '';
      const url = `ws://127.0.0.1:${port}/api/command${opts.path ?? '/work'}${query}`;
      const headers: Record<string, string> = {};
      if (opts.origin) headers.Origin = opts.origin;
      if (opts.cookie && opts.token) headers.Cookie = `auth=${opts.token}`;
      const ws = new WebSocket(url, { headers } as never);
      ws.binaryType = 'arraybuffer';
      const out: Run = { lines: [], exit: null, code: 0, reason: '', binary: 0 };
      ws.onopen = () => {
        ws.send(line);
        if (opts.closeAfterMs) setTimeout(() => ws.close(), opts.closeAfterMs);
      };
      ws.onmessage = (e) => {
        if (typeof e.data === 'string') out.lines.push(e.data);
        else out.binary++;
      };
      ws.onclose = (e) => {
        out.code = e.code;
        out.reason = e.reason;
        resolve(settle(out));
      };
    });
  return { run, port };
}

async function allow(commands: string[], perm: Record<string, boolean> = {}) {
  const token = await t.userToken('bob', { execute: true, ...perm }, { commands });
  return token;
}

describe('command runner', () => {
  test('an allowed command streams its output lines and reports the exit code before closing', async () => {
    const { run } = await start();
    const token = await allow(['ls', 'sh']);
    const r = await run('ls -1', { token });
    expect(r.lines).toEqual(['hello.txt']);
    expect([r.exit, r.code, r.binary]).toEqual([0, 1000, 0]);
    const fail = await run('ls does-not-exist', { token });
    expect(fail.exit).not.toBe(0);
    expect(fail.code).toBe(4000 + fail.exit!);
    expect(fail.lines.join('\n')).toContain('does-not-exist');
    const three = await run(`sh -c 'echo out; exit 3'`, { token });
    expect([three.lines, three.exit, three.code, three.binary]).toEqual([['out'], 3, 4003, 0]);
  });

  test('the audit names the client\u2019s address for a command, recorded after the upgrade request ended', async () => {
    const { run, port } = await start();
    const token = await allow(['ls']);
    expect((await run('ls -1', { token })).exit).toBe(0);
    // A write over the same loopback server is recorded with the address too.
    const admin = await t.adminToken();
    expect((await fetch(`http://127.0.0.1:${port}/api/share/work/hello.txt`, { method: 'POST', headers: { 'X-Auth': admin }, body: '{}' })).status).toBe(200);
    const r = await t.req('GET', '/api/audit', { token: admin });
    const entries = ((await r.json()) as { entries: { action: string; address: string }[] }).entries;
    expect(entries.find((e) => e.action === 'command.run')?.address).toBe('127.0.0.1');
    expect(entries.find((e) => e.action === 'share.create')?.address).toBe('127.0.0.1');
  });

  test('the web app authenticates with the auth cookie, with no token in the URL', async () => {
    const { run } = await start();
    const token = await allow(['ls']);
    const r = await run('ls -1', { token, cookie: true });
    expect([r.lines, r.exit]).toEqual([['hello.txt'], 0]);
    const forged = await run('ls -1', { token: token.slice(0, -3) + 'AAA', cookie: true });
    expect(forged.lines).toEqual([]);
    expect(forged.code).not.toBe(1000);
  });

  test('stdout and stderr arrive as they are printed, line by line', async () => {
    const { run } = await start();
    const token = await allow(['sh']);
    const r = await run(`sh -c 'echo one; echo two >&2; printf "no newline"'`, { token });
    expect(r.lines.sort()).toEqual(['no newline', 'one', 'two']);
    expect(r.exit).toBe(0);
  });

  test('disallowed, prefix-matched and unknown commands get the same refusal', async () => {
    const { run } = await start();
    const token = await allow(['ls']);
    for (const line of ['lsx', 'rm -rf /', 'l', '/bin/ls', 'not-a-binary-anywhere', '"ls"x']) {
      const r = await run(line, { token });
      expect({ line, lines: r.lines, code: r.code, exit: r.exit }).toEqual({ line, lines: ['Command not allowed.'], code: 1008, exit: null });
    }
  });

  test('shell metacharacters reach no shell in argv mode', async () => {
    const { run } = await start();
    const token = await allow(['echo', 'ls']);
    const marker = join(t.root, 'work', 'pwned');
    for (const line of [`echo a; touch ${marker}`, `echo a && touch ${marker}`, `echo a | touch ${marker}`, `echo $(touch ${marker})`, `echo \`touch ${marker}\``, `ls; touch ${marker}`]) {
      const r = await run(line, { token });
      // either echo printed the text literally, or the first word ("ls;") is not an allowed command
      expect(r.exit === 0 || r.lines[0] === 'Command not allowed.').toBe(true);
      expect(existsSync(marker)).toBe(false);
    }
    const r = await run(`echo a; id $(whoami)`, { token });
    expect(r.lines).toEqual(['a; id $(whoami)']);
  });

  test('exec disabled, no execute permission, or an empty command list: refused', async () => {
    const off = await start({ enableExec: 'false' });
    const tok = await allow(['ls']);
    expect((await off.run('ls', { token: tok })).lines).toEqual(['Command not allowed.']);
    await stop?.();
    t.close();
    const on = await start();
    const noexec = await t.userToken('carol', { execute: false }, { commands: ['ls'] });
    expect((await on.run('ls', { token: noexec })).lines).toEqual(['Command not allowed.']);
    const empty = await t.userToken('dave', { execute: true }, { commands: [] });
    expect((await on.run('ls', { token: empty })).lines).toEqual(['Command not allowed.']);
  });

  test('the socket needs a valid token and a same-host Origin', async () => {
    const { run, port } = await start();
    const token = await allow(['ls']);
    const anon = await run('ls');
    expect(anon.lines).toEqual([]);
    expect(anon.code).not.toBe(1000);
    const cross = await run('ls', { token, origin: 'http://evil.example' });
    expect(cross.lines).toEqual(['Cross-origin requests are not allowed.']);
    const same = await run('ls -1', { token, origin: `http://127.0.0.1:${port}` });
    expect(same.lines).toEqual(['hello.txt']);
  });

  test('the time limit kills a sleep, and closing the socket kills the command', async () => {
    const { run } = await start();
    const token = await allow(['sleep', 'sh']);
    const t0 = Date.now();
    const r = await run('sleep 30', { token });
    expect(r.exit).toBe(124);
    expect(r.lines.join('\n')).toContain('time limit');
    expect(Date.now() - t0).toBeLessThan(20_000);
    const marker = join(t.root, 'work', 'late');
    await run(`sh -c 'sleep 1.5; touch ${marker}'`, { token, closeAfterMs: 300 });
    await Bun.sleep(2500);
    expect(existsSync(marker)).toBe(false); // the whole process group died with the socket
    // The 2 s limit, a 300 ms socket and a 2.5 s wait are ~5 s on their own: the default 5 s budget failed on a
    // loaded machine.
  }, 20_000);

  test('commands run in the scoped folder with a scrubbed environment', async () => {
    const { run } = await start();
    const token = await allow(['sh', 'env']);
    const env = await run('env', { token });
    const names = env.lines.map((l) => l.split('=')[0]).sort();
    expect(names).toEqual(['HOME', 'LANG', 'LC_ALL', 'PATH', 'PWD', 'TERM']); // PWD: set by the sandbox's chdir
    const pwd = await run(`sh -c pwd`, { token });
    expect(pwd.lines[0]!.endsWith('/work')).toBe(true);
    const out = await run('ls', { token, path: '/../..' });
    expect(out.code).not.toBe(1000);
  });
});

describe('command-line splitting', () => {
  test('quotes and escapes, no shell semantics', () => {
    expect(splitCommandLine(`a 'b c' "d \\"e\\"" f\\ g ;&&|`)).toEqual(['a', 'b c', 'd "e"', 'f g', ';&&|']);
    expect(() => splitCommandLine(`a 'b`)).toThrow();
  });
});

describe('event hooks', () => {
  async function withHooks(commands: Record<string, string[]>) {
    t = await makeTestApp({ enableExec: 'true', commandTimeout: '2s' });
    (await t.s.settings.update({ commands }, ['commands']));
    mkdirSync(join(t.root, 'in'), { recursive: true });
    return t.adminToken();
  }

  test('hooks receive FILE, SCOPE, TRIGGER, USERNAME and DESTINATION as environment variables', async () => {
    // Written in the admin's scope (the whole root; hooks start there and see nothing else).
    const token = await withHooks({ after_upload: [`sh -c 'printf "%s|%s|%s|%s|%s\\n" "$TRIGGER" "$USERNAME" "$SCOPE" "$FILE" "$DESTINATION" >> hook.log'`] });
    expect((await t.req('POST', '/api/resources/in/a.txt', { token, raw: 'x' })).status).toBe(200);
    const line = readFileSync(join(t.root, 'hook.log'), 'utf8').trim().split('|');
    expect(line.slice(0, 3)).toEqual(['after_upload', 'admin', '/']);
    expect(line[3]!.endsWith('/in/a.txt')).toBe(true);
  });

  test('a file name full of shell syntax executes nothing', async () => {
    // Hooks start in the scope root (here the whole files root): a relative path lands there.
    const token = await withHooks({ before_upload: ['true'], after_upload: [`sh -c 'echo "$FILE" > seen-dir/seen'`, 'echo $FILE'] });
    const dir = join(t.root, 'seen-dir');
    mkdirSync(dir);
    const name = 'a; touch pwned $(touch pwned2) `touch pwned3`.txt';
    const r = await t.req('POST', `/api/resources/in/${encodeURIComponent(name)}`, { token, raw: 'x' });
    expect(r.status).toBe(200);
    expect(readFileSync(join(dir, 'seen'), 'utf8').trim().endsWith(name)).toBe(true);
    const everywhere = [...readdirSync(join(t.root, 'in')), ...readdirSync(t.root), ...readdirSync(dir)];
    expect(everywhere.filter((n) => n.startsWith('pwned'))).toEqual([]);
  });

  test('a failing before-hook aborts the operation with a clear error and changes nothing', async () => {
    const token = await withHooks({ before_delete: ['false'], before_upload: ['sh -c "exit 3"'] });
    writeFileSync(join(t.root, 'in', 'keep.txt'), 'keep');
    const del = await t.req('DELETE', '/api/resources/in/keep.txt', { token });
    expect(del.status).toBe(403);
    expect(await del.text()).toContain('before_delete');
    expect(existsSync(join(t.root, 'in', 'keep.txt'))).toBe(true);
    const up = await t.req('POST', '/api/resources/in/new.txt', { token, raw: 'x' });
    expect(up.status).toBe(403);
    expect(existsSync(join(t.root, 'in', 'new.txt'))).toBe(false);
  });

  test('hooks share the time limit, and do nothing when exec is disabled', async () => {
    const token = await withHooks({ before_save: ['sleep 30'] });
    writeFileSync(join(t.root, 'in', 's.txt'), 'old');
    const t0 = Date.now();
    const r = await t.req('PUT', '/api/resources/in/s.txt', { token, raw: 'new' });
    expect(r.status).toBe(403);
    expect(Date.now() - t0).toBeLessThan(20_000);
    expect(readFileSync(join(t.root, 'in', 's.txt'), 'utf8')).toBe('old');
    t.close();
    t = await makeTestApp({ enableExec: 'false' });
    (await t.s.settings.update({ commands: { before_upload: ['false'] } }, ['commands']));
    expect((await t.req('POST', '/api/resources/x.txt', { token: await t.login('admin', ADMIN_PASSWORD), raw: 'x' })).status).toBe(200);
  });
});
