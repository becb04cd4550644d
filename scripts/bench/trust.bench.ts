/**
 * Availability benchmark (not a test; prints figures): starts the server from sources on 127.0.0.1 and measures
 * another user's listing of a 20-file folder (p50/p95/max over 40 requests, one every 50 ms) with no load, then
 * under (a) 150 concurrent wrong logins, (b) 8 concurrent previews of a 7000×7000 image, (c) a checksum of a
 * 4 GiB sparse file. The bar: every figure under 200 ms.
 * Usage: bun scripts/bench/trust.bench.ts
 */
import { mkdirSync, mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Transformer } from '@napi-rs/image';
import { startServer } from '../../tests/helpers/binary';

const ROOT = resolve(import.meta.dir, '../..');
const PW = 'bench-admin-password-1';
const work = mkdtempSync(join(tmpdir(), 'filedeck-trust-bench-'));
const files = join(work, 'files');
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))]!;

try {
  mkdirSync(join(files, 'bob', 'twenty'), { recursive: true });
  for (let i = 0; i < 20; i++) writeFileSync(join(files, 'bob', 'twenty', `f${i}.txt`), `file ${i}\n`);
  writeFileSync(join(files, 'big.bin'), '');
  truncateSync(join(files, 'big.bin'), 4 * 1024 ** 3);
  const px = new Uint8Array(7000 * 7000 * 4);
  for (let i = 0; i < px.length; i += 4) px[i] = px[i + 1] = px[i + 2] = (i >> 10) & 255, px[i + 3] = 255;
  writeFileSync(join(files, 'huge.jpg'), await Transformer.fromRgbaPixels(px, 7000, 7000).jpeg(85));
  for (let i = 0; i < 8; i++) writeFileSync(join(files, `huge${i}.jpg`), Bun.file(join(files, 'huge.jpg')).size ? await Bun.file(join(files, 'huge.jpg')).bytes() : '');

  const srv = await startServer(['-a', '127.0.0.1', '-r', files, '-d', join(work, 'db.sqlite'), '--password', PW], { cwd: ROOT });
  const post = (path: string, body: unknown, token?: string) =>
    fetch(srv.url + path, { method: 'POST', body: JSON.stringify(body), headers: { 'Content-Type': 'application/json', ...(token ? { 'X-Auth': token } : {}) } });
  const admin = await (await post('/api/login', { username: 'admin', password: PW })).text();
  const bobPw = 'bobs-bench-password-4410';
  await post('/api/users', { what: 'user', which: [], current_password: PW, data: { username: 'bob', password: bobPw, scope: '/bob', perm: { download: true } } }, admin);
  const bob = await (await post('/api/login', { username: 'bob', password: bobPw })).text();
  if (!bob.includes('.')) throw new Error(`bob cannot log in: ${bob}`);

  const listings = async (): Promise<number[]> => {
    const xs: number[] = [];
    for (let i = 0; i < 40; i++) {
      const t0 = performance.now();
      const r = await fetch(`${srv.url}/api/resources/twenty/`, { headers: { 'X-Auth': bob } });
      await r.arrayBuffer();
      xs.push(performance.now() - t0);
      await Bun.sleep(50);
    }
    return xs;
  };
  const report = (label: string, xs: number[], extra = '') =>
    console.log(`  ${label.padEnd(44)} p50 ${pct(xs, 50).toFixed(1).padStart(6)} ms  p95 ${pct(xs, 95).toFixed(1).padStart(6)} ms  max ${Math.max(...xs).toFixed(1).padStart(6)} ms ${extra}`);
  const under = async (label: string, load: () => Promise<unknown>) => {
    const t0 = performance.now();
    const running = load();
    const xs = await listings();
    const statuses = await running;
    report(label, xs, `(load ${((performance.now() - t0) / 1000).toFixed(1)} s, statuses ${JSON.stringify(statuses)})`);
  };
  const count = (rs: Response[]) => rs.reduce<Record<number, number>>((m, r) => ((m[r.status] = (m[r.status] ?? 0) + 1), m), {});

  console.log('listing of a 20-file folder by another user:');
  report('no load', await listings());
  await under('150 concurrent wrong logins', async () => count(await Promise.all(Array.from({ length: 150 }, (_, i) => post('/api/login', { username: i % 2 ? 'admin' : `nobody${i}`, password: `wrong-${i}` })))));
  await under('8 concurrent 7000x7000 previews', async () => count(await Promise.all(Array.from({ length: 8 }, (_, i) => fetch(`${srv.url}/api/preview/big/huge${i}.jpg`, { headers: { 'X-Auth': admin } })))));
  await under('checksum (sha256) of a 4 GiB file', async () => count([await fetch(`${srv.url}/api/resources/big.bin?checksum=sha256`, { headers: { 'X-Auth': admin } })]));
  await srv.stop();
} finally {
  rmSync(work, { recursive: true, force: true });
}
