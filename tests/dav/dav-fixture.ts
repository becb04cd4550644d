import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { WebdavSettings } from '../../server/contract/dav';
import { cli, startServer, type RunningServer } from '../helpers/binary';

/**
 * A real Filedeck process (the compiled binary under FILEDECK_BIN, else the sources) for the WebDAV client tests:
 * a temp root and SQLite database, users made through the CLI (the one creation path), API tokens as their WebDAV
 * passwords. Every helper here talks HTTP or runs the CLI; nothing reaches into the server's files.
 */
export const ADMIN_PW = 'dav-admin-password-8812';
/** Every permission a WebDAV client needs to write (no admin, no execute). */
export const WRITE_PERMS = 'create,rename,modify,delete,share,download';

export interface DavUser {
  username: string;
  password: string;
  /** An API token of this user with WRITE_PERMS: the WebDAV password the tests use. */
  token: string;
}

export interface DavServer {
  dir: string;
  /** The folder holding every scope (the server's --root). */
  root: string;
  url: string;
  /** `<url>/dav/`. */
  dav: string;
  server: RunningServer;
  /** Runs the filedeck CLI on this server's database and root. */
  fd(...args: string[]): ReturnType<typeof cli>;
  /** Creates a user (extra CLI flags: --scope, --perm.x) and a write token for them. */
  addUser(username: string, password: string, ...flags: string[]): Promise<DavUser>;
  /** The admin's session token (X-Auth) for /api calls. */
  adminToken(): Promise<string>;
  /** Changes the global `webdav` settings through the admin API (the running server sees it at once). */
  setWebdav(patch: Partial<WebdavSettings>): Promise<void>;
  stop(): Promise<void>;
}

/**
 * `base`: where the temp folder goes (default: the system's temp folder). The attack test puts its 100,000-entry
 * tree on /dev/shm: creating that many files on this disk takes a minute, on tmpfs a second.
 */
export async function startDavServer(name: string, opts: { env?: Record<string, string>; base?: string } = {}): Promise<DavServer> {
  const dir = mkdtempSync(join(opts.base ?? tmpdir(), `filedeck-dav-${name}-`));
  const root = join(dir, 'files');
  const db = join(dir, 'db', 'filedeck.db');
  mkdirSync(root, { recursive: true });
  const server = await startServer(['-d', db, '-r', root, '--password', ADMIN_PW, '--log', ''], { cwd: dir, env: opts.env });
  const fd = (...args: string[]) => cli(['-d', db, '-r', root, ...args], { cwd: dir });
  const must = async (args: string[]) => {
    const r = await fd(...args);
    if (r.code !== 0) throw new Error(`filedeck ${args.join(' ')} failed (${r.code}): ${r.stderr}${r.stdout}`);
    return r.stdout;
  };
  let admin = '';
  const adminToken = async () => {
    if (admin) return admin;
    const r = await fetch(`${server.url}/api/login`, { method: 'POST', body: JSON.stringify({ username: 'admin', password: ADMIN_PW }) });
    if (r.status !== 200) throw new Error(`admin login: ${r.status}`);
    admin = await r.text();
    return admin;
  };
  return {
    dir,
    root,
    url: server.url,
    dav: `${server.url}/dav/`,
    server,
    fd,
    async addUser(username, password, ...flags) {
      const perms = WRITE_PERMS.split(',').flatMap((p) => [`--perm.${p}`, 'true']);
      await must(['users', 'add', username, password, ...perms, ...flags]);
      const out = await must(['tokens', 'add', '--user', username, '--name', `dav-${username}`, '--perm', WRITE_PERMS]);
      return { username, password, token: out.split('\n')[0]!.trim() };
    },
    adminToken,
    async setWebdav(patch) {
      const token = await adminToken();
      const cur = (await (await fetch(`${server.url}/api/settings`, { headers: { 'X-Auth': token } })).json()) as { webdav: WebdavSettings };
      const r = await fetch(`${server.url}/api/settings`, { method: 'PUT', headers: { 'X-Auth': token }, body: JSON.stringify({ webdav: { ...cur.webdav, ...patch } }) });
      if (r.status !== 200) throw new Error(`PUT /api/settings: ${r.status} ${await r.text()}`);
    },
    async stop() {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The Basic Authorization header of a user and a password (or token). */
export const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

/** A WebDAV request as `user` (fetch: any method passes through). */
export function davFetch(base: string, user: DavUser | null, path: string, init: RequestInit & { headers?: Record<string, string> } = {}): Promise<Response> {
  const headers: Record<string, string> = { ...(init.headers ?? {}) };
  if (user) headers.Authorization = basic(user.username, user.token);
  return fetch(`${base.replace(/\/$/, '')}${path}`, { ...init, headers, redirect: 'manual' });
}

/** Runs a command to its end with output captured (litmus, rclone, cadaver). */
export async function run(cmd: string[], opts: { cwd?: string; env?: Record<string, string>; stdin?: string; timeoutMs?: number } = {}): Promise<{ code: number; out: string }> {
  const p = Bun.spawn(cmd, { cwd: opts.cwd, env: { ...process.env, ...opts.env }, stdin: opts.stdin === undefined ? 'ignore' : new Blob([opts.stdin]), stdout: 'pipe', stderr: 'pipe' });
  const timer = setTimeout(() => p.kill('SIGKILL'), opts.timeoutMs ?? 120_000);
  const [o, e, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  clearTimeout(timer);
  return { code, out: o + e };
}
