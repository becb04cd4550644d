/**
 * Quota benchmark (issue 35): the server's CPU time for uploading a 20-file folder (a folder made, then its files
 * posted four at a time, as the web app does) by a user with a quota and by one without, in the same run against
 * the same server, rounds interleaved; the whole comparison runs twice. CPU is the server process's user + system
 * time from /proc/<pid>/stat, so the client's own work is not counted.
 * Usage: FILEDECK_BIN=/tmp/me/filedeck bun scripts/bench/quota.bench.ts [--rounds 15] [--file-kb 256]
 * (without FILEDECK_BIN the binary is built into a temp folder, never into dist/)
 */
import { spawn, spawnSync } from 'bun';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dir, '../..');
const args = process.argv.slice(2);
const arg = (name: string, dflt: number) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : dflt);
const ROUNDS = arg('--rounds', 15);
const FILE_KB = arg('--file-kb', 256);
const PW = 'bench-admin-password-1';
const USER_PW = 'bench-user-password-22';
const TICK_MS = 1000 / Number(spawnSync(['getconf', 'CLK_TCK']).stdout.toString().trim() || 100);

const work = mkdtempSync(join(tmpdir(), 'filedeck-quota-bench-'));
let BIN = process.env.FILEDECK_BIN ?? '';
if (!BIN) {
  BIN = join(work, 'filedeck');
  if (spawnSync([process.execPath, 'scripts/build.ts', '--outfile', BIN], { cwd: ROOT, stdout: 'inherit' }).exitCode !== 0) process.exit(1);
}

/** CPU milliseconds (user + system) the process has used so far. */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS; // utime and stime (fields 14 and 15 of stat)
}

const db = join(work, 'db.sqlite');
const data = join(work, 'files');
mkdirSync(data, { recursive: true });
const fd = (...a: string[]) => {
  const r = spawnSync([BIN, '-d', db, '-r', data, ...a], { stdout: 'pipe', stderr: 'pipe' });
  if (r.exitCode !== 0) throw new Error(`filedeck ${a.join(' ')}: ${r.stderr.toString()}`);
};

const server = spawn([BIN, 'serve', '-p', '0', '-d', db, '-r', data, '--password', PW, '--log', 'stderr'], { stdout: 'pipe', stderr: 'pipe' });
try {
  let out = '';
  const dec = new TextDecoder();
  const url = await new Promise<string>((ok, no) => {
    const timer = setTimeout(() => no(new Error(`server did not start: ${out}`)), 20_000);
    for (const s of [server.stdout, server.stderr])
      void (async () => {
        for await (const c of s as ReadableStream<Uint8Array>) {
          out += dec.decode(c);
          const m = /listening on (\S+)/.exec(out);
          if (m) {
            clearTimeout(timer);
            ok(m[1]!.replace(/\/$/, ''));
          }
        }
      })();
  });
  fd('users', 'add', 'plain', USER_PW, '--scope', '/plain');
  fd('users', 'add', 'quota', USER_PW, '--scope', '/quota', '--quota-bytes', '100G', '--quota-files', '1000000');
  const token = async (u: string) => (await fetch(`${url}/api/login`, { method: 'POST', body: JSON.stringify({ username: u, password: USER_PW }) })).text();
  const auth = { plain: await token('plain'), quota: await token('quota') };
  const body = new Uint8Array(FILE_KB * 1024).fill(97);

  /** One 20-file folder upload; returns the server CPU ms it took. */
  async function folder(who: 'plain' | 'quota', name: string): Promise<number> {
    const headers = { 'X-Auth': auth[who] };
    const before = cpuMs(server.pid);
    const made = await fetch(`${url}/api/resources/${name}/`, { method: 'POST', headers });
    if (made.status !== 200) throw new Error(`mkdir: ${made.status}`);
    for (let i = 0; i < 20; i += 4)
      await Promise.all([0, 1, 2, 3].map(async (k) => {
        const r = await fetch(`${url}/api/resources/${name}/f${i + k}.bin`, { method: 'POST', headers, body });
        if (r.status !== 200) throw new Error(`upload: ${r.status} ${await r.text()}`);
      }));
    return cpuMs(server.pid) - before;
  }

  console.log(`quota benchmark: ${ROUNDS} rounds of a 20 x ${FILE_KB} KiB folder upload per user, interleaved; CPU of the server (${BIN})`);
  for (const w of [0, 1]) await Promise.all([folder('plain', `warm${w}`), folder('quota', `warm${w}`)]);
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  for (const run of [1, 2]) {
    const t = { plain: [] as number[], quota: [] as number[] };
    for (let r = 0; r < ROUNDS; r++) {
      // Alternating which goes first, so neither always meets a warmer or colder server.
      const order: ('plain' | 'quota')[] = r % 2 ? ['quota', 'plain'] : ['plain', 'quota'];
      for (const who of order) t[who].push(await folder(who, `run${run}-r${r}`));
    }
    const [p, q] = [sum(t.plain) / ROUNDS, sum(t.quota) / ROUNDS];
    console.log(`  run ${run}: without quota ${p.toFixed(1)} ms CPU per folder, with quota ${q.toFixed(1)} ms (${q >= p ? '+' : ''}${(((q - p) / p) * 100).toFixed(1)}%)`);
  }
  const usage = await (await fetch(`${url}/api/account/usage`, { headers: { 'X-Auth': auth.quota } })).json();
  console.log(`  the quota user's usage after the runs: ${usage.bytes} bytes, ${usage.files} files (expected ${(ROUNDS * 2 + 2) * 20 * FILE_KB * 1024} bytes)`);
} finally {
  server.kill('SIGTERM');
  await server.exited;
  if (existsSync(work)) rmSync(work, { recursive: true, force: true });
}
