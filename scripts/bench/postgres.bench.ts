/**
 * PostgreSQL benchmark (issue 13): small-listing requests/s and login+list latency on PostgreSQL vs SQLite in the
 * same run, and the same listing through two PostgreSQL instances behind Debian's nginx (round-robin) vs one.
 * Usage: bun scripts/bench/postgres.bench.ts
 *   Runs dist/filedeck when it exists (or FILEDECK_BIN), else the sources. Needs Debian's postgresql and nginx.
 * The load generator is a fetch loop in this process, so it shares the machine's cores with the servers: the
 * ratios are the figures to read, not the absolute rates.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { spawnSync } from 'bun';

const ROOT = resolve(import.meta.dir, '../..');
if (!process.env.FILEDECK_BIN && existsSync(join(ROOT, 'dist/filedeck'))) process.env.FILEDECK_BIN = join(ROOT, 'dist/filedeck');
// Imported after FILEDECK_BIN is settled; the helpers read it when they spawn.
const { filedeckCommand, startServer } = await import('../../tests/helpers/binary');
const { nginxAvailable, startNginx } = await import('../../tests/helpers/nginx');
const { postgresAvailable, startPostgres } = await import('../../tests/helpers/postgres');

if (!postgresAvailable() || !nginxAvailable()) {
  console.error('needs Debian packages postgresql and nginx');
  process.exit(1);
}
if (spawnSync(['which', 'wrk']).exitCode === 0) console.log('(wrk is installed but this script uses a fetch loop for all rows, so they compare alike)');

const PW = 'pg-bench-admin-password-4417';
const CONNS = 16;
const SECONDS = 5;
const LOGINS = 50;
const LISTING = '/api/resources/small/';

/** Everything started, stopped in reverse order whatever happens (errors, Ctrl-C). */
const cleanups: (() => unknown)[] = [];
async function cleanup(): Promise<void> {
  while (cleanups.length) {
    try {
      await cleanups.pop()!();
    } catch (e) {
      console.error('cleanup:', e);
    }
  }
}
process.on('SIGINT', () => void cleanup().then(() => process.exit(130)));

const login = async (base: string): Promise<string> => {
  const r = await fetch(`${base}/api/login`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ username: 'admin', password: PW }) });
  if (r.status !== 200) throw new Error(`login at ${base}: ${r.status} ${await r.text()}`);
  return r.text();
};

async function list(base: string, token: string): Promise<void> {
  const r = await fetch(base + LISTING, { headers: { 'X-Auth': token } });
  const body = (await r.json()) as { items?: unknown[] };
  if (r.status !== 200 || body.items?.length !== 20) throw new Error(`listing at ${base}: ${r.status} ${JSON.stringify(body).slice(0, 200)}`);
}

/** Listing requests per second at CONNS concurrent loops for `seconds` (after a short warm-up). */
async function listingRate(base: string, token: string, seconds = SECONDS): Promise<number> {
  const loop = async (until: number, count: { n: number }) => {
    while (performance.now() < until) {
      await list(base, token);
      count.n++;
    }
  };
  const warm = { n: 0 };
  const warmEnd = performance.now() + 1000;
  await Promise.all(Array.from({ length: CONNS }, () => loop(warmEnd, warm)));
  const count = { n: 0 };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: CONNS }, () => loop(t0 + seconds * 1000, count)));
  return count.n / ((performance.now() - t0) / 1000);
}

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))]!;

/** p50/p95 in ms of POST /api/login followed by GET of the listing with the new token, one after another. */
async function loginListLatency(base: string): Promise<{ p50: number; p95: number }> {
  for (let i = 0; i < 3; i++) await list(base, await login(base));
  const times: number[] = [];
  for (let i = 0; i < LOGINS; i++) {
    const t0 = performance.now();
    await list(base, await login(base));
    times.push(performance.now() - t0);
  }
  return { p50: pct(times, 50), p95: pct(times, 95) };
}

try {
  const dir = mkdtempSync(join(tmpdir(), 'filedeck-pgbench-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const files = join(dir, 'files');
  mkdirSync(join(files, 'small'), { recursive: true });
  for (let i = 0; i < 20; i++) writeFileSync(join(files, 'small', `file-${String(i).padStart(2, '0')}.txt`), `small file ${i}\n`.repeat(i + 1));

  const pg = await startPostgres();
  cleanups.push(() => pg.stop());
  const common = ['-r', files, '--log', '', '--username', 'admin', '--password', PW];
  // The helper picks a random port, which can meet one in use (seen once): a few tries.
  const nginx = async (upstreams: string[]) => {
    for (let attempt = 1; ; attempt++) {
      try {
        const n = await startNginx(upstreams);
        cleanups.push(() => n.stop());
        return n;
      } catch (e) {
        if (attempt >= 3 || !String(e).includes('Address already in use')) throw e;
      }
    }
  };
  const start = async (db: string, cache: string) => {
    const s = await startServer(['-d', db, '--cacheDir', join(dir, cache), ...common], { cwd: dir });
    cleanups.push(() => s.stop());
    return s;
  };
  const lite = await start(join(dir, 'filedeck.db'), 'cache-lite');
  // The first PostgreSQL start migrates and makes the admin; the second meets a ready database.
  const pgA = await start(pg.url, 'cache-pg');
  const pgB = await start(pg.url, 'cache-pg');
  const lb2 = await nginx([pgA.url, pgB.url]);
  const lb1 = await nginx([pgA.url]);

  console.log(`filedeck: ${filedeckCommand().join(' ')}; listing of 20 files, ${CONNS} concurrent fetch loops, ${SECONDS} s each; login+list x${LOGINS}`);
  const tLite = await login(lite.url);
  const tPg = await login(pgA.url);
  const rate = {
    lite: await listingRate(lite.url, tLite),
    pg: await listingRate(pgA.url, tPg),
    pgNginx1: await listingRate(lb1.url, tPg),
    pgNginx2: await listingRate(lb2.url, tPg),
  };
  const lat = { lite: await loginListLatency(lite.url), pg: await loginListLatency(pgA.url) };

  const f = (n: number) => n.toFixed(0).padStart(11);
  const ms = (n: number) => n.toFixed(1).padStart(11);
  const x = (n: number) => `${n.toFixed(2)}x`.padStart(11);
  console.log(`
                              SQLite  PostgreSQL  PG/SQLite
small listing, req/s     ${f(rate.lite)} ${f(rate.pg)} ${x(rate.pg / rate.lite)}
login+list p50, ms       ${ms(lat.lite.p50)} ${ms(lat.pg.p50)} ${x(lat.pg.p50 / lat.lite.p50)}
login+list p95, ms       ${ms(lat.lite.p95)} ${ms(lat.pg.p95)} ${x(lat.pg.p95 / lat.lite.p95)}

PostgreSQL listing, req/s   1 direct  1 via nginx  2 via nginx  2 nginx/1 direct  2 nginx/1 nginx
                         ${f(rate.pg)}  ${f(rate.pgNginx1)}  ${f(rate.pgNginx2)}       ${x(rate.pgNginx2 / rate.pg)}      ${x(rate.pgNginx2 / rate.pgNginx1)}
(${navigator.hardwareConcurrency} cores shared by the servers, PostgreSQL, nginx and the load generator)`);
} finally {
  await cleanup();
}
