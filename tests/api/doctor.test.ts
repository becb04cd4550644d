import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inotifyCheck } from '../../server/services/doctor/install-checks';
import { proxyChecks, thumbnailCheck } from '../../server/services/doctor/setup-checks';
import { cli } from '../helpers/binary';

interface Report {
  ok: boolean;
  failures: number;
  checks: { name: string; status: 'OK' | 'WARN' | 'FAIL'; message: string; fix?: string }[];
}

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'filedeck-doctor-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A fresh installation in its own folder: an initialised database and a files root. */
async function install(name: string) {
  const home = join(dir, name);
  mkdirSync(join(home, 'files'), { recursive: true, mode: 0o700 });
  const args = ['-d', join(home, 'db', 'filedeck.db'), '-r', join(home, 'files')];
  const init = await cli([...args, 'config', 'init'], { cwd: home });
  expect(init.code).toBe(0);
  return { home, args };
}

async function doctor(args: string[], cwd: string, env: Record<string, string> = {}): Promise<{ code: number; report: Report; stdout: string }> {
  const r = await cli([...args, 'doctor', '--json'], { cwd, env });
  return { code: r.code, report: JSON.parse(r.stdout) as Report, stdout: r.stdout };
}
const find = (r: Report, name: string) => r.checks.find((c) => c.name === name);

describe('filedeck doctor', () => {
  test('a good installation: every check OK or a hint, exit 0, human lines with the status first', async () => {
    const { home, args } = await install('good');
    const { code, report } = await doctor(args, home);
    expect(report.checks.filter((c) => c.status === 'FAIL')).toEqual([]);
    expect(code).toBe(0);
    expect(report.ok).toBe(true);
    for (const name of ['version', 'database file', 'database folder', 'database', 'schema', 'clock', 'files root', 'free space (files)', 'free space (database)', 'inotify', 'sandbox', 'thumbnail programs', 'reverse proxy'])
      expect(find(report, name)).toBeTruthy();
    expect(find(report, 'thumbnail programs')!.message).toMatch(/run inside bubblewrap|neither pdftoppm/);
    expect(find(report, 'database')!.status).toBe('OK');
    expect(find(report, 'database file')!.message).toContain('0600');
    const text = await cli([...args, 'doctor'], { cwd: home });
    expect(text.code).toBe(0);
    for (const line of text.stdout.trim().split('\n').slice(0, -1)) expect(line).toMatch(/^(OK  |WARN|FAIL)  |^\s+fix: /);
  });

  test('thumbnail programs: inside bubblewrap, off without it, unconfined only with the unsafe flag', async () => {
    const c = { enableThumbnails: true, resizePreview: true, bwrapPath: '', execUnsafeNoSandbox: false };
    expect(await thumbnailCheck(c)).toMatchObject({ status: 'OK', message: expect.stringMatching(/run inside bubblewrap|neither pdftoppm/) });
    expect(await thumbnailCheck({ ...c, bwrapPath: '/nonexistent/bwrap' })).toMatchObject({ status: 'WARN', message: expect.stringContaining('thumbnails are off'), fix: expect.stringContaining('bubblewrap') });
    expect(await thumbnailCheck({ ...c, bwrapPath: '/nonexistent/bwrap', execUnsafeNoSandbox: true })).toMatchObject({ status: 'WARN', message: expect.stringContaining('WITHOUT a sandbox') });
    expect(await thumbnailCheck({ ...c, enableThumbnails: false })).toMatchObject({ status: 'OK', message: expect.stringContaining('never run') });
  });

  test('a broken one: missing root and loose permissions are named with their fixes, exit 1', async () => {
    const { home, args } = await install('broken');
    chmodSync(join(home, 'db', 'filedeck.db'), 0o644);
    chmodSync(join(home, 'db'), 0o755);
    rmSync(join(home, 'files'), { recursive: true });
    const { code, report } = await doctor(args, home);
    expect(code).toBe(1);
    expect(report.ok).toBe(false);
    expect(find(report, 'files root')).toMatchObject({ status: 'FAIL' });
    expect(find(report, 'files root')!.fix).toContain('mkdir');
    expect(find(report, 'database file')).toMatchObject({ status: 'WARN', fix: `chmod 600 ${join(home, 'db', 'filedeck.db')}` });
    expect(find(report, 'database folder')).toMatchObject({ status: 'WARN', fix: `chmod 700 ${join(home, 'db')}` });
    // Loose permissions alone are warnings: exit 0.
    mkdirSync(join(home, 'files'));
    chmodSync(join(home, 'db', 'filedeck.db'), 0o644);
    expect((await doctor(args, home)).code).toBe(0);
  });

  test('a root that is a file, or not writable, fails', async () => {
    const { home, args } = await install('root-file');
    rmSync(join(home, 'files'), { recursive: true });
    writeFileSync(join(home, 'files'), 'x');
    expect(find((await doctor(args, home)).report, 'files root')).toMatchObject({ status: 'FAIL', message: expect.stringContaining('not a folder') });
    if (process.getuid?.() !== 0) {
      rmSync(join(home, 'files'));
      mkdirSync(join(home, 'files'), { mode: 0o500 });
      expect(find((await doctor(args, home)).report, 'files root')).toMatchObject({ status: 'FAIL', message: expect.stringContaining('not writable') });
    }
  });

  test('a missing database file fails without creating it', async () => {
    const home = join(dir, 'nodb');
    mkdirSync(join(home, 'files'), { recursive: true });
    const db = join(home, 'db', 'filedeck.db');
    const { code, report } = await doctor(['-d', db, '-r', join(home, 'files')], home);
    expect(code).toBe(1);
    expect(find(report, 'database file')).toMatchObject({ status: 'FAIL', message: expect.stringContaining('does not exist') });
    expect(await Bun.file(db).exists()).toBe(false);
  });

  test('an unreachable PostgreSQL server fails quickly and never prints the password', async () => {
    const home = join(dir, 'pg-down');
    mkdirSync(join(home, 'files'), { recursive: true });
    const started = Date.now();
    const { code, report, stdout } = await doctor(['-d', 'postgres://fd:s3cret-pw@127.0.0.1:1/fd', '-r', join(home, 'files')], home, { FILEDECK_DATABASE_CONNECT_TIMEOUT: '1s' });
    expect(code).toBe(1);
    expect(find(report, 'database')).toMatchObject({ status: 'FAIL' });
    expect(stdout).not.toContain('s3cret-pw');
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  test('a configuration that does not load is the finding', async () => {
    const home = join(dir, 'bad-config');
    mkdirSync(home, { recursive: true });
    writeFileSync(join(home, 'filedeck.yaml'), 'metricsAllow: [not-an-address]\n');
    const r = await cli(['doctor'], { cwd: home });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^FAIL  config .*metricsAllow/m);
  });

  test('PostgreSQL: reachable, schema and clock compared with the server', async () => {
    const pg = process.env.FILEDECK_TEST_PG;
    if (!pg) return; // run with FILEDECK_TEST_PG (npm test's api-pg suite)
    const home = join(dir, 'pg');
    mkdirSync(join(home, 'files'), { recursive: true, mode: 0o700 });
    const args = ['-d', pg, '-r', join(home, 'files')];
    await cli([...args, 'config', 'init'], { cwd: home });
    const { report } = await doctor(args, home);
    expect(find(report, 'database')!.status).toBe('OK');
    expect(find(report, 'clock')).toMatchObject({ status: 'OK', message: expect.stringContaining('database clock is') });
  });
});

describe('doctor checks', () => {
  test('inotify: a low limit and a missing file warn', () => {
    const f = join(dir, 'watches');
    writeFileSync(f, '8192\n');
    expect(inotifyCheck(f)).toMatchObject({ status: 'WARN', fix: expect.stringContaining('max_user_watches') });
    writeFileSync(f, '524288\n');
    expect(inotifyCheck(f).status).toBe('OK');
    expect(inotifyCheck(join(dir, 'absent')).status).toBe('WARN');
  });

  test('proxy hints: everyone trusted fails, proxy login without proxies fails, a prefix on loopback warns', () => {
    const base = { address: '127.0.0.1', baseURL: '', trustedProxies: [] as string[], metricsAllow: [] as string[], metricsToken: '' };
    expect(proxyChecks({ ...base, trustedProxies: ['0.0.0.0/0'] }, 'json').some((c) => c.status === 'FAIL' && c.name === 'trusted proxies')).toBe(true);
    expect(proxyChecks(base, 'proxy').some((c) => c.status === 'FAIL' && c.name === 'proxy login')).toBe(true);
    expect(proxyChecks({ ...base, baseURL: '/files' }, 'json').find((c) => c.name === 'reverse proxy')!.status).toBe('WARN');
    expect(proxyChecks({ ...base, baseURL: '/files', trustedProxies: ['127.0.0.1'] }, 'json').every((c) => c.status === 'OK')).toBe(true);
    expect(proxyChecks({ ...base, metricsAllow: ['::/0'] }, 'json').find((c) => c.name === 'metrics')!.status).toBe('WARN');
  });
});

describe('state files inside the files root (doctor)', () => {
  test('a database inside the root, or inside a user\'s scope, FAILs with the way out; outside it is OK', async () => {
    const { stateFilesCheck } = await import('../../server/services/doctor/state-files-check');
    const { loadConfig } = await import('../../server/core/config');
    const home = join(dir, 'state-layouts');
    mkdirSync(join(home, 'files/bob'), { recursive: true });
    const check = (flags: Record<string, string>) => stateFilesCheck(loadConfig({ noDefaultFiles: true, env: {}, flags: { root: join(home, 'files'), ...flags } }));
    const inRoot = check({ database: join(home, 'files/filedeck.db'), cacheDir: join(home, 'cache') });
    expect(inRoot).toMatchObject({ name: 'state files', status: 'FAIL', fix: expect.stringContaining('move them out of the root') });
    expect(inRoot.message).toContain('/filedeck.db in the root');
    const inScope = check({ database: join(home, 'files/bob/filedeck.db'), cacheDir: join(home, 'files/bob/cache') });
    expect(inScope.status).toBe('FAIL');
    expect(inScope.message).toContain('/bob/filedeck.db in the root');
    expect(inScope.message).toContain('/bob/cache in the root');
    expect(check({ database: join(home, 'db/filedeck.db'), cacheDir: join(home, 'db/cache') }).status).toBe('OK');
  });

  test('filedeck doctor exits 1 on such a layout', async () => {
    const home = join(dir, 'state-cli');
    mkdirSync(join(home, 'files'), { recursive: true, mode: 0o700 });
    const args = ['-d', join(home, 'files', 'filedeck.db'), '-r', join(home, 'files')];
    expect((await cli([...args, 'config', 'init'], { cwd: home })).code).toBe(0);
    const { code, report } = await doctor(args, home);
    expect(code).toBe(1);
    expect(find(report, 'state files')).toMatchObject({ status: 'FAIL', message: expect.stringContaining('filedeck.db') });
  });
});
