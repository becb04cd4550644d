import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli, startServer, type RunningServer } from '../helpers/binary';

// The trash verbs run against the database of a server that is running at the same time.
const dir = mkdtempSync(join(tmpdir(), 'filedeck-trash-cli-'));
const db = join(dir, 'db', 'filedeck.db');
const root = join(dir, 'files');
const ADMIN_PW = 'cli-admin-password-2291';
const BOB_PW = 'bobs-long-password-4410';
let server: RunningServer;
let bob = '';

const fd = (...args: string[]) => cli(['-d', db, '-r', root, ...args], { cwd: dir });
const del = (path: string) => fetch(`${server.url}/api/resources${path}`, { method: 'DELETE', headers: { 'X-Auth': bob } });

beforeAll(async () => {
  server = await startServer(['-d', db, '-r', root, '--password', ADMIN_PW, '--log', ''], { cwd: dir });
  expect((await fd('users', 'add', 'bob', BOB_PW, '--scope', '/bob')).code).toBe(0);
  const r = await fetch(`${server.url}/api/login`, { method: 'POST', body: JSON.stringify({ username: 'bob', password: BOB_PW }) });
  bob = await r.text();
}, 60_000);
afterAll(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('filedeck trash', () => {
  test('the server made the trash folder at start, private', () => {
    expect(statSync(join(root, '.filedeck-trash')).mode & 0o777).toBe(0o700);
  });

  test('ls, restore (with a clash), rm and empty with --older-than and --user', async () => {
    mkdirSync(join(root, 'bob/docs'), { recursive: true });
    writeFileSync(join(root, 'bob/docs/a.txt'), 'alpha');
    writeFileSync(join(root, 'bob/b.txt'), 'beta');
    writeFileSync(join(root, 'bob/c.txt'), 'gamma');
    const a = (await del('/docs/a.txt')).headers.get('x-trash-id')!;
    const b = (await del('/b.txt')).headers.get('x-trash-id')!;
    await del('/c.txt');

    const ls = await fd('trash', 'ls');
    expect(ls.code).toBe(0);
    expect(ls.stdout).toMatch(/ID\s+Owner\s+Original path/);
    expect(ls.stdout).toContain('/docs/a.txt');
    const json = JSON.parse((await fd('trash', 'ls', '--user', 'bob', '--json')).stdout);
    expect(json.map((i: { id: string }) => i.id)).toContain(a);
    expect((await fd('trash', 'ls', '--user', 'nobody')).code).toBe(1);

    writeFileSync(join(root, 'bob/docs/a.txt'), 'taken');
    const clash = await fd('trash', 'restore', a);
    expect(clash.code).toBe(1);
    expect(clash.stderr).toContain('exists');
    expect((await fd('trash', 'restore', a, '--conflict', 'sideways')).code).toBe(1);
    const ok = await fd('trash', 'restore', a, '--conflict', 'rename', '--json');
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout)).toEqual({ id: a, path: '/docs/a(1).txt' });
    expect(readFileSync(join(root, 'bob/docs/a(1).txt'), 'utf8')).toBe('alpha');

    expect((await fd('trash', 'rm', b)).code).toBe(0);
    expect(existsSync(join(root, '.filedeck-trash/2', b))).toBe(false);
    expect((await fd('trash', 'rm', b)).code).toBe(1);

    expect((await fd('trash', 'empty', '--older-than', 'a while')).code).toBe(1);
    expect(JSON.parse((await fd('trash', 'empty', '--older-than', '7d', '--json')).stdout)).toEqual({ deleted: 0 });
    const emptied = await fd('trash', 'empty', '--user', 'bob');
    expect(emptied.code).toBe(0);
    expect(emptied.stdout).toContain('1 item(s) deleted for good');
    expect((await fd('trash', 'ls', '--json')).stdout.trim()).toBe('[]');
    // The running server sees the same trash.
    const r = await fetch(`${server.url}/api/trash`, { headers: { 'X-Auth': bob } });
    expect((await r.json()).items).toEqual([]);
  }, 60_000);

  test('users rm --trash-to hands the deleted user\'s trash to an admin; without it the trash goes with the user', async () => {
    for (const name of ['carol', 'dave']) {
      expect((await fd('users', 'add', name, BOB_PW, '--scope', `/${name}`)).code).toBe(0);
      writeFileSync(join(root, name, 'x.txt'), name);
      const token = await (await fetch(`${server.url}/api/login`, { method: 'POST', body: JSON.stringify({ username: name, password: BOB_PW }) })).text();
      expect((await fetch(`${server.url}/api/resources/x.txt`, { method: 'DELETE', headers: { 'X-Auth': token } })).status).toBe(204);
    }
    const ids = (user: string) => fd('trash', 'ls', '--user', user, '--json').then((r) => JSON.parse(r.stdout).map((i: { id: string }) => i.id) as string[]);
    const [carols, daves] = [await ids('carol'), await ids('dave')];
    expect((await fd('users', 'rm', 'carol', '--trash-to', 'nobody')).code).toBe(1);
    const handed = await fd('users', 'rm', 'carol', '--trash-to', 'admin');
    expect(handed.code).toBe(0);
    expect(handed.stdout).toContain('their trash now belongs to admin');
    expect(await ids('admin')).toEqual(carols);
    const daveId = JSON.parse((await fd('users', 'ls', '--json')).stdout).find((u: { username: string }) => u.username === 'dave').id;
    expect((await fd('users', 'rm', 'dave')).code).toBe(0);
    expect(existsSync(join(root, '.filedeck-trash', String(daveId), daves[0]!))).toBe(false);
    expect(JSON.parse((await fd('trash', 'ls', '--json')).stdout).map((i: { id: string }) => i.id)).toEqual(carols);
    // The purge leaves a slot no row claims while it is young (a delete writes its row a moment after the move).
    const young = join(root, '.filedeck-trash', '77', '0b7e2a36-2d4f-4a5e-9c1f-3f6f9d2b8a11');
    mkdirSync(young, { recursive: true });
    writeFileSync(join(young, 'f.txt'), 'x');
    expect(JSON.parse((await fd('trash', 'purge', '--json')).stdout)).toEqual({ deleted: 0 });
    expect(existsSync(join(young, 'f.txt'))).toBe(true);
  }, 60_000);
});
