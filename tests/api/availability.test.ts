import { afterEach, describe, expect, test } from 'bun:test';
import { closeSync, mkdirSync, openSync, ftruncateSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { Transformer } from '@napi-rs/image';
import { HeavyWork } from '../../server/services/work/heavy-work';
import { openRegular } from '../../server/fs/open-regular';
import { makeTestApp, type TestApp } from '../helpers/test-app';
import { listen, sha256, waitFor, type Live } from '../helpers/transfer-fixture';
import { settled } from '../helpers/settle';

let t: TestApp | null = null;
let live: Live | null = null;
let sock: Server | null = null;
afterEach(async () => {
  sock?.close();
  sock = null;
  await live?.stop();
  live = null;
  await t?.close();
  t = null;
});

/** A sparse file of `bytes` (reads return zeros at memory speed; hashing it still costs real CPU time). */
function sparse(path: string, bytes: number): void {
  const fd = openSync(path, 'w');
  ftruncateSync(fd, bytes);
  closeSync(fd);
}

const checksums = () => t!.s.files.deps.checksums;

describe('only regular files are opened for content', () => {
  test('a FIFO and a UNIX socket get a 400 at once on every content route, and the server keeps answering', async () => {
    t = await makeTestApp();
    const token = await t.adminToken();
    mkdirSync(join(t.root, 'odd'));
    for (const n of ['pipe.jpg', 'pipe.srt', 'pipe.txt']) expect(Bun.spawnSync(['mkfifo', join(t.root, 'odd', n)]).exitCode).toBe(0);
    sock = createServer();
    await new Promise<void>((r) => sock!.listen(join(t!.root, 'odd', 'sock.jpg'), r));
    live = listen(t);
    const get = (path: string) => fetch(`${live!.url}${path}`, { headers: { 'X-Auth': token }, signal: AbortSignal.timeout(3000) });
    for (const name of ['pipe', 'sock']) {
      const img = name === 'pipe' ? 'pipe.jpg' : 'sock.jpg';
      const cases = [
        `/api/resources/odd/${img}?checksum=sha256`,
        `/api/preview/thumb/odd/${img}`,
        `/api/preview/big/odd/${img}`,
        `/api/raw/odd/${img}`,
        `/api/raw/odd/${img}?inline=true`,
      ];
      if (name === 'pipe') cases.push('/api/subtitle/odd/pipe.srt', '/api/resources/odd/pipe.txt?checksum=md5');
      for (const path of cases) {
        const started = performance.now();
        const r = await get(path);
        expect({ path, status: r.status }).toEqual({ path, status: 400 });
        expect(await r.text()).toContain('regular file');
        expect(performance.now() - started).toBeLessThan(2000);
      }
    }
    // Described, never opened: a FIFO named .txt is a blob without content (a read would block forever).
    const info = await (await get('/api/resources/odd/pipe.txt')).json();
    expect(info.type).toBe('blob');
    expect(info.content).toBeUndefined();
    const listing = await (await get('/api/resources/odd')).json();
    expect(listing.items.map((i: { name: string; type: string }) => `${i.name}:${i.type}`).sort()).toEqual(['pipe.jpg:blob', 'pipe.srt:blob', 'pipe.txt:blob', 'sock.jpg:blob']);
    expect(checksums().stats().running).toBe(0);
    expect(t.s.previews['d'].work.stats().running).toBe(0);
  }, 30_000);
});

describe('checksums run off the event loop, bounded and abortable', () => {
  test('a listing answers while a checksum of a large file is still running, and the checksum is right', async () => {
    t = await makeTestApp();
    const token = await t.adminToken();
    mkdirSync(join(t.root, 'small'));
    for (let i = 0; i < 20; i++) writeFileSync(join(t.root, 'small', `f${i}.txt`), `file ${i}\n`);
    sparse(join(t.root, 'big.bin'), 3 * 1024 ** 3);
    writeFileSync(join(t.root, 'known.txt'), 'known bytes\n');
    let hashedAt = 0;
    const sum = t.req('GET', '/api/resources/big.bin?checksum=sha256', { token }).then(async (r) => {
      hashedAt = performance.now();
      return { status: r.status, body: await r.json() };
    });
    expect(await waitFor(() => checksums().stats().running === 1, 5000)).toBe(true);
    const before = performance.now();
    const list = await t.req('GET', '/api/resources/small/', { token });
    const listedAt = performance.now();
    expect(list.status).toBe(200);
    expect((await list.json()).items).toHaveLength(20);
    expect(hashedAt).toBe(0); // the listing did not wait for the checksum
    expect(listedAt - before).toBeLessThan(1000);
    const done = await sum;
    expect(done.status).toBe(200);
    expect(done.body.checksums.sha256).toMatch(/^[0-9a-f]{64}$/);
    const known = await (await t.req('GET', '/api/resources/known.txt?checksum=sha256', { token })).json();
    expect(known.checksums.sha256).toBe(sha256('known bytes\n'));
  }, 60_000);

  test('a client that hangs up stops its checksum and frees its slot', async () => {
    t = await makeTestApp();
    const token = await t.adminToken();
    sparse(join(t.root, 'huge.bin'), 200 * 1024 ** 3); // minutes of hashing if it were not stopped
    writeFileSync(join(t.root, 'small.txt'), 'x');
    live = listen(t);
    const aborts = [new AbortController(), new AbortController()];
    const pending = aborts.map((ac) => fetch(`${live!.url}/api/resources/huge.bin?checksum=sha256`, { headers: { 'X-Auth': token }, signal: ac.signal }).catch((e) => e));
    expect(await waitFor(() => checksums().stats().running === 2, 5000)).toBe(true);
    for (const ac of aborts) ac.abort();
    await Promise.all(pending);
    expect(await waitFor(() => checksums().stats().running === 0, 3000)).toBe(true);
    // Both of this user's slots are free again: a third checksum runs at once.
    const r = await fetch(`${live.url}/api/resources/small.txt?checksum=md5`, { headers: { 'X-Auth': token }, signal: AbortSignal.timeout(5000) });
    expect(r.status).toBe(200);
  }, 30_000);
});

describe('heavy work limits', () => {
  test('per-user slots queue, a full queue is a 429, the time limit is a 503 that stops the worker', async () => {
    const w = new HeavyWork({ global: 2, perUser: 1, maxWaiting: 1, waitMs: 10_000, timeoutMs: 300 }, 'checksums');
    t = await makeTestApp(); // only for its temp folder
    const file = join(t.dir, 'huge.bin');
    sparse(file, 200 * 1024 ** 3);
    const open = async () => {
      const { handle } = await openRegular(file);
      return { fd: handle.fd, settled: () => void handle.close() };
    };
    const a = await open();
    const first = w.run<any>('alice', { kind: 'hash', fd: a.fd, algo: 'sha256' }, { settled: a.settled }).catch((e: any) => e);
    const b = await open();
    const queued = w.run<any>('alice', { kind: 'hash', fd: b.fd, algo: 'sha256' }, { settled: b.settled }).catch((e: any) => e); // alice's second waits
    // Both are taken in on later turns (the descriptors are handed over first): wait for that, not a fixed 20 ms.
    const load = () => ({ running: w.stats().running, waiting: w.stats().waiting });
    expect(await settled(load, { running: 1, waiting: 1 })).toEqual({ running: 1, waiting: 1 });
    const c = await open();
    const refused = await w.run<any>('bob', { kind: 'hash', fd: c.fd, algo: 'sha256' }, { settled: c.settled }).catch((e: any) => e); // bob could run...
    expect(refused.code).toBe('UNAVAILABLE'); // ...and did, until the time limit
    const e1 = await first;
    expect(e1.code).toBe('UNAVAILABLE');
    expect(await queued).toMatchObject({ code: 'UNAVAILABLE' });
    expect(await waitFor(() => w.stats().running === 0, 3000)).toBe(true);
    // The queue holds one: with alice running and one waiting, another waiter is refused with a 429 at once.
    const d = await open();
    const running = w.run<any>('alice', { kind: 'hash', fd: d.fd, algo: 'sha256' }, { settled: d.settled }).catch((e: any) => e);
    const e = await open();
    const waiting = w.run<any>('alice', { kind: 'hash', fd: e.fd, algo: 'sha256' }, { settled: e.settled }).catch((x: any) => x);
    const full = await w.run<any>('alice', { kind: 'bcrypt-verify', password: 'x', hash: 'y' }).catch((x: any) => x);
    expect(full.code).toBe('RATE_LIMITED');
    expect(full.headers['Retry-After']).toBeDefined();
    await Promise.all([running, waiting]);
    w.close();
  }, 30_000);

  test('bcrypt runs on worker threads: logins and a wrong password work, and the threads exist', async () => {
    t = await makeTestApp();
    expect((await t.req('POST', '/api/login', { body: { username: 'admin', password: 'wrong-password-123' } })).status).toBe(403);
    expect(await t.adminToken()).toMatch(/\./);
    const { passwordWork } = await import('../../server/services/work/work-limits');
    expect(passwordWork().stats().started).toBeGreaterThan(0);
  });
});

describe('previews', () => {
  test('concurrent requests for one uncached thumbnail render it once; big legal images do not stall listings', async () => {
    t = await makeTestApp();
    const token = await t.adminToken();
    const px = new Uint8Array(4000 * 3000 * 4).fill(180);
    writeFileSync(join(t.root, 'photo.jpg'), await Transformer.fromRgbaPixels(px, 4000, 3000).jpeg(85));
    mkdirSync(join(t.root, 'small'));
    for (let i = 0; i < 20; i++) writeFileSync(join(t.root, 'small', `f${i}.txt`), 'x');
    const work = t.s.previews['d'].work as HeavyWork;
    const before = work.stats().started;
    const all = Promise.all([0, 1, 2, 3, 4, 5].map(() => t!.req('GET', '/api/preview/thumb/photo.jpg', { token })));
    const list = await t.req('GET', '/api/resources/small/', { token });
    expect(list.status).toBe(200);
    const rs = await all;
    expect(rs.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(new Set(await Promise.all(rs.map(async (r) => sha256(new Uint8Array(await r.arrayBuffer()))))).size).toBe(1);
    expect(work.stats().started - before).toBe(1);
  }, 60_000);
});
