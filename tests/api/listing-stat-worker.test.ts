import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, symlinkSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { statWorker } from '../../server/fs/stat-ahead';
import { makeTestApp, type TestApp } from '../helpers/test-app';
import { settled } from '../helpers/settle';
import { openFdsUnder } from '../helpers/open-fds';

// Listings of 256 items or more share their entries' lstat with the stat worker thread (server/fs/stat-ahead.ts):
// the answers must be the synchronous path's, byte for byte, whatever happens to the worker or the client.
let t: TestApp;
let token: string;
let outside: string;
const fdCount = () => openFdsUnder(t.dir);
const realOpen = statWorker.open.bind(statWorker);
/** Runs `f` with the stat worker switched off (every listing stats on the main thread, as before). */
async function synchronously<T>(f: () => Promise<T>): Promise<T> {
  statWorker.open = () => null;
  try {
    return await f();
  } finally {
    statWorker.open = realOpen;
  }
}
const text = async (path: string) => (await t.req('GET', path, { token, headers: { 'Accept-Encoding': 'identity' } })).text();

function mkfifoSync(path: string): void {
  const r = Bun.spawnSync(['mkfifo', path]);
  if (r.exitCode !== 0) throw new Error(`mkfifo failed: ${r.stderr}`);
}

/** `n` empty files plus every kind of entry a listing treats differently, spread through the listing's order. */
function fill(dir: string, n: number): void {
  mkdirSync(dir, { recursive: true });
  for (let i = 0; i < n; i++) {
    const p = join(dir, `f-${i}.${['txt', 'mp4', 'srt', 'bin', 'jpg'][i % 5]}`);
    if (i % 7 === 0) writeFileSync(p, 'x'.repeat(i % 1000));
    else closeSync(openSync(p, 'w'));
    if (i % 97 === 0) utimesSync(p, new Date('1960-01-01T00:00:00.5Z'), new Date('1960-01-01T00:00:00.5Z'));
    if (i % 89 === 0) utimesSync(p, 1_577_836_800.123456, 1_577_836_800.123456);
  }
  for (let i = 0; i < 30; i++) mkdirSync(join(dir, `d-${i}`));
  for (let i = 0; i < 10; i++) {
    symlinkSync(`f-${i * 50}.txt`, join(dir, `f-${i * 50}-link-file`)); // in scope
    symlinkSync(`d-${i}`, join(dir, `f-${i * 60}-link-dir`)); // in scope, sorts as a folder
    symlinkSync(outside, join(dir, `f-${i * 70}-link-out`)); // escapes: left out
    symlinkSync(`gone-${i}`, join(dir, `f-${i * 80}-dangling-in`)); // invalid_link
    symlinkSync(`/nonexistent-outside/${i}`, join(dir, `f-${i * 90}-dangling-out`)); // left out
    mkfifoSync(join(dir, `f-${i * 100}-fifo`));
  }
}

beforeAll(async () => {
  t = await makeTestApp();
  token = await t.adminToken();
  outside = mkdtempSync(join(tmpdir(), 'fd-outside-'));
  fill(join(t.root, 'mixed'), 3000);
  fill(join(t.root, 'other'), 2500);
  fill(join(t.root, 'medium'), 300);
  fill(join(t.root, 'huge'), 20_000);
  await text('/api/resources/mixed/'); // starts the worker and what the server opens once: not ours to count
}, 120_000);
afterAll(async () => {
  await t.close();
  rmSync(outside, { recursive: true, force: true });
});

describe('big listings through the stat worker', () => {
  for (const sorting of [{ by: 'name', asc: false }, { by: 'name', asc: true }, { by: 'size', asc: true }, { by: 'modified', asc: false }])
    test(`the same JSON, byte for byte, as the synchronous path (sorting ${sorting.by} asc=${sorting.asc}), a page too`, async () => {
      const r = await t.req('PUT', '/api/users/1', { token, body: { what: 'user', which: ['sorting'], data: { id: 1, sorting } } });
      expect(r.status).toBe(200);
      for (const path of ['/api/resources/mixed/', '/api/resources/mixed/?offset=100&limit=2500', '/api/resources/medium/']) {
        const before = statWorker.answered;
        const fdsBefore = fdCount();
        const viaWorker = await text(path);
        // A few hundred names: the worker may get none of the blocks (the main thread is quicker to start).
        if (!path.includes('medium')) expect(statWorker.answered).toBeGreaterThan(before);
        expect(fdCount()).toBe(fdsBefore);
        const plain = await synchronously(() => text(path));
        expect(viaWorker).toBe(plain);
        const items = (JSON.parse(viaWorker) as { items: { name: string; type: string }[] }).items;
        expect(items.some((i) => i.name.endsWith('-link-out') || i.name.endsWith('-dangling-out'))).toBe(false);
        if (!path.includes('?') && !path.includes('medium')) expect(items.filter((i) => i.type === 'invalid_link').length).toBe(10);
      }
    });

  test('an entry removed before the worker reached it is left out', async () => {
    await t.req('PUT', '/api/users/1', { token, body: { what: 'user', which: ['sorting'], data: { id: 1, sorting: { by: 'name', asc: false } } } });
    const asked = statWorker.answered;
    const res = await t.req('GET', '/api/resources/huge/', { token, headers: { 'Accept-Encoding': 'identity' } });
    const reader = res.body!.getReader();
    let body = '';
    const dec = new TextDecoder();
    for (let i = 0; i < 2; i++) body += dec.decode((await reader.read()).value!, { stream: true });
    // The worker is at most a few chunks (~4,400 names) ahead: names late in the order are not stat-ed yet.
    const gone = ['f-19990.txt', 'f-19995.txt', 'f-9999.jpg'];
    for (const n of gone) unlinkSync(join(t.root, 'huge', n));
    for (let r = await reader.read(); !r.done; r = await reader.read()) body += dec.decode(r.value, { stream: true });
    const names = new Set((JSON.parse(body) as { items: { name: string }[] }).items.map((i) => i.name));
    for (const n of gone) expect(names.has(n)).toBe(false);
    expect(names.has('f-19991.mp4')).toBe(true);
    expect(statWorker.answered).toBeGreaterThan(asked);
    expect(names.size).toBe(20_000 + 30 + 40 - 3); // files, folders, in-scope links, FIFOs, invalid links; minus the removed
  });

  test('a client that leaves mid-listing: the worker stops, no descriptor stays open', async () => {
    const before = fdCount();
    const asked = statWorker.answered;
    const res = await t.req('GET', '/api/resources/huge/', { token, headers: { 'Accept-Encoding': 'identity' } });
    const reader = res.body!.getReader();
    await reader.read();
    await reader.read();
    await reader.cancel();
    // The server closes the folder when it sees the cancel, a moment after it: wait for that, not a fixed 50 ms.
    expect(await settled(fdCount, before)).toBe(before);
    // The worker stopped: it stat-ed about as far as the stream was read ahead (its names are sent 4 chunks of 1,024
    // past where the listing reads), not the 20,000 names of the whole folder, and stats nothing more.
    // Its count arrives by message: one sent before the listing ended may still be on its way, so it is read once
    // it stopped moving.
    let stopped = statWorker.answered;
    for (let i = 0; i < 20; i++) {
      await Bun.sleep(100);
      if (statWorker.answered === stopped) break;
      stopped = statWorker.answered;
    }
    expect(stopped - asked).toBeLessThan(15 * 1024);
    await Bun.sleep(200);
    expect(statWorker.answered).toBe(stopped);
  });

  test('two big listings at once, of different folders, do not mix', async () => {
    const [a, b] = await synchronously(() => Promise.all([text('/api/resources/mixed/'), text('/api/resources/other/')]));
    const before = statWorker.answered;
    const [ra, rb] = await Promise.all([t.req('GET', '/api/resources/mixed/', { token }), t.req('GET', '/api/resources/other/', { token })]);
    // Read them interleaved, chunk by chunk, so both are in flight on the worker together.
    const readers = [ra.body!.getReader(), rb.body!.getReader()];
    const out = [[] as Uint8Array[], [] as Uint8Array[]];
    for (let open = [true, true]; open[0] || open[1]; )
      for (const i of [0, 1])
        if (open[i]) {
          const r = await readers[i]!.read();
          if (r.done) open[i] = false;
          else out[i]!.push(r.value);
        }
    expect(statWorker.answered).toBeGreaterThan(before);
    expect(Buffer.concat(out[0]!).toString()).toBe(a);
    expect(Buffer.concat(out[1]!).toString()).toBe(b);
  });

  test('a worker that is never sent names: the main thread stats every block itself, without waiting', async () => {
    const plain = await synchronously(() => text('/api/resources/huge/'));
    const realSend = statWorker.send.bind(statWorker);
    statWorker.send = (job, transfer) => {
      if (job.t !== 'names') realSend(job, transfer);
    };
    try {
      const before = statWorker.answered;
      const fdsBefore = fdCount();
      const t0 = performance.now();
      expect(await text('/api/resources/huge/')).toBe(plain);
      // The main thread claimed every block: had it waited for the worker's, the listing would never have ended (a
      // generous bound instead of the test's timeout, for a clearer failure).
      expect(performance.now() - t0).toBeLessThan(15_000);
      expect(statWorker.answered).toBe(before);
      expect(await settled(fdCount, fdsBefore)).toBe(fdsBefore);
    } finally {
      statWorker.send = realSend;
    }
  });

  test('the worker killed mid-listing: the listing still completes (synchronous fallback), the next one starts a new worker', async () => {
    const plain = await synchronously(() => text('/api/resources/huge/'));
    const fdsBefore = fdCount();
    const res = await t.req('GET', '/api/resources/huge/', { token, headers: { 'Accept-Encoding': 'identity' } });
    const reader = res.body!.getReader();
    const parts: Uint8Array[] = [];
    for (let i = 0; i < 3; i++) parts.push((await reader.read()).value!);
    statWorker.kill();
    for (let r = await reader.read(); !r.done; r = await reader.read()) parts.push(r.value);
    expect(Buffer.concat(parts).toString()).toBe(plain);
    const before = statWorker.answered;
    expect(await text('/api/resources/mixed/')).toBe(await synchronously(() => text('/api/resources/mixed/')));
    expect(statWorker.answered).toBeGreaterThan(before);
    expect(fdCount()).toBe(fdsBefore);
  });
});
