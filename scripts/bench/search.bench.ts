/**
 * Name-index benchmark (issue 15; not a test, prints figures). On 1,000,000 files (../shared/bench/gen-scale.mjs
 * search-1m, made once into DIR and reused): the server's initial index time and its peak RSS during the build, a
 * 20-file listing's latency while it indexes, search p50/p99 through the HTTP API, how soon a file created by
 * another process is found; anchors in the same run: plocate (updatedb + query) and find -iname. With --pg, the
 * same names in PostgreSQL with a pg_trgm GIN index (the alternative design), for the ARCHITECTURE.md choice.
 * Usage: bun scripts/bench/search.bench.ts [--data DIR] [--runs 2] [--pg]
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startServer } from '../../tests/helpers/binary';

const ROOT = resolve(import.meta.dir, '../..');
const arg = (name: string, dflt: string) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1]! : dflt);
const DATA = arg('--data', join(tmpdir(), 'filedeck-search-1m'));
const RUNS = Number(arg('--runs', '2'));
const PW = 'bench-admin-password-1';
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))]!;
const ms = (x: number) => `${x.toFixed(1)} ms`;
const rssOf = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
const time = (cmd: string[]) => {
  const t0 = performance.now();
  const r = Bun.spawnSync(cmd, { stdout: 'pipe', stderr: 'pipe' });
  return { ms: performance.now() - t0, out: r.stdout.toString(), code: r.exitCode };
};

if (!existsSync(join(DATA, 'top-9'))) {
  console.log(`generating 1,000,000 files in ${DATA} …`);
  Bun.spawnSync(['node', resolve(ROOT, '../shared/bench/gen-scale.mjs'), 'search-1m', DATA], { stdout: 'inherit' });
}
mkdirSync(join(DATA, 'twenty'), { recursive: true });
for (let i = 0; i < 20; i++) writeFileSync(join(DATA, 'twenty', `f${i}.txt`), `${i}`);

async function run(n: number): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'filedeck-search-bench-'));
  const t0 = performance.now();
  const srv = await startServer(['-a', '127.0.0.1', '-r', DATA, '-d', join(work, 'db.sqlite'), '--password', PW], { cwd: ROOT });
  try {
    const token = await (await fetch(`${srv.url}/api/login`, { method: 'POST', body: JSON.stringify({ username: 'admin', password: PW }) })).text();
    const get = (path: string) => fetch(srv.url + path, { headers: { 'X-Auth': token } });
    // While it indexes: RSS every 100 ms, a small listing every 100 ms, until search answers from the index.
    let peak = 0;
    const listing: number[] = [];
    let built = 0;
    for (;;) {
      peak = Math.max(peak, rssOf(srv.proc.pid));
      const l0 = performance.now();
      await (await get('/api/resources/twenty')).arrayBuffer();
      listing.push(performance.now() - l0);
      const r = await get('/api/search/twenty?query=zzzz');
      await r.arrayBuffer();
      if (r.headers.get('X-Search-Source') === 'index') {
        built = performance.now() - t0;
        break;
      }
      await Bun.sleep(100);
    }
    console.log(`run ${n}: initial index ${(built / 1000).toFixed(1)} s (from process start), peak RSS ${peak.toFixed(0)} MB; 20-file listing while indexing p50 ${ms(pct(listing, 50))}, max ${ms(Math.max(...listing))} (${listing.length} requests)`);
    // Needles, then broad queries (tens of thousands of hits, streamed): for those, when the first result arrived too.
    for (const q of ['needle', 'bravo-1234', 'type:pdf report', 'txt']) {
      const broad = q === 'txt' || q.startsWith('type:');
      const xs: number[] = [];
      const firsts: number[] = [];
      let hits = 0;
      for (let i = 0; i < (broad ? 5 : 200); i++) {
        const s0 = performance.now();
        const reader = (await get(`/api/search/?query=${encodeURIComponent(q)}`)).body!.getReader();
        let first = 0;
        hits = 0;
        for (let r = await reader.read(); !r.done; r = await reader.read()) {
          for (const b of r.value) if (b === 10) hits++;
          if (hits && !first) first = performance.now() - s0;
        }
        xs.push(performance.now() - s0);
        firsts.push(first);
      }
      console.log(`run ${n}: search "${q}" (${hits} hits) p50 ${ms(pct(xs, 50))}, p99 ${ms(pct(xs, 99))}${broad ? `; first result p50 ${ms(pct(firsts, 50))}` : ''}`);
    }
    const fresh = `fresh-${Math.random().toString(36).slice(2, 10)}.txt`;
    const c0 = performance.now();
    writeFileSync(join(DATA, 'top-3', readdirSync(join(DATA, 'top-3'))[7]!, fresh), 'new');
    let found = 0;
    while (performance.now() - c0 < 30_000) {
      if ((await (await get(`/api/search/?query=${fresh}`)).text()).includes(fresh)) {
        found = performance.now() - c0;
        break;
      }
      await Bun.sleep(20);
    }
    console.log(`run ${n}: a file created by another process found after ${found ? ms(found) : 'NOT within 30 s'}; RSS now ${rssOf(srv.proc.pid).toFixed(0)} MB`);
    for (const d of readdirSync(join(DATA, 'top-3'))) for (const f of readdirSync(join(DATA, 'top-3', d))) if (f.startsWith('fresh-')) rmSync(join(DATA, 'top-3', d, f));
  } finally {
    await srv.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

function anchors(): void {
  const db = join(tmpdir(), `filedeck-bench-plocate-${process.pid}.db`);
  const up = time(['updatedb', '-l', '0', '-U', DATA, '-o', db]);
  const pl = time(['plocate', '-d', db, '-i', 'needle']);
  const fi = time(['find', DATA, '-iname', '*needle*']);
  console.log(`anchors: updatedb ${(up.ms / 1000).toFixed(2)} s${up.code ? ' (failed: is plocate installed?)' : ''}; plocate -i needle ${ms(pl.ms)} (${pl.out.split('\n').filter(Boolean).length} hits); find -iname ${ms(fi.ms)} (${fi.out.split('\n').filter(Boolean).length} hits)`);
  rmSync(db, { force: true });
}

/** The alternative: the names in PostgreSQL with pg_trgm (one shared index instead of one per instance). */
async function postgres(): Promise<void> {
  const { startPostgres } = await import('../../tests/helpers/postgres');
  const { SQL } = await import('bun');
  const pg = await startPostgres();
  const sql = new SQL(pg.url);
  try {
    await sql.unsafe('create extension if not exists pg_trgm; create table names (id serial primary key, path text not null, name text not null)');
    const t0 = performance.now();
    const rows: { path: string; name: string }[] = [];
    const flush = async () => {
      if (rows.length) await sql`insert into names ${sql(rows.splice(0))}`;
    };
    for (const a of readdirSync(DATA)) for (const b of readdirSync(join(DATA, a)).filter(() => a.startsWith('top-'))) {
      for (const f of readdirSync(join(DATA, a, b))) rows.push({ path: `/${a}/${b}/${f}`, name: f });
      if (rows.length >= 20_000) await flush();
    }
    await flush();
    const load = performance.now() - t0;
    const i0 = performance.now();
    await sql.unsafe('create index names_trgm on names using gin (name gin_trgm_ops); analyze names');
    const idx = performance.now() - i0;
    const xs: number[] = [];
    let hits = 0;
    for (let i = 0; i < 100; i++) {
      const s0 = performance.now();
      hits = (await sql`select path from names where name ilike ${'%needle%'}`).length;
      xs.push(performance.now() - s0);
    }
    const size = (await sql`select pg_total_relation_size('names') as b`)[0].b;
    console.log(`pg_trgm: load ${(load / 1000).toFixed(1)} s + GIN index ${(idx / 1000).toFixed(1)} s, ${(Number(size) / 1048576).toFixed(0)} MB; ilike '%needle%' (${hits} hits) p50 ${ms(pct(xs, 50))}, p99 ${ms(pct(xs, 99))}`);
  } finally {
    await sql.close();
    pg.stop();
  }
}

anchors();
for (let n = 1; n <= RUNS; n++) await run(n);
if (process.argv.includes('--pg')) await postgres();
