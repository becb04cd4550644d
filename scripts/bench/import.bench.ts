/**
 * filebrowser import benchmark (issue 38): `filedeck import filebrowser large.db` (500 users, 5,000 links of which
 * 4,587 are imported: 242 expired and 180 orphaned are skipped) as the CLI runs it, in a child process: wall time and
 * peak resident memory (VmHWM, sampled). Three figures per engine: a dry run, the import onto an empty database (the
 * links' items exist under the root, so every link is pinned: 4,587 stats through the owners' scopes), and a second
 * run (nothing changes). SQLite always; PostgreSQL when FILEDECK_TEST_PG names a server.
 * Here (2 cores shared with seven other sessions), two runs: SQLite dry run 0.53 s / 0.80 s, import 0.61 s / 0.89 s,
 * second run 0.50 s / 0.86 s; PostgreSQL dry run 0.95 s / 2.75 s, import 1.89 s / 3.96 s, second run 1.32 s / 2.43 s.
 * Peak RSS 100-115 MiB in every case (the dump is held whole: 4 MiB of file, ~30 MB of decoded records).
 * Usage: bun scripts/bench/import.bench.ts  (FILEDECK_BIN: a compiled binary instead of `bun cmd/main.ts`)
 */
import { spawn } from 'bun';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { SQL } from 'bun';
import { toVirtualPath } from '../../server/fs/virtual-path';
import { readFilebrowserDb } from '../../server/services/import/filebrowser/read-db';

const ROOT = resolve(import.meta.dir, '../..');
const LARGE = resolve(ROOT, 'tests/fixtures/filebrowser-db/large.db');
const CLI = process.env.FILEDECK_BIN ? [process.env.FILEDECK_BIN] : [process.execPath, join(ROOT, 'cmd/main.ts')];
const MiB = 1024 * 1024;

const hwm = (pid: number): number => {
  try {
    return Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;
  } catch {
    return 0; // exited between two samples
  }
};

/** Runs the CLI once; its wall time and the highest peak RSS seen while it ran. */
async function run(args: string[]): Promise<{ ms: number; peak: number }> {
  const t0 = performance.now();
  const p = spawn([...CLI, ...args], { stdout: 'pipe', stderr: 'pipe', env: { ...process.env, NODE_ENV: 'production' } });
  let peak = 0;
  const timer = setInterval(() => (peak = Math.max(peak, hwm(p.pid))), 5);
  const [code, err] = await Promise.all([p.exited, new Response(p.stderr).text(), new Response(p.stdout).text()]);
  clearInterval(timer);
  if (code !== 0) throw new Error(`filedeck ${args.join(' ')} failed: ${err}`);
  return { ms: performance.now() - t0, peak };
}

/** The items every link of the fixture names, under its owner's scope, so the import pins them all. */
async function makeTargets(root: string): Promise<void> {
  const dump = await readFilebrowserDb(LARGE);
  const scopes = new Map(dump.users.map((u) => [u.value.id, u.value.scope]));
  for (const { value: s } of dump.shares) {
    const scope = scopes.get(s.userID);
    if (scope === undefined) continue;
    const full = join(root, toVirtualPath(scope.replace(/^\.\/?/, '/')).path, toVirtualPath(s.path).path);
    mkdirSync(s.path.endsWith('/') ? full : dirname(full), { recursive: true });
    if (!s.path.endsWith('/')) writeFileSync(full, s.hash);
  }
}

async function bench(engine: string, database: (dir: string) => Promise<string>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'filedeck-import-bench-'));
  try {
    const root = join(dir, 'files');
    await makeTargets(root);
    const db = await database(dir);
    const args = ['-d', db, '-r', root, 'import', 'filebrowser', LARGE, '--json'];
    const show = (name: string, r: { ms: number; peak: number }) => console.log(`${engine.padEnd(10)} ${name.padEnd(12)} ${(r.ms / 1000).toFixed(2).padStart(6)} s  peak RSS ${(r.peak / MiB).toFixed(0).padStart(4)} MiB`);
    show('dry run', await run([...args, '--dry-run']));
    show('import', await run(args));
    show('second run', await run(args));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await bench('SQLite', async (dir) => join(dir, 'filedeck.db'));
const pg = process.env.FILEDECK_TEST_PG;
if (pg) {
  const admin = new SQL(pg, { max: 1 });
  const schema = `import_bench_${process.pid}`;
  await admin.unsafe(`CREATE SCHEMA ${schema}`);
  try {
    await bench('PostgreSQL', async () => `${pg}?search_path=${schema}`);
  } finally {
    await admin.unsafe(`DROP SCHEMA ${schema} CASCADE`);
    await admin.close();
  }
}
