import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A throw-away PostgreSQL cluster in a temp folder, for tests and benchmarks (Debian's postgresql package). */
export interface PgCluster {
  /** postgres://… of a fresh database in the cluster. */
  url: string;
  /** Makes another empty database and returns its URL. */
  newDatabase(name: string): string;
  /** Stops the server, keeping its data (an outage). */
  pause(): void;
  /** Starts it again on the same port after `pause`. */
  resume(): void;
  stop(): void;
}

function pgBin(): string | null {
  const base = '/usr/lib/postgresql';
  if (!existsSync(base)) return null;
  const versions = readdirSync(base).filter((v) => existsSync(join(base, v, 'bin', 'initdb'))).sort((a, b) => Number(b) - Number(a));
  return versions.length ? join(base, versions[0]!, 'bin') : null;
}

export const postgresAvailable = (): boolean => pgBin() !== null;

/** initdb refuses to run as root: the cluster runs as an unprivileged user made for it. */
function runAs(): string[] {
  if (process.getuid?.() !== 0) return [];
  if (spawnSync('id', ['pgtest']).status !== 0) spawnSync('useradd', ['--system', '--no-create-home', 'pgtest']);
  return ['runuser', '-u', 'pgtest', '--'];
}

function must(cmd: string[], what: string): void {
  const r = spawnSync(cmd[0]!, cmd.slice(1), { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${what} failed: ${r.stderr || r.stdout}`);
}

/** Starts a cluster on a free port, listening on 127.0.0.1 only, trust auth for the user `fd`. */
export async function startPostgres(): Promise<PgCluster> {
  const bin = pgBin();
  if (!bin) throw new Error('PostgreSQL is not installed (Debian package "postgresql"; npm test installs it)');
  const dir = mkdtempSync(join(tmpdir(), 'filedeck-pg-'));
  chmodSync(dir, 0o777);
  const as = runAs();
  must([...as, join(bin, 'initdb'), '-D', join(dir, 'data'), '-U', 'fd', '--auth=trust', '--no-sync', '-E', 'UTF8'], 'initdb');
  let port = 0;
  const start = () => must([...as, join(bin, 'pg_ctl'), '-D', join(dir, 'data'), '-w', '-t', '30', '-l', join(dir, 'log'), '-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`, 'start'], 'pg_ctl start');
  // A random port may be taken by another test's server: try a few.
  for (let attempt = 1; ; attempt++) {
    port = 20000 + Math.floor(Math.random() * 20000);
    try {
      start();
      break;
    } catch (e) {
      if (attempt >= 5) {
        rmSync(dir, { recursive: true, force: true });
        throw e;
      }
    }
  }
  const newDatabase = (name: string) => {
    must([join(bin, 'createdb'), '-h', '127.0.0.1', '-p', String(port), '-U', 'fd', name], 'createdb');
    return `postgres://fd@127.0.0.1:${port}/${name}`;
  };
  return {
    url: newDatabase('filedeck'),
    newDatabase,
    pause: () => must([...as, join(bin, 'pg_ctl'), '-D', join(dir, 'data'), '-w', '-m', 'immediate', 'stop'], 'pg_ctl stop'),
    resume: start,
    stop() {
      spawnSync(as[0] ?? join(bin, 'pg_ctl'), [...as.slice(1), ...(as.length ? [join(bin, 'pg_ctl')] : []), '-D', join(dir, 'data'), '-m', 'immediate', 'stop']);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
