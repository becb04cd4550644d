/**
 * Jobs benchmark (not a test; prints figures): starts the server on 127.0.0.1 (the sources, or the binary named by
 * FILEDECK_BIN) and measures, in the same run on the same disk:
 *   1. extraction of a 1,000-file 100 MB zip and tar.gz (each file 100 KiB, half random, half text) as a job, vs
 *      `unzip -q` and `tar xzf`;
 *   2. a move across folders (same filesystem) as a job vs `mv`: a 10,000-file folder, and 10,000 files selected one
 *      by one (10,000 items).
 * Each job is timed from POST /api/jobs to the moment GET /api/jobs/{id} shows it done (polled every 20 ms).
 * Usage: bun scripts/bench/jobs.bench.ts [runs=2]
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startServer } from '../../tests/helpers/binary';

const ROOT = resolve(import.meta.dir, '../..');
const PW = 'bench-admin-password-1';
const RUNS = Number(process.argv[2] ?? 2);
const work = mkdtempSync(join(tmpdir(), 'filedeck-jobs-bench-'));
const files = join(work, 'files');

const sh = (cmd: string, cwd = files) => {
  const r = Bun.spawnSync(['sh', '-c', cmd], { cwd });
  if (r.exitCode !== 0) throw new Error(`${cmd}: ${r.stderr.toString()}`);
};
const timed = async (fn: () => unknown | Promise<unknown>) => {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
};
const sync = () => sh('sync');

try {
  console.log(`preparing data in ${work} ...`);
  mkdirSync(join(files, 'set'), { recursive: true });
  const text = Buffer.from('a line of a log file, 0123456789 abcdefghijklmnopqrstuvwxyz\n'.repeat(900)).subarray(0, 50 * 1024);
  for (let i = 0; i < 1000; i++) writeFileSync(join(files, 'set', `f${i}.bin`), Buffer.concat([crypto.getRandomValues(new Uint8Array(50 * 1024)), text]));
  sh('zip -qr ../set.zip .', join(files, 'set'));
  sh('tar czf ../set.tar.gz .', join(files, 'set'));
  mkdirSync(join(files, 'many'));
  for (let i = 0; i < 10_000; i++) writeFileSync(join(files, 'many', `file-${i}.txt`), `file ${i}\n`);
  mkdirSync(join(files, 'target'));
  mkdirSync(join(work, 'shell'));

  const srv = await startServer(['-a', '127.0.0.1', '-r', files, '-d', join(work, 'db.sqlite'), '--password', PW], { cwd: ROOT });
  try {
    const token = await (await fetch(`${srv.url}/api/login`, { method: 'POST', body: JSON.stringify({ username: 'admin', password: PW }) })).text();
    const job = async (body: unknown) => {
      const r = await fetch(`${srv.url}/api/jobs`, { method: 'POST', headers: { 'X-Auth': token }, body: JSON.stringify(body) });
      if (r.status !== 202) throw new Error(`${r.status} ${await r.text()}`);
      const { id } = (await r.json()) as { id: number };
      for (;;) {
        const j = (await (await fetch(`${srv.url}/api/jobs/${id}`, { headers: { 'X-Auth': token } })).json()) as { state: string; error: string };
        if (j.state === 'done') return;
        if (j.state !== 'queued' && j.state !== 'running') throw new Error(`job ${j.state}: ${j.error}`);
        await Bun.sleep(20);
      }
    };
    for (let run = 1; run <= RUNS; run++) {
      console.log(`\nrun ${run}`);
      for (const [name, tool] of [['set.zip', `unzip -q ${join(files, 'set.zip')}`], ['set.tar.gz', `tar xzf ${join(files, 'set.tar.gz')}`]] as const) {
        rmSync(join(files, `x-${name}`), { recursive: true, force: true });
        rmSync(join(work, 'shell', name), { recursive: true, force: true });
        sync();
        const ours = await timed(() => job({ kind: 'extract', items: [`/${name}`], destination: `/x-${name}` }));
        mkdirSync(join(work, 'shell', name));
        sync();
        const theirs = await timed(() => sh(tool, join(work, 'shell', name)));
        const mb = 100 * 1024 * 1024 / 1e6;
        console.log(`extract ${name.padEnd(10)} job ${(ours / 1000).toFixed(2)} s (${(mb / (ours / 1000)).toFixed(0)} MB/s)   ${tool.split(' ')[0]} ${(theirs / 1000).toFixed(2)} s (${(mb / (theirs / 1000)).toFixed(0)} MB/s)`);
      }
      sync();
      const folderJob = await timed(() => job({ kind: 'move', items: ['/many'], destination: '/target' }));
      sh('mv target/many many');
      sync();
      const folderMv = await timed(() => sh('mkdir -p target2 && mv many target2/'));
      sh('mv target2/many many && rmdir target2');
      console.log(`move a 10,000-file folder   job ${(folderJob / 1000).toFixed(3)} s   mv ${(folderMv / 1000).toFixed(3)} s`);
      // The 10,000 files selected one by one (each item authorized, hooked and renamed like PATCH), vs mv of a glob.
      const items = Array.from({ length: 10_000 }, (_, i) => `/many/file-${i}.txt`);
      sync();
      const itemsJob = await timed(() => job({ kind: 'move', items, destination: '/target' }));
      sh('mv target/* many/');
      sync();
      const itemsMv = await timed(() => sh('mv many/* target/'));
      sh('mv target/* many/');
      console.log(`move 10,000 files (items)   job ${(itemsJob / 1000).toFixed(3)} s   mv ${(itemsMv / 1000).toFixed(3)} s`);
    }
  } finally {
    await srv.stop();
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
