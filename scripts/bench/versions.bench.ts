/**
 * Versions benchmark (issue 35): overwriting a 1 GiB file with versions on vs off in the same run, by an upload with
 * override (the new bytes are written either way; the version must add no write) and by a move over it (a rename:
 * the version must cost no copy), with the server's bytes written to disk (/proc/<pid>/io write_bytes) and the time.
 * Anchor: `cp` of the same file. The data is real (random bytes written once), never a sparse file.
 * Usage: FILEDECK_BIN=/path/to/filedeck bun scripts/bench/versions.bench.ts
 */
import { spawnSync } from 'bun';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { startServer } from '../../tests/helpers/binary';

const ROOT = resolve(import.meta.dir, '../..');
const GIB = 1024 ** 3;
const PW = 'bench-admin-password-1';
const writeBytes = (pid: number) => Number(/write_bytes:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/io`, 'utf8'))![1]);

/** One GiB of real data written once (64 KiB of random bytes tiled into 64 MiB blocks, each block numbered). */
function makeBig(path: string): void {
  const chunk = crypto.getRandomValues(new Uint8Array(65536));
  const block = new Uint8Array(64 * 1024 * 1024);
  for (let o = 0; o < block.length; o += chunk.length) block.set(chunk, o);
  const fd = Bun.file(path).writer();
  for (let i = 0; i < GIB / block.length; i++) {
    new DataView(block.buffer).setUint32(0, i);
    fd.write(block);
  }
  fd.end();
}

async function main(): Promise<void> {
  const home = mkdtempSync(join(process.env.BENCH_DIR ?? ROOT, '.bench-versions-'));
  try {
    const files = join(home, 'data', 'files');
    mkdirSync(files, { recursive: true });
    const src = join(home, 'big.src');
    makeBig(src);
    const s = await startServer(['--username', 'admin', '--password', PW, '--log', 'stderr'], { cwd: home });
    const pid = s.proc.pid;
    try {
      const token = await (await fetch(`${s.url}/api/login`, { method: 'POST', body: JSON.stringify({ username: 'admin', password: PW }) })).text();
      const h = { 'X-Auth': token };
      const setVersions = async (enabled: boolean) => {
        const r = await fetch(`${s.url}/api/settings`, { method: 'PUT', headers: h, body: JSON.stringify({ versions: { enabled } }) });
        if (r.status !== 200) throw new Error(`settings: ${r.status}`);
      };
      const measure = async (label: string, fn: () => Promise<Response>) => {
        spawnSync(['sync']);
        const w0 = writeBytes(pid);
        const t0 = performance.now();
        const r = await fn();
        if (r.status >= 300) throw new Error(`${label}: ${r.status} ${await r.text()}`);
        const ms = performance.now() - t0;
        const mib = (writeBytes(pid) - w0) / 2 ** 20;
        console.log(`${label.padEnd(40)} ${ms.toFixed(0).padStart(7)} ms  ${mib.toFixed(1).padStart(8)} MiB written`);
      };
      for (const on of [true, false]) {
        await setVersions(on);
        const tag = on ? 'versions on ' : 'versions off';
        spawnSync(['cp', src, join(files, 'big.bin')]);
        spawnSync(['cp', src, join(files, 'other.bin')]);
        await measure(`${tag}: upload override 1 GiB`, () => fetch(`${s.url}/api/resources/big.bin?override=true`, { method: 'POST', headers: h, body: Bun.file(src) }));
        await measure(`${tag}: move over a 1 GiB file`, () => fetch(`${s.url}/api/resources/other.bin?action=rename&destination=%2Fbig.bin&override=true`, { method: 'PATCH', headers: h }));
        await fetch(`${s.url}/api/trash`, { method: 'DELETE', headers: h });
      }
      spawnSync(['sync']);
      const t0 = performance.now();
      spawnSync(['cp', src, join(home, 'anchor.bin')]);
      spawnSync(['sync']);
      console.log(`${'anchor: cp 1 GiB (with sync)'.padEnd(40)} ${(performance.now() - t0).toFixed(0).padStart(7)} ms  ${(1024).toFixed(1).padStart(8)} MiB written`);
    } finally {
      await s.stop();
    }
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

await main();
