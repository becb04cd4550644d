import { afterAll, describe, expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { filedeckCommand, startServer } from '../helpers/binary';

// `serve` executes itself again with MIMALLOC_PURGE_HOLES=0 unless the operator set it (cmd/allocator.ts): the same
// process, arguments byte for byte, environment plus the setting, and a server that stops cleanly on SIGTERM.
const dir = mkdtempSync(join(tmpdir(), 'filedeck-alloc-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const envOf = (pid: number) => readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0').filter(Boolean);
const inherited = () => Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== 'MIMALLOC_PURGE_HOLES')) as Record<string, string>;

describe.skipIf(process.platform !== 'linux')('allocator setting', () => {
  test('set when absent: same process and arguments (an empty one, a non-ASCII one), the rest of the environment kept', async () => {
    const root = join(dir, 'filés-ü');
    mkdirSync(root);
    writeFileSync(join(root, 'a.txt'), 'x');
    const args = ['-d', join(dir, 'one.db'), '-r', root, '--password', 'allocator-test-password-1', '--log', ''];
    const s = await startServer(args, { env: { ...inherited(), FILEDECK_ALLOC_PROBE: 'kept' } });
    try {
      const pid = s.proc.pid;
      const env = envOf(pid);
      expect(env.filter((e) => e.startsWith('MIMALLOC_PURGE_HOLES='))).toEqual(['MIMALLOC_PURGE_HOLES=0']);
      expect(env).toContain('FILEDECK_ALLOC_PROBE=kept');
      const sent = Buffer.from(`${[...filedeckCommand(), 'serve', '--port', '0', ...args].join('\0')}\0`);
      expect(readFileSync(`/proc/${pid}/cmdline`).equals(sent)).toBe(true);
      // Executed by its path, so the process keeps its name (ps, top, pkill), not "exe".
      expect(readFileSync(`/proc/${pid}/comm`, 'utf8').trim()).toBe(basename(realpathSync(filedeckCommand()[0]!)).slice(0, 15));
      const token = await (await fetch(`${s.url}/api/login`, { method: 'POST', body: JSON.stringify({ username: 'admin', password: 'allocator-test-password-1' }) })).text();
      const list = await (await fetch(`${s.url}/api/resources/`, { headers: { 'X-Auth': token } })).json();
      expect(list.items.map((i: { name: string }) => i.name)).toEqual(['a.txt']);
    } finally {
      s.proc.kill('SIGTERM');
      expect(await s.proc.exited).toBe(0);
    }
    expect(s.output()).not.toContain('error');
  });

  test("the operator's value is kept", async () => {
    const s = await startServer(['-d', join(dir, 'two.db'), '-r', dir, '--password', 'allocator-test-password-1', '--log', ''], { env: { ...inherited(), MIMALLOC_PURGE_HOLES: '1' } });
    try {
      expect(envOf(s.proc.pid).filter((e) => e.startsWith('MIMALLOC_PURGE_HOLES='))).toEqual(['MIMALLOC_PURGE_HOLES=1']);
    } finally {
      await s.stop();
    }
  });
});
