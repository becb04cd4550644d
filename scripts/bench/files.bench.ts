/**
 * Files API benchmark, each figure set against a baseline measured in the same run:
 *   listing a 10,000-file folder (vs nginx autoindex JSON), the CPU per request of a 20-file folder of mixed types
 *   (scripts/bench/mixed-folder.ts; folder cache on, and off on a second server; vs nginx), download of a 1 GiB file (vs nginx), upload of a
 *   1 GiB file (vs cp; with server peak RSS), zip of a 1,000-file folder (vs tar; peak RSS), search of a
 *   100,000-file tree (vs find).
 * Usage: bun scripts/bench/files.bench.ts [--size-mb 1024]   (installs nginx with apt-get when missing and
 * allowed; skips the nginx baselines with a message otherwise)
 */
import { spawn, spawnSync } from 'bun';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { makeMixedFolder } from './mixed-folder';

const ROOT = resolve(import.meta.dir, '../..');
const BIN = process.env.FILEDECK_BIN ?? join(ROOT, 'dist/filedeck');
const args = process.argv.slice(2);
const SIZE_MB = args.includes('--size-mb') ? Number(args[args.indexOf('--size-mb') + 1]) : 1024;
if (!existsSync(BIN) && spawnSync([process.execPath, 'scripts/build.ts'], { cwd: ROOT, stdout: 'inherit' }).exitCode !== 0) process.exit(1);
const PW = 'bench-admin-password-1';
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const status = (pid: number, key: string) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;
const sh = (cmd: string[]) => spawnSync(cmd, { stdout: 'pipe', stderr: 'pipe' });
const results: [string, string][] = [];
const note = (k: string, v: string) => {
  results.push([k, v]);
  console.log(`  ${k.padEnd(58)} ${v}`);
};

async function freePort(): Promise<number> {
  const s = Bun.serve({ port: 0, fetch: () => new Response() });
  const p = s.port!;
  s.stop(true);
  return p;
}

function ensureNginx(): string | null {
  for (const p of ['/usr/sbin/nginx', '/usr/bin/nginx']) if (existsSync(p)) return p;
  if (process.getuid?.() === 0) {
    console.log('installing nginx for the baselines (apt-get)');
    sh(['apt-get', 'update']);
    sh(['apt-get', 'install', '-y', 'nginx-light']);
    if (existsSync('/usr/sbin/nginx')) return '/usr/sbin/nginx';
  }
  console.log('nginx is not available: nginx baselines skipped');
  return null;
}

const work = mkdtempSync(join(tmpdir(), 'filedeck-files-bench-'));
const data = join(work, 'files');
/** Every process started here: stopped, and their exit awaited, before the work folder goes (a server still shutting
 * down writes into it, and the removal would leave a folder behind). */
const procs: ReturnType<typeof spawn>[] = [];
try {
  console.log(`preparing data in ${work} ...`);
  mkdirSync(join(data, 'ten-k'), { recursive: true });
  for (let i = 0; i < 10_000; i++) writeFileSync(join(data, 'ten-k', `file-${i}.txt`), `file ${i}\n`);
  mkdirSync(join(data, 'thousand'));
  const chunk = Buffer.alloc(100 * 1024, 7);
  for (let i = 0; i < 1000; i++) writeFileSync(join(data, 'thousand', `f${i}.bin`), chunk);
  const tree = join(data, 'tree');
  for (let d = 0; d < 1000; d++) {
    const dir = join(tree, `d${Math.floor(d / 100)}`, `s${d}`);
    mkdirSync(dir, { recursive: true });
    for (let f = 0; f < 100; f++) writeFileSync(join(dir, `n${f}.dat`), '');
  }
  makeMixedFolder(join(data, 'mixed'));
  const big = join(work, 'big.bin');
  sh(['dd', 'if=/dev/urandom', `of=${big}`, 'bs=1M', `count=${SIZE_MB}`]);
  sh(['cp', big, join(data, 'big.bin')]);
  sh(['sync']);

  const port = await freePort();
  const start = () => {
    const p = spawn([BIN, 'serve', '-p', String(port), '-d', join(work, 'db.sqlite'), '-r', data, '--password', PW, '--log', ''], { stdout: 'ignore', stderr: 'ignore' });
    procs.push(p);
    return p;
  };
  const base = `http://127.0.0.1:${port}`;
  const waitUp = async () => {
    for (let i = 0; i < 500; i++) {
      try {
        if ((await fetch(`${base}/health`)).ok) return;
      } catch {}
      await Bun.sleep(10);
    }
    throw new Error('server did not start');
  };
  let server = start();
  await waitUp();
  const token = await (await fetch(`${base}/api/login`, { method: 'POST', body: JSON.stringify({ username: 'admin', password: PW }) })).text();
  const auth = { 'X-Auth': token };

  const nginxBin = ensureNginx();
  let nginx: ReturnType<typeof spawn> | null = null;
  const nport = await freePort();
  if (nginxBin) {
    const conf = join(work, 'nginx.conf');
    writeFileSync(conf, `${process.getuid?.() === 0 ? 'user root;' : ''}
worker_processes 1; daemon off; pid ${work}/nginx.pid; error_log ${work}/nginx-error.log;
events { worker_connections 256; }
http { access_log off; sendfile on; tcp_nopush on; client_body_temp_path ${work}/nginx-body; proxy_temp_path ${work}/nginx-proxy;
  fastcgi_temp_path ${work}/nginx-fcgi; uwsgi_temp_path ${work}/nginx-uwsgi; scgi_temp_path ${work}/nginx-scgi;
  server { listen 127.0.0.1:${nport}; root ${data}; location / { autoindex on; autoindex_format json; } } }
`);
    nginx = spawn([nginxBin, '-c', conf, '-p', work], { stdout: 'ignore', stderr: 'ignore' });
    procs.push(nginx);
    for (let i = 0; i < 200; i++) {
      try {
        if ((await fetch(`http://127.0.0.1:${nport}/`)).ok) break;
      } catch {}
      await Bun.sleep(10);
    }
  }

  console.log('\nFiledeck files benchmark');
  // 1. Listing a 10,000-file folder.
  const time = async (url: string, headers: Record<string, string> = {}) => {
    const t0 = performance.now();
    const r = await fetch(url, { headers });
    await r.arrayBuffer();
    if (!r.ok) throw new Error(`${url}: ${r.status}`);
    return performance.now() - t0;
  };
  const runs = async (n: number, f: () => Promise<number>) => {
    await f();
    const xs: number[] = [];
    for (let i = 0; i < n; i++) xs.push(await f());
    return median(xs);
  };
  // Uncompressed, as nginx's autoindex answers; then as a browser asks (br/gzip: smaller on the wire, more CPU).
  const list = await runs(15, () => time(`${base}/api/resources/ten-k/`, { ...auth, 'Accept-Encoding': 'identity' }));
  const listZ = await runs(15, () => time(`${base}/api/resources/ten-k/`, { ...auth, 'Accept-Encoding': 'br, gzip' }));
  if (nginx) {
    const nl = await runs(15, () => time(`http://127.0.0.1:${nport}/ten-k/`, { 'Accept-Encoding': 'identity' }));
    note('listing 10,000 files (median of 15)', `${list.toFixed(1)} ms (nginx autoindex JSON ${nl.toFixed(1)} ms, ratio ${(list / nl).toFixed(2)}x)`);
  } else note('listing 10,000 files (median of 15)', `${list.toFixed(1)} ms`);
  note('  the same, compressed for a browser (br)', `${listZ.toFixed(1)} ms`);

  // 1b. A small folder of mixed types (issue 39), CPU per request (all threads, from /proc) with 8 requests in flight
  // for 3 s, three rounds alternating ours (folder cache on), a second server with folderCache false whose root is that
  // folder (its own database: it indexes 20 files, not this tree), and nginx; the median of each round's ratio.
  if (nginx) {
    const cpuMs = (pid: number) => {
      const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      return ((Number(f[11]) + Number(f[12])) * 1000) / 100;
    };
    const cpuPerRequest = async (url: string, headers: Record<string, string>, pid: number) => {
      const c0 = cpuMs(pid);
      let n = 0;
      const end = performance.now() + 3000;
      await Promise.all(Array.from({ length: 8 }, async () => {
        while (performance.now() < end) {
          await (await fetch(url, { headers })).arrayBuffer();
          n++;
        }
      }));
      return ((cpuMs(pid) - c0) * 1000) / n;
    };
    const oport = await freePort();
    mkdirSync(join(work, 'off'));
    const off = spawn([BIN, 'serve', '-p', String(oport), '-d', join(work, 'off', 'db.sqlite'), '-r', join(data, 'mixed'), '--password', PW, '--log', '', '--folderCache', 'false'], { stdout: 'ignore', stderr: 'ignore' });
    procs.push(off);
    for (let i = 0; i < 500 && !(await fetch(`http://127.0.0.1:${oport}/health`).then((r) => r.ok, () => false)); i++) await Bun.sleep(10);
    const offToken = await (await fetch(`http://127.0.0.1:${oport}/api/login`, { method: 'POST', body: JSON.stringify({ username: 'admin', password: PW }) })).text();
    const nginxWorker = Number(sh(['pgrep', '-P', readFileSync(join(work, 'nginx.pid'), 'utf8').trim()]).stdout.toString().trim().split('\n')[0]);
    const plain = { 'Accept-Encoding': 'identity' };
    const ours = () => cpuPerRequest(`${base}/api/resources/mixed/`, { ...auth, ...plain }, server.pid);
    const theirs = () => cpuPerRequest(`http://127.0.0.1:${nport}/mixed/`, plain, nginxWorker);
    const ourOff = () => cpuPerRequest(`http://127.0.0.1:${oport}/api/resources/`, { 'X-Auth': offToken, ...plain }, off.pid);
    await ours(); // warm-up: the JIT compiles the request path
    await ourOff();
    const rounds: { on: number; off: number; nginx: number }[] = [];
    for (let i = 0; i < 3; i++) rounds.push({ on: await ours(), nginx: await theirs(), off: await ourOff() });
    const mid = (f: (r: (typeof rounds)[number]) => number) => median(rounds.map(f));
    note('20 files of mixed types, CPU per request (3 rounds)', `${mid((r) => r.on).toFixed(0)} µs (nginx ${mid((r) => r.nginx).toFixed(0)} µs, ratio ${mid((r) => r.on / r.nginx).toFixed(2)}x)`);
    note('  the same with folderCache false', `${mid((r) => r.off).toFixed(0)} µs (ratio ${mid((r) => r.off / r.nginx).toFixed(2)}x)`);
    off.kill();
    await off.exited;
  }

  // 2. Download of the big file, with curl as the client for both.
  const curlSpeed = (url: string, extra: string[] = []) => Number(sh(['curl', '-s', '-o', '/dev/null', '-w', '%{speed_download}', ...extra, url]).stdout.toString()) / 1e6;
  const dl = median([0, 1, 2].map(() => curlSpeed(`${base}/api/raw/big.bin`, ['-H', `X-Auth: ${token}`])));
  if (nginx) {
    const ndl = median([0, 1, 2].map(() => curlSpeed(`http://127.0.0.1:${nport}/big.bin`)));
    note(`download ${SIZE_MB} MiB (median of 3)`, `${dl.toFixed(0)} MB/s (nginx ${ndl.toFixed(0)} MB/s, ratio ${(dl / ndl).toFixed(2)}x)`);
  } else note(`download ${SIZE_MB} MiB (median of 3)`, `${dl.toFixed(0)} MB/s`);

  // 2b. The same download through a public share link, against the authenticated raw download above.
  const share = await (await fetch(`${base}/api/share/big.bin`, { method: 'POST', headers: auth, body: '{}' })).json() as { hash: string };
  const pub = median([0, 1, 2].map(() => curlSpeed(`${base}/api/public/dl/${share.hash}`)));
  note(`public share download ${SIZE_MB} MiB (median of 3)`, `${pub.toFixed(0)} MB/s (authenticated raw ${dl.toFixed(0)} MB/s, ratio ${(pub / dl).toFixed(2)}x)`);

  // 3. Upload of the big file (fresh server so its peak RSS is this upload's), vs cp to the same disk.
  server.kill();
  await server.exited;
  server = start();
  await waitUp();
  const rssBefore = status(server.pid, 'VmRSS');
  const up = sh(['curl', '-s', '-o', '/dev/null', '-w', '%{speed_upload} %{http_code}', '-X', 'POST', '-T', big, '-H', `X-Auth: ${token}`, '-H', 'Expect:', `${base}/api/resources/uploaded.bin?override=true`]).stdout.toString().split(' ');
  if (up[1] !== '200') throw new Error(`upload failed: ${up[1]}`);
  const upPeak = status(server.pid, 'VmHWM');
  const t0 = performance.now();
  sh(['cp', big, join(work, 'cp-copy.bin')]);
  sh(['sync']);
  const cpSpeed = (SIZE_MB * 1048576) / 1e6 / ((performance.now() - t0) / 1000);
  note(`upload ${SIZE_MB} MiB`, `${(Number(up[0]) / 1e6).toFixed(0)} MB/s (cp + sync ${cpSpeed.toFixed(0)} MB/s, ratio ${(Number(up[0]) / 1e6 / cpSpeed).toFixed(2)}x)`);
  note('  server peak RSS during upload', `${upPeak.toFixed(0)} MB (idle ${rssBefore.toFixed(0)} MB)`);

  // 4. Zip of a 1,000-file folder (fresh server again), vs tar of the same folder.
  server.kill();
  await server.exited;
  server = start();
  await waitUp();
  const zipMs = await time(`${base}/api/raw/thousand?algo=zip`, auth);
  const zipPeak = status(server.pid, 'VmHWM');
  const tt = performance.now();
  sh(['sh', '-c', `tar -cf - -C '${data}' thousand | cat > /dev/null`]); // GNU tar skips reading when writing to /dev/null itself
  const tarMs = performance.now() - tt;
  note('zip of 1,000 files (100 MB)', `${(zipMs / 1000).toFixed(2)} s (tar ${(tarMs / 1000).toFixed(2)} s), server peak RSS ${zipPeak.toFixed(0)} MB`);

  // 5. Search of a 100,000-file tree: a query matching nothing walks everything.
  const searchMs = await runs(5, () => time(`${base}/api/search/tree?query=zzz`, auth));
  const ft = performance.now();
  sh(['find', tree, '-name', '*zzz*']);
  note('search 100,000 files (median of 5)', `${searchMs.toFixed(0)} ms (find ${(performance.now() - ft).toFixed(0)} ms)`);
} finally {
  for (const p of procs) p.kill();
  await Promise.all(procs.map((p) => p.exited));
  rmSync(work, { recursive: true, force: true });
}
