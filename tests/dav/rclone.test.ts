import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { run, startDavServer, type DavServer, type DavUser } from './dav-fixture';

/**
 * Debian's rclone (no config file: the remote is given on the command line) syncs a 1,000-file tree with odd names
 * up and down through /dav/ as a user whose scope is /ruth and who has a deny rule on /secret. Nothing outside the
 * scope or under the rule is listed, readable or writable; the bytes are equal after the round trip, on the server's
 * disk and back on the client.
 */
const NAMES = ['plain', 'with space', 'ünïcödé ファイル', '100% done', '#hash tag', 'a%20b', 'emoji 🚀', 'semi;colon&amp', 'quote\'s', 'plus+eq='];

/** Writes `count` files under `dir` in nested folders; answers their relative paths. */
function makeTree(dir: string, count: number): string[] {
  const made: string[] = [];
  for (let i = 0; i < count; i++) {
    const folder = [NAMES[i % 7]!, `sub ${i % 5}`, ...(i % 3 === 0 ? [`deep #${i % 4} ü`] : [])].slice(0, 1 + (i % 3)).join('/');
    const rel = `${folder}/${NAMES[i % NAMES.length]} ${i}.${['txt', 'bin', 'md'][i % 3]}`;
    mkdirSync(join(dir, folder), { recursive: true });
    const bytes = Buffer.alloc(i % 50 === 0 ? 70_000 + i : (i * 37) % 4096);
    for (let b = 0; b < bytes.length; b++) bytes[b] = (b * 31 + i) & 0xff;
    writeFileSync(join(dir, rel), bytes);
    made.push(rel);
  }
  return made;
}

/** Relative path → sha256 of every file under `dir`. */
function hashes(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out.set(relative(dir, p).normalize('NFC'), createHash('sha256').update(readFileSync(p)).digest('hex'));
    }
  };
  if (existsSync(dir)) walk(dir);
  return out;
}

describe('rclone', () => {
  let srv: DavServer;
  let ruth: DavUser;
  let remote: string[] = [];
  let local = '';
  let files: string[] = [];
  const rclone = (...args: string[]) =>
    run(['rclone', ...args, ...remote, '--transfers', '8', '--checkers', '8', '--retries', '1', '--low-level-retries', '1'], { env: { RCLONE_CONFIG: join(srv.dir, 'no-rclone.conf') }, timeoutMs: 110_000 });
  /** What the outside and the denied folder hold on the disk, to compare before and after each attempt. */
  const guarded = () => [...hashes(join(srv.root, 'other')), ...hashes(join(srv.root, 'ruth', 'secret'))].sort().join('\n');

  beforeAll(async () => {
    srv = await startDavServer('rclone', { base: existsSync('/dev/shm') ? '/dev/shm' : undefined }); // tmpfs: 1,000 fsyncs cost nothing
    mkdirSync(join(srv.root, 'other'), { recursive: true });
    writeFileSync(join(srv.root, 'other', 'outside.txt'), 'not ruth\'s');
    mkdirSync(join(srv.root, 'ruth', 'secret'), { recursive: true });
    writeFileSync(join(srv.root, 'ruth', 'secret', 'hidden.txt'), 'denied by a rule');
    ruth = await srv.addUser('ruth', 'ruth-password-99812', '--scope', '/ruth');
    const rule = await srv.fd('rules', 'add', '--user', 'ruth', '/secret');
    expect(rule.code).toBe(0);
    const obscured = await run(['rclone', 'obscure', ruth.token]);
    remote = ['--webdav-url', srv.dav, '--webdav-user', ruth.username, '--webdav-pass', obscured.out.trim(), '--webdav-vendor', 'other'];
    local = join(srv.dir, 'local');
    files = makeTree(local, 1000);
  }, 60_000);
  afterAll(async () => {
    await srv?.stop();
  });

  test('1,000 files up and down: the same bytes on the server\'s disk and back on the client', async () => {
    const up = await rclone('sync', local, ':webdav:tree');
    expect(up.code, up.out).toBe(0);
    const want = hashes(local);
    expect(want.size).toBe(files.length);
    expect(hashes(join(srv.root, 'ruth', 'tree'))).toEqual(want);
    const down = await rclone('sync', ':webdav:tree', join(srv.dir, 'down'));
    expect(down.code, down.out).toBe(0);
    expect(hashes(join(srv.dir, 'down'))).toEqual(want);
    // rclone's own view agrees too (sizes from the listing; the bytes were compared above, both sides).
    const check = await rclone('check', local, ':webdav:tree', '--size-only');
    expect(check.code, check.out).toBe(0);
    // A second sync finds nothing to do (sizes and listing agree) and the tree is still whole.
    const again = await rclone('sync', local, ':webdav:tree', '-v');
    expect(again.code, again.out).toBe(0);
    expect(again.out).not.toMatch(/Copied \(new\)/);
  }, 120_000);

  test('nothing outside the scope or under the deny rule is listed or readable', async () => {
    const ls = await rclone('lsf', '-R', ':webdav:');
    expect(ls.code, ls.out).toBe(0);
    expect(ls.out).not.toMatch(/secret|hidden|outside|other/);
    expect((await rclone('cat', ':webdav:secret/hidden.txt')).code).not.toBe(0);
    const up = await rclone('lsf', ':webdav:../other');
    expect(up.out).not.toContain('outside.txt');
    expect((await rclone('cat', ':webdav:../other/outside.txt')).out).not.toContain('not ruth');
  }, 60_000);

  test('syncing into the denied folder or out of the scope is refused and writes nothing there', async () => {
    const before = guarded();
    const src = join(srv.dir, 'attempt');
    mkdirSync(join(src, 'secret'), { recursive: true });
    writeFileSync(join(src, 'secret', 'planted.txt'), 'planted');
    writeFileSync(join(src, 'top.txt'), 'allowed');
    expect((await rclone('sync', join(src, 'secret'), ':webdav:secret')).code).not.toBe(0);
    expect((await rclone('copyto', join(src, 'top.txt'), ':webdav:secret/hidden.txt')).code).not.toBe(0);
    expect((await rclone('mkdir', ':webdav:secret/newdir')).code).not.toBe(0);
    expect((await rclone('deletefile', ':webdav:secret/hidden.txt')).code).not.toBe(0);
    expect((await rclone('purge', ':webdav:secret')).code).not.toBe(0);
    // A copy of a tree holding a "secret" folder to the scope's root: the allowed part lands, the denied part does not.
    const mixed = await rclone('copy', src, ':webdav:');
    expect(mixed.code).not.toBe(0);
    expect(readFileSync(join(srv.root, 'ruth', 'top.txt'), 'utf8')).toBe('allowed');
    // Dot-dot in the remote path: rclone may clean it into the scope; nothing may land outside it.
    await rclone('copyto', join(src, 'top.txt'), ':webdav:../other/planted.txt');
    await rclone('copyto', join(src, 'top.txt'), ':webdav:/../../other/planted.txt');
    expect(guarded()).toBe(before);
    expect(existsSync(join(srv.root, 'other', 'planted.txt'))).toBe(false);
    expect(statSync(join(srv.root, 'ruth', 'secret', 'hidden.txt')).size).toBe('denied by a rule'.length);
  }, 120_000);
});
