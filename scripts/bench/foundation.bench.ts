/**
 * Foundation benchmark: cold start of the compiled binary to its first 200, the first authenticated listing after a
 * start, idle RSS (issue 39: after start and one listing, 3 s idle), and request rates for login and GET /api/users,
 * each set against a bare Bun.serve baseline measured in the same run.
 * Usage: bun scripts/bench/foundation.bench.ts   (builds dist/filedeck first if missing; uses wrk when installed)
 */
import { spawn, spawnSync } from 'bun';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dir, '../..');
const BIN = process.env.FILEDECK_BIN ?? join(ROOT, 'dist/filedeck');
if (!existsSync(BIN) && spawnSync([process.execPath, 'scripts/build.ts'], { cwd: ROOT, stdout: 'inherit' }).exitCode !== 0) process.exit(1);
const PW = 'bench-admin-password-1';
const hasWrk = spawnSync(['which', 'wrk']).exitCode === 0;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const rssMB = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

async function freePort(): Promise<number> {
  const s = Bun.serve({ port: 0, fetch: () => new Response() });
  const p = s.port!;
  s.stop(true);
  return p;
}

async function waitFor200(url: string, t0: number, limitMs = 10_000): Promise<number> {
  for (;;) {
    try {
      if ((await fetch(url)).status === 200) return performance.now() - t0;
    } catch {}
    if (performance.now() - t0 > limitMs) throw new Error(`no 200 from ${url}`);
    await Bun.sleep(2);
  }
}

function startBinary(dir: string, port: number) {
  return spawn([BIN, 'serve', '-p', String(port), '-d', join(dir, 'db.sqlite'), '-r', join(dir, 'files'), '--password', PW, '--log', ''], { cwd: dir, stdout: 'ignore', stderr: 'ignore' });
}

/** Requests per second for `seconds`, with wrk when present, else a fetch loop (which shares our cores). */
async function load(url: string, opts: { conns: number; seconds: number; method?: string; body?: string; headers?: Record<string, string> }): Promise<number> {
  if (hasWrk) {
    const lua = join(tmpdir(), `fd-bench-${process.pid}.lua`);
    writeFileSync(lua, `wrk.method = "${opts.method ?? 'GET'}"\n${opts.body ? `wrk.body = ${JSON.stringify(opts.body)}\n` : ''}${Object.entries(opts.headers ?? {}).map(([k, v]) => `wrk.headers["${k}"] = "${v}"`).join('\n')}\n`);
    const r = spawnSync(['wrk', '-t', '1', '-c', String(opts.conns), '-d', `${opts.seconds}s`, '-s', lua, url]);
    const out = r.stdout.toString();
    const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0);
    if (non2xx) throw new Error(`${non2xx} failed responses from ${url}`);
    return Number(/Requests\/sec:\s+([\d.]+)/.exec(out)![1]);
  }
  let done = 0;
  const end = performance.now() + opts.seconds * 1000;
  await Promise.all(Array.from({ length: opts.conns }, async () => {
    while (performance.now() < end) {
      const r = await fetch(url, { method: opts.method, body: opts.body, headers: opts.headers });
      await r.arrayBuffer();
      if (r.status !== 200) throw new Error(`status ${r.status} from ${url}`);
      done++;
    }
  }));
  return done / opts.seconds;
}

const results: Record<string, string> = {};
const dir = mkdtempSync(join(tmpdir(), 'filedeck-bench-'));
try {
  // Cold start, first run (creates the database and hashes the admin password) and later runs.
  const first: number[] = [];
  const warm: number[] = [];
  for (let i = 0; i < 7; i++) {
    const d = mkdtempSync(join(dir, 'run-'));
    for (const bucket of [first, warm]) {
      const port = await freePort();
      const t0 = performance.now();
      const p = startBinary(d, port);
      bucket.push(await waitFor200(`http://127.0.0.1:${port}/health`, t0));
      p.kill();
      await p.exited;
    }
  }
  results['cold start to first 200, existing database (median of 7)'] = `${median(warm).toFixed(0)} ms`;
  results['cold start to first 200, first run incl. setup (median of 7)'] = `${median(first).toFixed(0)} ms`;

  // A 20-file folder to list: the idle figure is taken after start and one listing, then 3 s idle (issue 39).
  mkdirSync(join(dir, 'files', 'docs'), { recursive: true });
  for (let i = 0; i < 20; i++) writeFileSync(join(dir, 'files', 'docs', `note-${i}.md`), `# note ${i}\n`);
  const loginBody = JSON.stringify({ username: 'admin', password: PW });
  // The first authenticated listing after a start (existing database): start, login (bcrypt), list.
  const firstListing: number[] = [];
  for (let i = 0; i < 5; i++) {
    const port = await freePort();
    const t0 = performance.now();
    const q = startBinary(dir, port);
    await waitFor200(`http://127.0.0.1:${port}/health`, t0);
    const tok = await (await fetch(`http://127.0.0.1:${port}/api/login`, { method: 'POST', body: loginBody })).text();
    await (await fetch(`http://127.0.0.1:${port}/api/resources/docs/`, { headers: { 'X-Auth': tok } })).arrayBuffer();
    firstListing.push(performance.now() - t0);
    q.kill();
    await q.exited;
  }
  results['start to first authenticated listing (login + list, median of 5)'] = `${median(firstListing).toFixed(0)} ms`;
  const port = await freePort();
  const p = startBinary(dir, port);
  const base = `http://127.0.0.1:${port}`;
  await waitFor200(`${base}/health`, performance.now());
  const token = await (await fetch(`${base}/api/login`, { method: 'POST', body: loginBody })).text();
  await (await fetch(`${base}/api/resources/docs/`, { headers: { 'X-Auth': token } })).arrayBuffer();
  await Bun.sleep(3000);
  results['idle RSS after start and one listing, 3 s idle'] = `${rssMB(p.pid).toFixed(1)} MB`;

  // Baseline: the same machine's bare Bun.serve answering a small JSON body.
  const bport = await freePort();
  const baseline = spawn([process.execPath, '-e', `Bun.serve({port:${bport},hostname:'127.0.0.1',fetch:()=>Response.json([{id:1,username:'admin'}])})`], { stdout: 'ignore' });
  await waitFor200(`http://127.0.0.1:${bport}/`, performance.now());
  const bare = await load(`http://127.0.0.1:${bport}/`, { conns: 32, seconds: 5 });
  baseline.kill();
  const users = await load(`${base}/api/users`, { conns: 32, seconds: 5, headers: { 'X-Auth': token } });
  const logins = await load(`${base}/api/login`, { conns: 8, seconds: 5, method: 'POST', body: loginBody, headers: { 'Content-Type': 'application/json' } });
  results['GET /api/users (authenticated, 32 conns)'] = `${users.toFixed(0)} req/s (${(users / bare).toFixed(2)}x a bare Bun.serve at ${bare.toFixed(0)} req/s)`;
  results['POST /api/login (bcrypt cost 10, 8 conns)'] = `${logins.toFixed(0)} req/s`;
  results['RSS after load'] = `${rssMB(p.pid).toFixed(1)} MB`;
  results['load generator'] = hasWrk ? 'wrk -t1' : 'in-process fetch loop (install wrk for steadier figures)';
  p.kill();
  await p.exited;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
console.log('\nFiledeck foundation benchmark');
for (const [k, v] of Object.entries(results)) console.log(`  ${k.padEnd(62)} ${v}`);
