import { afterEach, describe, expect, test } from 'bun:test';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeTestApp, type TestApp } from '../helpers/test-app';
import { settled } from '../helpers/settle';
import { random, sha256, sha256File } from '../helpers/transfer-fixture';
import { SqliteSql } from '../../server/db/sql';
import { TempEntry, tempName } from '../../server/fs/temp-file';
import { TempSweep } from '../../server/services/files/temp-sweep';

let t: TestApp | null = null;
const cleanups: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
  await t?.close();
  t = null;
});

const OCTET = { 'Content-Type': 'application/offset+octet-stream' };

/** Every `.filedeck-*.part` entry anywhere under `dir`. */
function temps(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) if (/^\.filedeck-.*\.part$/.test(e.name)) out.push(join(e.parentPath, e.name));
  return out;
}

const counts = (xs: number[]) => xs.reduce<Record<number, number>>((m, x) => ((m[x] = (m[x] ?? 0) + 1), m), {});

describe('atomic no-replace creates', () => {
  test('20 parallel POSTs without override to one new name: one 200, nineteen 409, one upload\'s bytes', async () => {
    t = await makeTestApp();
    const token = await t.adminToken();
    const bodies = Array.from({ length: 20 }, () => random(200_000));
    const res = await Promise.all(bodies.map((b) => t!.req('POST', '/api/resources/race/one.bin', { token, raw: b })));
    expect(counts(res.map((r) => r.status))).toEqual({ 200: 1, 409: 19 });
    const winner = res.findIndex((r) => r.status === 200);
    expect(sha256File(join(t.root, 'race', 'one.bin'))).toBe(sha256(bodies[winner]!));
    expect(temps(t.root)).toEqual([]);
  });

  test('20 parallel tus creations of one path: one 201, nineteen 409; across users one upload lands, the others 409', async () => {
    t = await makeTestApp();
    const token = await t.adminToken();
    const res = await Promise.all(Array.from({ length: 20 }, () => t!.req('POST', '/api/tus/race/t.bin', { token, headers: { 'Upload-Length': '10' } })));
    expect(counts(res.map((r) => r.status))).toEqual({ 201: 1, 409: 19 });
    expect(temps(t.root)).toHaveLength(1);

    const users = await Promise.all(Array.from({ length: 6 }, (_, i) => t!.userToken(`u${i}`, { create: true })));
    const bodies = users.map(() => random(5000));
    for (const tok of users) expect((await t.req('POST', '/api/tus/race/u.bin', { token: tok, headers: { 'Upload-Length': '5000' } })).status).toBe(201);
    const done = await Promise.all(users.map((tok, i) => t!.req('PATCH', '/api/tus/race/u.bin', { token: tok, headers: { ...OCTET, 'Upload-Offset': '0' }, raw: bodies[i] })));
    expect(counts(done.map((r) => r.status))).toEqual({ 204: 1, 409: 5 });
    expect(sha256File(join(t.root, 'race', 'u.bin'))).toBe(sha256(bodies[done.findIndex((r) => r.status === 204)]!));
    expect(temps(t.root)).toHaveLength(1); // only the admin's registered upload from above
  });

  test('parallel copies with rename=true land in distinct names; folder copies never merge', async () => {
    t = await makeTestApp();
    const token = await t.adminToken();
    mkdirSync(join(t.root, 'src', 'inner'), { recursive: true });
    for (let i = 0; i < 20; i++) writeFileSync(join(t.root, 'src', 'inner', `f${i}.txt`), `file ${i}`);
    writeFileSync(join(t.root, 'doc.txt'), 'the doc');
    const copy = (from: string, to: string) => t!.req('PATCH', `/api/resources${from}?action=copy&destination=${encodeURIComponent(to)}&rename=true`, { token });
    const files = await Promise.all(Array.from({ length: 10 }, () => copy('/doc.txt', '/doc.txt')));
    expect(files.map((r) => r.status)).toEqual(Array(10).fill(200));
    const docs = readdirSync(t.root).filter((n) => /^doc\(\d+\)\.txt$/.test(n));
    expect(docs).toHaveLength(10);
    for (const d of docs) expect(readFileSync(join(t.root, d), 'utf8')).toBe('the doc');

    const dirs = await Promise.all(Array.from({ length: 8 }, () => copy('/src', '/src')));
    expect(dirs.map((r) => r.status)).toEqual(Array(8).fill(200));
    const copies = readdirSync(t.root).filter((n) => /^src\(\d+\)$/.test(n));
    expect(copies).toHaveLength(8);
    for (const c of copies) expect(readdirSync(join(t.root, c, 'inner')).sort()).toEqual(readdirSync(join(t.root, 'src', 'inner')).sort());
    // Without rename a second copy to a name taken meanwhile is a 409, not a merge.
    const plain = await Promise.all(Array.from({ length: 6 }, () => t!.req('PATCH', `/api/resources/src?action=copy&destination=${encodeURIComponent('/solo')}`, { token })));
    expect(counts(plain.map((r) => r.status))).toEqual({ 200: 1, 409: 5 });
    expect(readdirSync(join(t.root, 'solo', 'inner'))).toHaveLength(20);
    expect(temps(t.root)).toEqual([]);
  });
});

describe('an upload into a folder moved meanwhile', () => {
  test('POST: 409 with a message, nothing at the old or new place, no temp anywhere', async () => {
    t = await makeTestApp();
    const token = await t.adminToken();
    mkdirSync(join(t.root, 'box'));
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const body = new ReadableStream<Uint8Array>({
      async start(c) {
        c.enqueue(random(1000));
        await gate;
        c.enqueue(random(1000));
        c.close();
      },
    });
    const pending = t.req('POST', '/api/resources/box/late.bin', { token, raw: body as unknown as BodyInit });
    // The temp appears once the server has read the first part of the body (up to 10 s on a loaded machine).
    const root = t.root;
    expect(await settled(() => temps(root).length, 1)).toBe(1);
    renameSync(join(t.root, 'box'), join(t.root, 'moved'));
    release();
    const r = await pending;
    expect(r.status).toBe(409);
    expect(await r.text()).toContain('moved or deleted');
    expect(existsSync(join(t.root, 'moved', 'late.bin'))).toBe(false);
    expect(temps(t.root)).toEqual([]);
  });
});

describe('sparse files stay sparse', () => {
  test('copying a 10 GB sparse file writes only its data', async () => {
    t = await makeTestApp();
    const token = await t.adminToken();
    const src = join(t.root, 'sparse.img');
    writeFileSync(src, '');
    truncateSync(src, 10 * 1024 ** 3);
    execFileSync('dd', ['if=/dev/urandom', `of=${src}`, 'bs=4096', 'count=2', 'seek=1000000', 'conv=notrunc'], { stdio: 'ignore' });
    const r = await t.req('PATCH', `/api/resources/sparse.img?action=copy&destination=${encodeURIComponent('/copy.img')}`, { token });
    expect(r.status).toBe(200);
    const a = statSync(src);
    const b = statSync(join(t.root, 'copy.img'));
    expect(b.size).toBe(a.size);
    expect(b.blocks * 512).toBeLessThan(1024 * 1024); // 8 KiB of data, not 10 GB
    const pos = 1_000_000 * 4096;
    const slice = async (p: string) => new Uint8Array(await Bun.file(p).slice(pos - 10, pos + 8192 + 10).arrayBuffer());
    expect(sha256(await slice(join(t.root, 'copy.img')))).toBe(sha256(await slice(src)));
  }, 30_000);
});

describe('disk full and database full', () => {
  test('a full files volume is 507 with a message on POST, PUT, tus PATCH and copy, leaving no temp', async () => {
    const mnt = join(process.env.TMPDIR ?? '/tmp', `filedeck-full-${process.pid}`);
    mkdirSync(mnt, { recursive: true });
    // Undone in reverse order: unmounted first (below), then the empty mount point removed.
    cleanups.push(() => rmSync(mnt, { recursive: true, force: true }));
    const m = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=2m', 'tmpfs', mnt]);
    if (m.status !== 0) {
      console.log(`skipped: cannot mount a 2 MiB tmpfs (${m.stderr?.toString().trim() || 'no privileges'})`);
      return;
    }
    cleanups.push(() => void spawnSync('umount', ['-l', mnt]));
    t = await makeTestApp({ root: join(mnt, 'files') });
    const token = await t.adminToken();
    const post = await t.req('POST', '/api/resources/big.bin', { token, raw: random(3 * 1024 * 1024) });
    expect(post.status).toBe(507);
    expect(await post.text()).toContain('no space left on the files volume');
    writeFileSync(join(t.root, 'small.bin'), random(1100 * 1024));
    const put = await t.req('PUT', '/api/resources/small.bin', { token, raw: random(1500 * 1024) });
    expect(put.status).toBe(507);
    expect(statSync(join(t.root, 'small.bin')).size).toBe(1100 * 1024); // the old file is untouched
    const copy = await t.req('PATCH', `/api/resources/small.bin?action=copy&destination=${encodeURIComponent('/copy.bin')}`, { token });
    expect(copy.status).toBe(507);
    expect(existsSync(join(t.root, 'copy.bin'))).toBe(false);
    rmSync(join(t.root, 'small.bin'));
    const len = 1500 * 1024;
    expect((await t.req('POST', '/api/tus/t.bin', { token, headers: { 'Upload-Length': String(len) } })).status).toBe(201);
    writeFileSync(join(t.root, 'filler.bin'), random(1024 * 1024)); // the space goes after the creation's check
    const patch = await t.req('PATCH', '/api/tus/t.bin', { token, headers: { ...OCTET, 'Upload-Offset': '0' }, raw: random(len) });
    expect(patch.status).toBe(507);
    expect(await patch.text()).toContain('no space left');
    const head = await t.req('HEAD', '/api/tus/t.bin', { token });
    expect(Number(head.headers.get('upload-offset'))).toBeLessThan(len); // resumable from what was kept
    expect((await t.req('DELETE', '/api/tus/t.bin', { token })).status).toBe(204);
    expect(temps(t.root)).toEqual([]);
  });

  test('a full SQLite database is 507 with a message, not a bare 500', async () => {
    t = await makeTestApp();
    const token = await t.adminToken();
    if (!(t.s.db instanceof SqliteSql)) return console.log('skipped: SQLite only (PostgreSQL disk_full is mapped the same way)');
    const pages = (t.s.db.db.query('PRAGMA page_count').get() as { page_count: number }).page_count;
    t.s.db.db.exec(`PRAGMA max_page_count = ${pages}`);
    let r: Response | null = null;
    for (let i = 0; i < 50 && (r === null || r.status === 201); i++) r = await t.req('POST', `/api/tus/${'n'.repeat(200)}${i}.bin`, { token, headers: { 'Upload-Length': '10' } });
    expect(r!.status).toBe(507);
    expect(await r!.text()).toContain('the database is full');
  });
});

describe('the temp sweep', () => {
  test('removes dead temps anywhere under the root, keeps held and registered ones and fresh ones', async () => {
    t = await makeTestApp();
    const token = await t.adminToken();
    const sweep = new TempSweep({ root: t.root, cacheDir: t.s.config.cacheDir, tus: t.s.tus, floorMs: 3_000 });
    mkdirSync(join(t.root, 'a', 'b', 'c'), { recursive: true });
    const old = Date.now() / 1000 - 3600;
    // Temps as the server names them (with their proof); a user's file that merely looks like one is never swept.
    const dead = join(t.root, 'a', 'b', 'c', tempName(join(t.root, 'a', 'b', 'c')));
    writeFileSync(dead, 'left by a crash');
    const deadDir = join(t.root, 'a', tempName(join(t.root, 'a')));
    mkdirSync(join(deadDir, 'x'), { recursive: true });
    writeFileSync(join(deadDir, 'x', 'f'), 'half a copy');
    const fresh = join(t.root, tempName(t.root));
    writeFileSync(fresh, 'just made');
    const lookalike = join(t.root, 'a', '.filedeck-deadfile000.part');
    writeFileSync(lookalike, 'a user file renamed to look like a temp');
    const held = await TempEntry.create(join(t.root, 'a'));
    for (const p of [dead, deadDir, held.path, lookalike]) utimesSync(p, old, old);
    expect((await t.req('POST', '/api/tus/a/up.bin', { token, headers: { 'Upload-Length': '100' } })).status).toBe(201);
    const registered = temps(t.root).find((p) => ![dead, deadDir, fresh, held.path, lookalike].includes(p))!;
    utimesSync(registered, old, old);
    const mine = 'not ours.part';
    writeFileSync(join(t.root, mine), 'user data');
    const cache = join(t.s.config.cacheDir, 'ab');
    mkdirSync(cache, { recursive: true });
    const previewTmp = join(cache, `ab12.jpg.${crypto.randomUUID()}.tmp`);
    writeFileSync(previewTmp, 'x');
    utimesSync(previewTmp, old, old);

    const r = await sweep.run();
    expect(r).toEqual({ uploads: 0, temps: 2, previews: 1 });
    expect(existsSync(dead) || existsSync(deadDir) || existsSync(previewTmp)).toBe(false);
    for (const p of [fresh, held.path, registered, join(t.root, mine), lookalike]) expect(existsSync(p)).toBe(true);
    await held.close(); // its writer went away: now it is dead too
    expect((await sweep.run()).temps).toBe(1);
    expect(existsSync(held.path)).toBe(false);
    expect((await sweep.run(Date.now() + 3600_000)).uploads).toBe(1); // the idle tus upload expires with its temp
    expect(existsSync(registered)).toBe(false);
  });
});
