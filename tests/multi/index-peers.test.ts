import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { filedeckCommand, startServer, type RunningServer } from '../helpers/binary';
import { postgresAvailable, startPostgres, type PgCluster } from '../helpers/postgres';
import { isIndexPath, MAX_NOTICE_BYTES, noticeFor } from '../../server/services/index/index-peers';

// Issue 39 item 7: two instances on one PostgreSQL database, each with its own cache and index folders (as two
// machines have), the second reaching the shared files root through a FUSE mount (Debian's bindfs), where the
// kernel raises no inotify event for what the first writes. Each instance's writes reach the other's index through
// PostgreSQL (services/index/index-peers.ts): an upload through either is found by a search through the other within
// 2 s, a delete is gone as fast, and their folder sizes agree. A write made by neither instance is found by the
// second one's periodic sweep (indexPoll).

const fuse = existsSync('/dev/fuse') && Bun.which('bindfs') !== null && Bun.which('fusermount') !== null;
const missing = !postgresAvailable() ? 'PostgreSQL is not installed (Debian package postgresql)' : !fuse ? 'bindfs or /dev/fuse is missing (Debian package bindfs)' : null;
if (missing) console.log(`shared index scenario skipped: ${missing}`);

const ADMIN = 'index-peers-admin-password-7302';
const WITHIN_MS = 2000;
/**
 * The sweep's period: long enough that the 2 s checks are met by the notices, not by a sweep that happened to run
 * (without notices most of them fail), short enough for the last test to wait for one.
 */
const SWEEP_S = 10;
let pg: PgCluster;
let dir: string, root: string, mount: string;
let a: RunningServer, b: RunningServer;
let token: string;

beforeAll(async () => {
  if (missing) return;
  pg = await startPostgres();
  dir = mkdtempSync(join(tmpdir(), 'filedeck-peers-'));
  root = join(dir, 'files');
  mount = join(dir, 'fuse');
  mkdirSync(join(root, 'docs'), { recursive: true });
  mkdirSync(mount);
  writeFileSync(join(root, 'docs', 'hello.txt'), 'hello from the shared root');
  const fused = Bun.spawnSync(['bindfs', root, mount]);
  if (fused.exitCode !== 0) throw new Error(`bindfs failed: ${fused.stderr.toString()}`);
  const args = (name: string, at: string) => ['-d', pg.url, '-r', at, '--cacheDir', join(dir, `cache-${name}`), '--indexDir', join(dir, `index-${name}`), '--indexPoll', `${SWEEP_S}s`, '--log', '', '--username', 'admin', '--password', ADMIN];
  // The first start migrates and makes the admin (and the root's marker); the second meets both ready.
  a = await startServer(args('a', root), { cwd: dir, cmd: filedeckCommand() });
  b = await startServer(args('b', mount), { cwd: dir, cmd: filedeckCommand() });
  const r = await fetch(`${a.url}/api/login`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ username: 'admin', password: ADMIN }) });
  expect(r.status).toBe(200);
  token = await r.text();
  for (const s of [a, b]) await indexReady(s.url);
}, 90_000);

afterAll(async () => {
  if (missing) return;
  await a?.stop();
  await b?.stop();
  Bun.spawnSync(['fusermount', '-u', mount]);
  pg?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const req = (base: string, method: string, path: string, body?: BodyInit) => fetch(base + path, { method, headers: { 'X-Auth': token }, body });

/** Waits until the instance searches from its index (not by walking). */
async function indexReady(base: string): Promise<void> {
  const end = Date.now() + 30_000;
  for (;;) {
    const r = await req(base, 'GET', '/api/search/?query=hello');
    await r.text();
    if (r.headers.get('x-search-source') === 'index') return;
    if (Date.now() > end) throw new Error(`${base}: the index did not get ready`);
    await Bun.sleep(100);
  }
}

/** Paths a search through `base` finds for `query`. */
async function found(base: string, query: string): Promise<string[]> {
  const r = await req(base, 'GET', `/api/search/?query=${encodeURIComponent(query)}`);
  expect(r.status).toBe(200);
  return (await r.text()).split('\n').filter(Boolean).map((l) => (JSON.parse(l) as { path: string }).path);
}

/** Milliseconds until `check` holds, polled every 50 ms; fails past `ms` with what was seen last. */
async function until(ms: number, what: string, check: () => Promise<boolean>): Promise<number> {
  const start = Date.now();
  for (;;) {
    if (await check()) return Date.now() - start;
    if (Date.now() - start > ms) throw new Error(`${what}: not within ${ms} ms`);
    await Bun.sleep(50);
  }
}

/** The folder sizes a listing of the root shows through `base`, by name. */
async function sizes(base: string): Promise<Record<string, number | undefined>> {
  const r = await req(base, 'GET', '/api/resources/');
  expect(r.status).toBe(200);
  const body = (await r.json()) as { items: { name: string; isDir: boolean; folderSize?: number }[] };
  return Object.fromEntries(body.items.filter((i) => i.isDir).map((i) => [i.name, i.folderSize]));
}

const sameSizes = async () => JSON.stringify(await sizes(a.url)) === JSON.stringify(await sizes(b.url));

describe.skipIf(!!missing)('two instances, each with its own index, one through a FUSE mount', () => {
  test('an upload through either instance is found by a search through the other within 2 s', async () => {
    for (const [from, to, name] of [[a, b, 'from-a-7731.bin'], [b, a, 'from-b-7731.bin']] as const) {
      const up = await req(from.url, 'POST', `/api/resources/docs/${name}`, new Uint8Array(3000).fill(7));
      expect(up.status).toBe(200);
      await until(WITHIN_MS, `${name} through the other instance`, async () => (await found(to.url, name)).includes(`docs/${name}`));
    }
    await until(WITHIN_MS, 'folder sizes agree', sameSizes);
    expect((await sizes(b.url)).docs).toBe(6000 + 'hello from the shared root'.length);
  });

  test('a folder uploaded through one instance, then deleted: gone from the other within 2 s', async () => {
    for (const [from, to, folder] of [[a, b, 'made-by-a'], [b, a, 'made-by-b']] as const) {
      for (const n of ['x1.dat', 'x2.dat']) expect((await req(from.url, 'POST', `/api/resources/${folder}/${n}`, new Uint8Array(1000))).status).toBe(200);
      await until(WITHIN_MS, `${folder} through the other`, async () => (await found(to.url, 'x2.dat')).includes(`${folder}/x2.dat`));
      await until(WITHIN_MS, 'sizes agree', async () => (await sizes(to.url))[folder] === 2000);
      expect((await req(from.url, 'DELETE', `/api/resources/${folder}/`)).status).toBe(204);
      await until(WITHIN_MS, `${folder} gone through the other`, async () => !(await found(to.url, 'x2.dat')).length);
    }
    await until(WITHIN_MS, 'folder sizes agree', sameSizes);
  });

  test('a rename through the FUSE instance: the old name gone and the new one found through the other', async () => {
    const r = await req(b.url, 'PATCH', '/api/resources/docs/from-b-7731.bin?action=rename&destination=%2Fdocs%2Frenamed-7731.bin');
    expect(r.status).toBe(200);
    await until(WITHIN_MS, 'rename seen by a', async () => {
      const hits = await found(a.url, '7731');
      return hits.includes('docs/renamed-7731.bin') && !hits.includes('docs/from-b-7731.bin');
    });
  });

  test('a file written by neither instance: the local one hears it, the FUSE one finds it by its periodic sweep', async () => {
    expect((await found(b.url, 'outside-5521')).length).toBe(0);
    writeFileSync(join(root, 'docs', 'outside-5521.txt'), 'x'.repeat(500));
    await until(WITHIN_MS, 'the watching instance', async () => (await found(a.url, 'outside-5521')).length === 1);
    // The FUSE instance hears no event: its sweep (every SWEEP_S here, 500 folders at a time) finds it.
    await until(SWEEP_S * 1000 + 5000, 'the sweeping instance', async () => (await found(b.url, 'outside-5521')).length === 1);
    await until(WITHIN_MS, 'folder sizes agree', sameSizes);
  }, 30_000);
});

describe('a notice always fits in one NOTIFY', () => {
  const size = (n: string) => Buffer.byteLength(n);
  test('a notice heard names canonical paths inside the root only', () => {
    for (const p of ['/', '/a', '/a/b c/ü.txt']) expect([p, isIndexPath(p)]).toEqual([p, true]);
    for (const p of ['', 'a', '/a/', '//a', '/a/../b', '/..', '/./a', '/a\0b', '/.filedeck-trash/x', 7, null]) expect([p, isIndexPath(p)]).toEqual([p, false]);
  });
  test('few paths go as they are', () => {
    expect(JSON.parse(noticeFor('me', ['/a/b.txt', '/c']))).toEqual({ i: 'me', p: ['/a/b.txt', '/c'] });
  });
  test('many paths become their folders, none inside another (a rescan is deep)', () => {
    const paths = Array.from({ length: 400 }, (_, n) => `/docs/${n % 2 ? 'x' : 'y/z'}/a-rather-long-file-name-${n}.bin`);
    const n = noticeFor('me', [...paths, '/docs/x/inner/deeper.bin']);
    expect(size(n)).toBeLessThanOrEqual(MAX_NOTICE_BYTES);
    expect(JSON.parse(n)).toEqual({ i: 'me', r: ['/docs/x', '/docs/y/z'] });
  });
  test('too many folders: their common folder (multi-byte names counted in bytes)', () => {
    const paths = Array.from({ length: 900 }, (_, n) => `/shared/ü${n}/文件-${n}/f.bin`);
    const n = noticeFor('me', paths);
    expect(size(n)).toBeLessThanOrEqual(MAX_NOTICE_BYTES);
    expect(JSON.parse(n)).toEqual({ i: 'me', r: ['/shared'] });
    expect(JSON.parse(noticeFor('me', [...paths, '/top.bin']))).toEqual({ i: 'me', r: ['/'] });
  });
});
