/**
 * Availability benchmark (not a test; prints figures): starts the server (the sources, or FILEDECK_BIN=dist/filedeck)
 * on 127.0.0.1 and measures another user's listing of a 20-file folder (p50/p95/max over 40 requests, one every
 * 50 ms) with no load, then under each load in turn:
 *   - 150 concurrent wrong logins; 8 concurrent previews of a 7000x7000 image; a checksum of a 4 GiB sparse file;
 *   - 8 concurrent subtitle conversions of 10 MB .srt files, anonymously through a public share (8 different
 *     files, so 8 real conversions: the same file would be converted once and then answered from the cache);
 *   - 8 concurrent searches, again and again while the listings run, by a user with 3 files under a root of
 *     300,000 files whose names all match the query (the name index built first);
 *   - a video thumbnail bomb: a .mp4 that is really a 16000x16000 PNG, asked for 4 times (a mosaic listing);
 *   - a flood of wrong logins with 200 KB usernames from 16 senders while the listings run, with the database's
 *     growth (file and WAL).
 * The issue's bar: the median under 200 ms. Usage: bun scripts/bench/trust.bench.ts [--skip-old] (skips the first
 * three loads).
 */
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Transformer } from '@napi-rs/image';
import { startServer } from '../../tests/helpers/binary';
import { pngBomb } from '../../tests/helpers/png-bomb';
import { bigSrt } from '../../tests/helpers/subtitle-fixture';

const ROOT = resolve(import.meta.dir, '../..');
const PW = 'bench-admin-password-1';
const skipOld = process.argv.includes('--skip-old');
const work = mkdtempSync(join(tmpdir(), 'filedeck-trust-bench-'));
const files = join(work, 'files');
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))]!;


const dbBytes = (db: string) => ['', '-wal', '-shm', '-journal'].reduce((n, s) => n + (existsSync(db + s) ? statSync(db + s).size : 0), 0);

try {
  const t0 = performance.now();
  mkdirSync(join(files, 'bob', 'twenty'), { recursive: true });
  for (let i = 0; i < 20; i++) writeFileSync(join(files, 'bob', 'twenty', `f${i}.txt`), `file ${i}\n`);
  if (!skipOld) {
    writeFileSync(join(files, 'big.bin'), '');
    truncateSync(join(files, 'big.bin'), 4 * 1024 ** 3);
    const px = new Uint8Array(7000 * 7000 * 4);
    for (let i = 0; i < px.length; i += 4) px[i] = px[i + 1] = px[i + 2] = (i >> 10) & 255, px[i + 3] = 255;
    const jpeg = await Transformer.fromRgbaPixels(px, 7000, 7000).jpeg(85);
    for (let i = 0; i < 8; i++) writeFileSync(join(files, `huge${i}.jpg`), jpeg);
  }
  // 8 subtitle files of 10 MB, in a folder shared publicly below.
  mkdirSync(join(files, 'subs'));
  for (let i = 0; i < 8; i++) writeFileSync(join(files, 'subs', `film${i}.srt`), bigSrt(10 * 1000 * 1000, `film${i}`));
  // 300,000 empty files whose names hold "report" (300 folders of 1,000), and carol's 3.
  for (let a = 0; a < 300; a++) {
    const d = join(files, 'big', `part-${a}`);
    mkdirSync(d, { recursive: true });
    for (let c = 0; c < 1000; c++) closeSync(openSync(join(d, `report-${a}-${c}.txt`), 'w'));
  }
  mkdirSync(join(files, 'carol'));
  for (const n of ['report-q1.txt', 'report-q2.txt', 'notes.txt']) writeFileSync(join(files, 'carol', n), 'c\n');
  writeFileSync(join(files, 'bomb.mp4'), pngBomb(16000, 16000));
  console.log(`data made in ${((performance.now() - t0) / 1000).toFixed(1)} s (${process.env.FILEDECK_BIN ? `binary ${process.env.FILEDECK_BIN}` : 'sources'})`);

  const db = join(work, 'db.sqlite');
  const srv = await startServer(['-a', '127.0.0.1', '-r', files, '-d', db, '--password', PW], { cwd: ROOT });
  const post = (path: string, body: unknown, token?: string) =>
    fetch(srv.url + path, { method: 'POST', body: JSON.stringify(body), headers: { 'Content-Type': 'application/json', ...(token ? { 'X-Auth': token } : {}) } });
  const admin = await (await post('/api/login', { username: 'admin', password: PW })).text();
  const login = async (name: string, pw: string, scope: string) => {
    await post('/api/users', { what: 'user', which: [], current_password: PW, data: { username: name, password: pw, scope, perm: { download: true } } }, admin);
    const token = await (await post('/api/login', { username: name, password: pw })).text();
    if (!token.includes('.')) throw new Error(`${name} cannot log in: ${token}`);
    return token;
  };
  const bob = await login('bob', 'bobs-bench-password-4410', '/bob');
  const carol = await login('carol', 'carols-bench-password-5521', '/carol');
  const share = (await (await post('/api/share/subs/', {}, admin)).json()) as { hash: string };

  // The name index: searched from once it is built (the walk answers before).
  const t1 = performance.now();
  for (;;) {
    const r = await fetch(`${srv.url}/api/search/?query=report`, { headers: { 'X-Auth': carol } });
    await r.arrayBuffer();
    if (r.headers.get('X-Search-Source') === 'index') break;
    await Bun.sleep(500);
  }
  console.log(`name index of ${300_000 + 30} entries ready in ${((performance.now() - t1) / 1000).toFixed(1)} s`);

  const listings = async (): Promise<number[]> => {
    const xs: number[] = [];
    for (let i = 0; i < 40; i++) {
      const start = performance.now();
      const r = await fetch(`${srv.url}/api/resources/twenty/`, { headers: { 'X-Auth': bob } });
      await r.arrayBuffer();
      xs.push(performance.now() - start);
      await Bun.sleep(50);
    }
    return xs;
  };
  const report = (label: string, xs: number[], extra = '') =>
    console.log(`  ${label.padEnd(52)} p50 ${pct(xs, 50).toFixed(1).padStart(6)} ms  p95 ${pct(xs, 95).toFixed(1).padStart(6)} ms  max ${Math.max(...xs).toFixed(1).padStart(7)} ms ${extra}`);
  /** Runs `load` (told to stop when the listings are done) beside 40 listings, and prints both. */
  const under = async (label: string, load: (done: () => boolean) => Promise<unknown>) => {
    const start = performance.now();
    let finished = false;
    const running = load(() => finished);
    const xs = await listings();
    finished = true;
    const what = await running;
    report(label, xs, `(load ${((performance.now() - start) / 1000).toFixed(1)} s, ${JSON.stringify(what)})`);
  };
  const count = (rs: Response[]) => rs.reduce<Record<number, number>>((m, r) => ((m[r.status] = (m[r.status] ?? 0) + 1), m), {});
  const drain = async (r: Response) => (await r.arrayBuffer(), r);

  console.log('listing of a 20-file folder by another user:');
  report('no load', await listings());
  if (!skipOld) {
    await under('150 concurrent wrong logins', async () => count(await Promise.all(Array.from({ length: 150 }, (_, i) => post('/api/login', { username: i % 2 ? 'admin' : `nobody${i}`, password: `wrong-${i}` })))));
    await under('8 concurrent 7000x7000 previews', async () => count(await Promise.all(Array.from({ length: 8 }, (_, i) => fetch(`${srv.url}/api/preview/big/huge${i}.jpg`, { headers: { 'X-Auth': admin } })))));
    await under('checksum (sha256) of a 4 GiB file', async () => count([await fetch(`${srv.url}/api/resources/big.bin?checksum=sha256`, { headers: { 'X-Auth': admin } })]));
  }
  await under('8 subtitle conversions of 10 MB .srt (public share)', async () => {
    const s = performance.now();
    const rs = await Promise.all(Array.from({ length: 8 }, (_, i) => fetch(`${srv.url}/api/public/subtitle/${share.hash}/film${i}.srt`).then(drain)));
    return { statuses: count(rs), allDoneS: +((performance.now() - s) / 1000).toFixed(1) };
  });
  await under('8 searches at a time, 3 files under 300,000', async (done) => {
    const times: number[] = [];
    const statuses: Record<number, number> = {};
    while (!done()) {
      const rs = await Promise.all(
        Array.from({ length: 8 }, async () => {
          const s = performance.now();
          const r = await drain(await fetch(`${srv.url}/api/search/?query=report`, { headers: { 'X-Auth': carol } }));
          times.push(performance.now() - s);
          return r;
        }),
      );
      for (const [k, v] of Object.entries(count(rs))) statuses[Number(k)] = (statuses[Number(k)] ?? 0) + v;
    }
    return { statuses, searches: times.length, searchP50Ms: +pct(times, 50).toFixed(1) };
  });
  await under('video thumbnail bomb (16000x16000 PNG as .mp4), x4', async () => {
    const out: string[] = [];
    for (let i = 0; i < 4; i++) {
      const s = performance.now();
      const r = await drain(await fetch(`${srv.url}/api/preview/thumb/bomb.mp4`, { headers: { 'X-Auth': admin } }));
      out.push(`${r.status} in ${(performance.now() - s).toFixed(0)} ms`);
    }
    return out;
  });
  const before = dbBytes(db);
  await under('wrong logins with 200 KB usernames, 16 senders', async (done) => {
    const statuses: Record<number, number> = {};
    const name = 'u'.repeat(200 * 1024);
    await Promise.all(
      Array.from({ length: 16 }, async (_, k) => {
        for (let i = 0; !done(); i++) {
          const r = await drain(await post('/api/login', { username: `${name}${k}-${i}`, password: 'wrong' }));
          statuses[r.status] = (statuses[r.status] ?? 0) + 1;
        }
      }),
    );
    return statuses;
  });
  console.log(`  database growth during the 200 KB-username flood: ${((dbBytes(db) - before) / 1024 / 1024).toFixed(2)} MiB (file, WAL and shared memory)`);
  await srv.stop();
} finally {
  rmSync(work, { recursive: true, force: true });
}
