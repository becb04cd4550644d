/**
 * Archive benchmark: zip and tar downloads of a 1,000-file folder (100 MB) and of a 1 GiB file, each set against
 * `zip -r -0` (stored, as ours) and `tar -c` of the same files in the same run, and against another build (today's
 * or an older writer) when FILEDECK_BASE_BIN names one. Reports the median of 3 downloads and the server's peak RSS.
 * Usage: FILEDECK_BIN=dist/filedeck [FILEDECK_BASE_BIN=/path/to/older/filedeck] bun scripts/bench/archive.bench.ts
 */
import { spawn, spawnSync } from 'bun';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dir, '../..');
const BIN = process.env.FILEDECK_BIN ?? join(ROOT, 'dist/filedeck');
const BASE_BIN = process.env.FILEDECK_BASE_BIN;
const PW = 'bench-admin-password-1';
const RUNS = 3;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const peakMb = (pid: number) => Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

async function freePort(): Promise<number> {
  const s = Bun.serve({ port: 0, fetch: () => new Response() });
  const p = s.port!;
  s.stop(true);
  return p;
}

/** Runs a command `RUNS` times (after one warm-up) and answers the median wall time in ms. */
function timeCommand(cmd: string): number {
  const once = () => {
    const t0 = performance.now();
    const r = spawnSync(['sh', '-c', cmd], { stdout: 'ignore', stderr: 'pipe' });
    if (r.exitCode !== 0) throw new Error(`${cmd}: ${r.stderr.toString()}`);
    return performance.now() - t0;
  };
  once();
  return median(Array.from({ length: RUNS }, once));
}

interface Figures {
  ms: Record<string, number>;
  peak: number;
}

/** Starts one build on the data, downloads each archive RUNS times (after a warm-up), stops it. */
async function measure(bin: string, work: string, data: string, tag: string): Promise<Figures> {
  const port = await freePort();
  const proc = spawn([bin, 'serve', '-p', String(port), '-d', join(work, `${tag}.db`), '-r', data, '--password', PW, '--log', ''], { stdout: 'ignore', stderr: 'pipe' });
  const base = `http://127.0.0.1:${port}`;
  try {
    for (let i = 0; ; i++) {
      if (await fetch(`${base}/health`).then((r) => r.ok, () => false)) break;
      if (i > 1000 || proc.exitCode !== null) throw new Error(`${tag} did not start: ${await new Response(proc.stderr).text()}`);
      await Bun.sleep(10);
    }
    const token = await (await fetch(`${base}/api/login`, { method: 'POST', body: JSON.stringify({ username: 'admin', password: PW }) })).text();
    const get = async (path: string) => {
      const t0 = performance.now();
      const r = await fetch(base + path, { headers: { 'X-Auth': token } });
      const body = await r.arrayBuffer();
      if (!r.ok || body.byteLength < 1000) throw new Error(`${tag} ${path}: ${r.status}`);
      return performance.now() - t0;
    };
    const ms: Record<string, number> = {};
    for (const [name, path] of [
      ['zip, 1,000 files', '/api/raw/thousand?algo=zip'],
      ['tar, 1,000 files', '/api/raw/thousand?algo=tar'],
      ['zip, 1 GiB file', '/api/raw/big?algo=zip'],
      ['tar, 1 GiB file', '/api/raw/big?algo=tar'],
    ] as const) {
      await get(path);
      const xs: number[] = [];
      for (let i = 0; i < RUNS; i++) xs.push(await get(path));
      ms[name] = median(xs);
    }
    return { ms, peak: peakMb(proc.pid) };
  } finally {
    proc.kill();
    await proc.exited;
  }
}

if (import.meta.main) {
  if (!existsSync(BIN)) throw new Error(`no executable at ${BIN}: run "bun run build" first`);
  for (const tool of ['zip', 'tar']) if (spawnSync(['which', tool]).exitCode !== 0) throw new Error(`${tool} is needed as the anchor (Debian package ${tool})`);
  const work = mkdtempSync(join(tmpdir(), 'filedeck-archive-bench-'));
  const data = join(work, 'data');
  try {
    for (let d = 0; d < 10; d++) {
      mkdirSync(join(data, 'thousand', `d${d}`), { recursive: true });
      for (let f = 0; f < 100; f++) writeFileSync(join(data, 'thousand', `d${d}`, `f${f}.bin`), crypto.getRandomValues(new Uint8Array(100 * 1024)).map((b, i) => (i % 4 ? b : 0)));
    }
    mkdirSync(join(data, 'big'));
    spawnSync(['dd', 'if=/dev/urandom', `of=${join(data, 'big', 'big.bin')}`, 'bs=1M', 'count=1024'], { stdout: 'ignore', stderr: 'ignore' });
    spawnSync(['sync']);
    const anchors: Record<string, number> = {
      'zip, 1,000 files': timeCommand(`cd '${data}' && zip -qr0 - thousand | cat > /dev/null`),
      'tar, 1,000 files': timeCommand(`tar -cf - -C '${data}' thousand | cat > /dev/null`),
      'zip, 1 GiB file': timeCommand(`cd '${data}' && zip -qr0 - big | cat > /dev/null`),
      'tar, 1 GiB file': timeCommand(`tar -cf - -C '${data}' big | cat > /dev/null`),
    };
    // This build first: it records the root's identity; an older build does not look at it.
    const ours = await measure(BIN, work, data, 'this');
    const older = BASE_BIN ? await measure(BASE_BIN, work, data, 'base') : null;
    console.log(`\nFiledeck archive benchmark (median of ${RUNS}; anchors zip -r0 / tar -c piped through cat)`);
    for (const name of Object.keys(anchors)) {
      const line = `  ${name.padEnd(18)} ${(ours.ms[name]! / 1000).toFixed(2)} s, ${(ours.ms[name]! / anchors[name]!).toFixed(2)}x the anchor (${(anchors[name]! / 1000).toFixed(2)} s)`;
      console.log(older ? `${line}; base build ${(older.ms[name]! / 1000).toFixed(2)} s, ${(older.ms[name]! / anchors[name]!).toFixed(2)}x` : line);
    }
    console.log(`  server peak RSS    ${ours.peak.toFixed(0)} MB${older ? `; base build ${older.peak.toFixed(0)} MB` : ''}`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
