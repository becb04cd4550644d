import { afterAll, beforeAll, expect, test } from 'bun:test';
import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type RunningServer } from '../helpers/binary';

// A 100,000-file listing through a real server process: complete, in order, and the process's memory back near
// its level of before the request (the listing is streamed, never built whole). One file more than the largest
// page (MAX_PAGE): a listing without paging is the whole folder, never cut at a page's size.
const N = 100_001;
const PW = 'listing-memory-password-1';
let dir: string;
let srv: RunningServer;
let auth: Record<string, string>;
const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'filedeck-listing-mem-'));
  mkdirSync(join(dir, 'files', 'huge'), { recursive: true });
  mkdirSync(join(dir, 'files', 'small'));
  for (let i = 0; i < N; i++) closeSync(openSync(join(dir, 'files', 'huge', `item-${i}.txt`), 'w'));
  for (let i = 0; i < 20; i++) closeSync(openSync(join(dir, 'files', 'small', `f${i}.txt`), 'w'));
  srv = await startServer(['-d', join(dir, 'db.sqlite'), '-r', join(dir, 'files'), '--password', PW, '--log', '']);
  const token = await (await fetch(`${srv.url}/api/login`, { method: 'POST', body: JSON.stringify({ username: 'admin', password: PW }) })).text();
  auth = { 'X-Auth': token };
}, 120_000);
afterAll(async () => {
  await srv?.stop();
  rmSync(dir, { recursive: true, force: true });
});

test('listing 100,000 files: every item once, in natural order; RSS afterwards within 30 MB of before', async () => {
  for (let i = 0; i < 30; i++) await (await fetch(`${srv.url}/api/resources/small/`, { headers: auth })).arrayBuffer();
  // The server indexes the 100,021 files at its first start (the name index, on a worker thread of this process):
  // the figures are the listing's, so they are taken once that build is over (search answers from the index), as in
  // scripts/bench/listing.bench.ts. Measured while it still ran, the build's own growth landed in "after" (+35 to
  // +75 MB with or without this listing's code; once it is over, the listings leave RSS 20-70 MB below "before").
  for (let i = 0; i < 600; i++) {
    const s = await fetch(`${srv.url}/api/search/?query=item-1`, { headers: auth });
    await s.arrayBuffer();
    if (s.headers.get('X-Search-Source') === 'index') break;
    await Bun.sleep(100);
  }
  await Bun.sleep(3000);
  const before = rssMb(srv.proc.pid);
  const r = await fetch(`${srv.url}/api/resources/huge/`, { headers: auth });
  expect(r.status).toBe(200);
  const body = (await r.json()) as { items: { name: string }[]; numFiles: number };
  expect(body.numFiles).toBe(N);
  expect(body.items.length).toBe(N);
  expect(body.items[0]!.name).toBe('item-0.txt');
  expect(body.items[9]!.name).toBe('item-9.txt');
  expect(body.items[10]!.name).toBe('item-10.txt');
  expect(body.items[N - 1]!.name).toBe(`item-${N - 1}.txt`);
  // Compressed too, then a client that leaves half-way: the server stops producing and stays up.
  const gz = await fetch(`${srv.url}/api/resources/huge/`, { headers: { ...auth, 'Accept-Encoding': 'gzip' } });
  expect(gz.headers.get('content-encoding')).toBe('gzip');
  expect(((await gz.json()) as { items: unknown[] }).items.length).toBe(N);
  const ctl = new AbortController();
  const cut = await fetch(`${srv.url}/api/resources/huge/`, { headers: auth, signal: ctl.signal });
  const reader = cut.body!.getReader();
  await reader.read();
  ctl.abort();
  // Freed memory goes back to the system over a few seconds (the allocator's and the stat worker's collections):
  // poll rather than read once. Measured every 0.5 s after two such listings, it was under +30 MB after 0.5, 3.5,
  // 5 and 6.5 s in four runs (and 6-63 MB below "before" by 10 s); one CI run was still at +36 MB after 8 s, so
  // this waits up to 20 s.
  let after = rssMb(srv.proc.pid);
  for (let i = 0; i < 100 && after - before >= 30; i++) {
    await Bun.sleep(200);
    after = rssMb(srv.proc.pid);
  }
  console.log(`server RSS before ${before.toFixed(0)} MB, after ${after.toFixed(0)} MB`);
  expect(after - before).toBeLessThan(30);
  expect((await fetch(`${srv.url}/api/resources/small/`, { headers: auth })).status).toBe(200);
}, 120_000);
