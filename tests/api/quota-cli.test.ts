import { afterAll, beforeAll, expect, test } from 'bun:test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli } from '../helpers/binary';

// `filedeck users add|update --quota-bytes/--quota-files` and the Quota and Used columns of `users ls` (issue 35).
const dir = mkdtempSync(join(tmpdir(), 'filedeck-quota-cli-'));
const root = join(dir, 'files');
const fd = (...args: string[]) => cli(['-d', join(dir, 'db', 'filedeck.db'), '-r', root, ...args], { cwd: dir });

beforeAll(async () => {
  expect((await fd('config', 'init')).code).toBe(0);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('add and update set the quota; one measure given keeps the other; 0 and 0 removes it', async () => {
  const add = await fd('users', 'add', 'alice', 'alices-long-password-1', '--scope', '/alice', '--quota-bytes', '2G', '--json');
  expect(add.code).toBe(0);
  expect(JSON.parse(add.stdout).quota).toEqual({ bytes: 2_000_000_000, files: 0 });
  const files = await fd('users', 'update', 'alice', '--quota-files', '10', '--json');
  expect(JSON.parse(files.stdout).quota).toEqual({ bytes: 2_000_000_000, files: 10 });
  const off = await fd('users', 'update', 'alice', '--quota-bytes', '0', '--quota-files', '0', '--json');
  expect(JSON.parse(off.stdout).quota).toBeNull();
});

test('ls shows each user\'s quota and usage (trash and versions included), as a table and as --json', async () => {
  expect((await fd('users', 'update', 'alice', '--quota-bytes', '500k')).code).toBe(0);
  writeFileSync(join(root, 'alice', 'a.bin'), new Uint8Array(12_345));
  const table = await fd('users', 'ls');
  expect(table.stdout).toMatch(/Quota\s+Used/);
  expect(table.stdout).toMatch(/alice .*500 kB\s+12\.3 kB, 1 files/);
  const json = JSON.parse((await fd('users', 'ls', '--json')).stdout) as { username: string; usage: { bytes: number; files: number } }[];
  expect(json.find((u) => u.username === 'alice')!.usage).toMatchObject({ bytes: 12_345, files: 1 });
});

test('bad sizes are a message and exit 1, and change nothing', async () => {
  for (const bad of [['--quota-bytes', '12x'], ['--quota-bytes', '-1'], ['--quota-files', '1.5']]) {
    const r = await fd('users', 'update', 'alice', ...bad);
    expect([r.code, r.stderr]).toEqual([1, expect.stringContaining(bad[0]!)]);
  }
  expect(JSON.parse((await fd('users', 'find', 'alice', '--json')).stdout).quota).toEqual({ bytes: 500_000, files: 0 });
});
