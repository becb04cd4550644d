import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { filedeckCommand, startServer, type RunningServer } from '../helpers/binary';

// Issue 39 item 6: the name index catches up with what changed while no server watched. A real server process is
// stopped, files are created, deleted and renamed behind its back, and a new process started on the same database,
// files root and cache folder: search finds what is there (and nothing that is gone) and every folder size of the
// listings equals a walk of the disk.

const ADMIN = 'index-restart-admin-password-4418';
let dir: string, root: string, args: string[];
let server: RunningServer | null = null;
let token = '';

const req = (method: string, path: string, body?: BodyInit) => fetch(server!.url + path, { method, headers: { 'X-Auth': token }, body });

async function start(): Promise<void> {
  server = await startServer(args, { cwd: dir, cmd: filedeckCommand() });
  const r = await fetch(`${server.url}/api/login`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ username: 'admin', password: ADMIN }) });
  expect(r.status).toBe(200);
  token = await r.text();
}

/** Paths a search finds for `query`, once the index answers (not a walk). */
async function found(query: string): Promise<string[]> {
  const end = Date.now() + 20_000;
  for (;;) {
    const r = await req('GET', `/api/search/?query=${encodeURIComponent(query)}`);
    const text = await r.text();
    expect(r.status).toBe(200);
    if (r.headers.get('x-search-source') === 'index') return text.split('\n').filter(Boolean).map((l) => (JSON.parse(l) as { path: string }).path).sort();
    if (Date.now() > end) throw new Error('the index did not get ready');
    await Bun.sleep(100);
  }
}

/** Bytes of the files beneath `abs` (the server's own state names left out). */
function walked(abs: string): number {
  let sum = 0;
  for (const n of readdirSync(abs)) {
    if (n.startsWith('.filedeck-')) continue;
    const st = lstatSync(join(abs, n));
    if (!st.isSymbolicLink()) sum += st.isDirectory() ? walked(join(abs, n)) : st.size;
  }
  return sum;
}

/** Every folder's size, as listings show them (each sub-folder's, and the folder's own), against the disk. */
async function sizesAgree(path: string): Promise<void> {
  const r = await req('GET', `/api/resources${path}`);
  expect(r.status).toBe(200);
  const body = (await r.json()) as { folderSize?: number; items: { name: string; isDir: boolean; folderSize?: number }[] };
  const abs = join(root, path);
  expect([path, body.folderSize]).toEqual([path, walked(abs)]);
  for (const i of body.items.filter((i) => i.isDir)) {
    expect([`${path}${i.name}`, i.folderSize]).toEqual([`${path}${i.name}`, walked(join(abs, i.name))]);
    await sizesAgree(`${path}${i.name}/`);
  }
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'filedeck-index-restart-'));
  root = join(dir, 'files');
  mkdirSync(join(root, 'keep', 'deep'), { recursive: true });
  mkdirSync(join(root, 'gone-folder'), { recursive: true });
  writeFileSync(join(root, 'keep', 'stays-4410.txt'), 'a'.repeat(100));
  writeFileSync(join(root, 'keep', 'deep', 'deleted-4410.txt'), 'b'.repeat(200));
  writeFileSync(join(root, 'keep', 'old-name-4410.txt'), 'c'.repeat(300));
  writeFileSync(join(root, 'gone-folder', 'inside-4410.txt'), 'd'.repeat(400));
  writeFileSync(join(root, 'keep', 'grows-4410.txt'), 'e'.repeat(10));
  args = ['-d', join(dir, 'filedeck.db'), '-r', root, '--cacheDir', join(dir, 'cache'), '--log', '', '--username', 'admin', '--password', ADMIN];
  await start();
}, 60_000);

afterAll(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('the name index after a restart', () => {
  test('before the stop: everything is indexed, sizes agree', async () => {
    expect(await found('4410')).toEqual(['gone-folder/inside-4410.txt', 'keep/deep/deleted-4410.txt', 'keep/grows-4410.txt', 'keep/old-name-4410.txt', 'keep/stays-4410.txt']);
    // An upload through the server just before the stop is in the index too.
    expect((await req('POST', '/api/resources/keep/uploaded-4410.bin', new Uint8Array(50))).status).toBe(200);
    const end = Date.now() + 5000;
    while (!(await found('uploaded-4410')).length && Date.now() < end) await Bun.sleep(50);
    await sizesAgree('/');
  });

  test('created, deleted, renamed and grown while down: found (or gone) after the start, sizes agree', async () => {
    await server!.stop();
    server = null;
    writeFileSync(join(root, 'keep', 'new-while-down-4410.txt'), 'f'.repeat(1234));
    mkdirSync(join(root, 'new-folder', 'sub'), { recursive: true });
    writeFileSync(join(root, 'new-folder', 'sub', 'nested-4410.txt'), 'g'.repeat(2345));
    rmSync(join(root, 'keep', 'deep', 'deleted-4410.txt'));
    rmSync(join(root, 'gone-folder'), { recursive: true });
    renameSync(join(root, 'keep', 'old-name-4410.txt'), join(root, 'keep', 'new-name-4410.txt'));
    renameSync(join(root, 'keep', 'deep'), join(root, 'keep', 'moved-deep'));
    writeFileSync(join(root, 'keep', 'grows-4410.txt'), 'e'.repeat(5000));
    await start();
    // The catch-up runs on the index worker at start; the first answers may still come from before it.
    const want = ['keep/grows-4410.txt', 'keep/new-name-4410.txt', 'keep/new-while-down-4410.txt', 'keep/stays-4410.txt', 'keep/uploaded-4410.bin', 'new-folder/sub/nested-4410.txt'];
    const end = Date.now() + 10_000;
    let got = await found('4410');
    while (JSON.stringify(got) !== JSON.stringify(want) && Date.now() < end) {
      await Bun.sleep(100);
      got = await found('4410');
    }
    expect(got).toEqual(want);
    expect(await found('moved-deep')).toEqual(['keep/moved-deep']);
    expect(await found('gone-folder')).toEqual([]);
    await sizesAgree('/');
  }, 60_000);
});
