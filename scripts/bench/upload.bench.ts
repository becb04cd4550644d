/**
 * Upload benchmark (issue 39, item 3): a 1 GiB upload through Filedeck, acknowledged only once on stable storage,
 * against two anchors on the same disk in the same run:
 *   - nginx's WebDAV PUT (Debian's nginx, `dav_methods PUT`): what a plain web server does; it does not sync;
 *   - `cp` then `sync`: the local copy with the durability we promise.
 * Filedeck is measured through the web app's upload (`POST /api/resources/<path>?override=true`) and WebDAV PUT.
 * Each figure three times, alternating, median kept; curl is the client for all (`Expect:` off). The server's CPU
 * time per upload is shown too (less moved by other work on a shared machine than wall time).
 * Here (2 cores, 2026-12-02), two runs on a throttled disk (cp+sync 92 / 96 MB/s): web upload 0.67x / 1.38x nginx's
 * PUT (0.92x / 1.57x cp+sync), WebDAV PUT 0.76x / 1.72x (1.05x / 1.95x); on the same disk unthrottled earlier
 * (cp+sync 289 MB/s) the web upload ran at 0.99x nginx's PUT.
 * Usage: FILEDECK_BIN=/path/to/filedeck bun scripts/bench/upload.bench.ts  (BENCH_DIR: where the data goes)
 */
import { spawn, spawnSync } from 'bun';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { cli, startServer } from '../../tests/helpers/binary';

const ROOT = resolve(import.meta.dir, '../..');
const MIB = 1024 * 1024;
const SIZE = 1024 * MIB;
const PW = 'bench-admin-password-39';
const ROUNDS = 3;

const cpuMs = (pid: number) => {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(f[11]) + Number(f[12])) * 10;
};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function nginxBin(): string {
  for (const p of ['/usr/sbin/nginx', '/usr/bin/nginx']) if (existsSync(p)) return p;
  throw new Error('nginx is needed for the anchor (scripts/bootstrap.mjs installs it)');
}

async function freePort(): Promise<number> {
  const s = Bun.serve({ port: 0, fetch: () => new Response() });
  const p = s.port!;
  s.stop(true);
  return p;
}

/** curl's upload: answers seconds and checks the status. */
function curlUp(args: string[]): number {
  const r = spawnSync(['curl', '-sS', '-o', '/dev/null', '-H', 'Expect:', '-w', '%{http_code} %{time_total}', ...args], { stdout: 'pipe', stderr: 'pipe' });
  const [code, secs] = r.stdout.toString().trim().split(' ');
  if (Number(code) >= 300 || r.exitCode !== 0) throw new Error(`curl ${args.slice(-1)}: ${code} ${r.stderr}`);
  return Number(secs);
}

async function main(): Promise<void> {
  const home = mkdtempSync(join(process.env.BENCH_DIR ?? ROOT, '.bench-upload-'));
  const files = join(home, 'data', 'files');
  const ngx = join(home, 'nginx-root');
  mkdirSync(files, { recursive: true });
  mkdirSync(ngx, { recursive: true });
  const src = join(home, 'big.src');
  spawnSync(['dd', 'if=/dev/urandom', `of=${src}`, 'bs=1M', `count=${SIZE / MIB}`], { stderr: 'ignore' });
  spawnSync(['sync']);
  const nport = await freePort();
  const conf = join(home, 'nginx.conf');
  writeFileSync(conf, `${process.getuid?.() === 0 ? 'user root;' : ''}
worker_processes 1; daemon off; pid ${home}/nginx.pid; error_log ${home}/nginx-error.log;
events { worker_connections 64; }
http { access_log off; client_max_body_size 0; client_body_temp_path ${home}/nginx-body;
  proxy_temp_path ${home}/nginx-proxy; fastcgi_temp_path ${home}/nginx-fcgi; uwsgi_temp_path ${home}/nginx-uwsgi; scgi_temp_path ${home}/nginx-scgi;
  server { listen 127.0.0.1:${nport}; root ${ngx}; location / { dav_methods PUT DELETE; create_full_put_path on; } } }
`);
  const nginx = spawn([nginxBin(), '-c', conf, '-p', home], { stdout: 'ignore', stderr: 'ignore' });
  const fd = await startServer(['--username', 'admin', '--password', PW, '--log', ''], { cwd: home });
  try {
    for (let i = 0; i < 200; i++) {
      if (await fetch(`http://127.0.0.1:${nport}/`).then(() => true, () => false)) break;
      await Bun.sleep(10);
    }
    const made = await cli(['tokens', 'add', '--user', 'admin', '--name', 'bench', '--perm', 'create,rename,modify,delete,download'], { cwd: home });
    if (made.code !== 0) throw new Error(`token: ${made.stderr}`);
    const token = made.stdout.split('\n')[0]!.trim();
    const basic = `Basic ${Buffer.from(`admin:${token}`).toString('base64')}`;
    // nginx's one worker (a child of the master whose pid the pid file holds) does the work.
    const master = readFileSync(join(home, 'nginx.pid'), 'utf8').trim();
    const nginxPid = Number(spawnSync(['pgrep', '-P', master]).stdout.toString().trim().split('\n')[0]);
    type Figure = { label: string; pid: number | null; run: (i: number) => number };
    const figures: Figure[] = [
      { label: 'nginx PUT (no sync)', pid: nginxPid, run: (i) => curlUp(['-T', src, `http://127.0.0.1:${nport}/up-${i}.bin`]) },
      {
        label: 'cp + sync',
        pid: null,
        run: (i) => {
          const t0 = performance.now();
          spawnSync(['cp', src, join(ngx, `cp-${i}.bin`)]);
          spawnSync(['sync', join(ngx, `cp-${i}.bin`)]);
          return (performance.now() - t0) / 1000;
        },
      },
      { label: 'Filedeck upload (web API)', pid: fd.proc.pid, run: (i) => curlUp(['-T', src, '-H', `Authorization: Bearer ${token}`, '-X', 'POST', `${fd.url}/api/resources/web-${i}.bin?override=true`]) },
      { label: 'Filedeck WebDAV PUT', pid: fd.proc.pid, run: (i) => curlUp(['-T', src, '-H', `Authorization: ${basic}`, `${fd.url}/dav/dav-${i}.bin`]) },
    ];
    const got = new Map<string, { s: number[]; cpu: number[] }>(figures.map((f) => [f.label, { s: [], cpu: [] }]));
    for (let i = 0; i < ROUNDS; i++) {
      for (const f of i % 2 ? [...figures].reverse() : figures) {
        spawnSync(['sync']); // nobody starts with the previous one's dirty pages
        const c0 = f.pid ? cpuMs(f.pid) : 0;
        const s = f.run(i);
        got.get(f.label)!.s.push(s);
        got.get(f.label)!.cpu.push(f.pid ? cpuMs(f.pid) - c0 : 0);
      }
    }
    const mbps = (label: string) => SIZE / 1e6 / median(got.get(label)!.s);
    const [ngxMbps, cpMbps] = [mbps('nginx PUT (no sync)'), mbps('cp + sync')];
    console.log(`upload of 1 GiB, median of ${ROUNDS}`);
    for (const f of figures) {
      const v = mbps(f.label);
      const cpu = f.pid ? `${median(got.get(f.label)!.cpu)} ms CPU` : '';
      console.log(`  ${f.label.padEnd(28)} ${`${v.toFixed(0)} MB/s`.padStart(10)}   vs nginx ${(v / ngxMbps).toFixed(2)}x   vs cp+sync ${(v / cpMbps).toFixed(2)}x   ${cpu}`);
    }
  } finally {
    nginx.kill('SIGTERM');
    await fd.stop();
    await nginx.exited;
    rmSync(home, { recursive: true, force: true });
  }
}

await main();
