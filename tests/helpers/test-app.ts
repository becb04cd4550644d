import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHttpApp, createServices, initialise, type Services } from '../../server/app';
import { loadConfig, type Config } from '../../server/core/config';
import { silentLogger } from '../../server/core/log';
import { SQL } from 'bun';

/**
 * The engine under test: a real SQLite file per test by default; with FILEDECK_TEST_PG set to a PostgreSQL
 * server URL (scripts/run-tests.ts starts a throw-away cluster), a fresh PostgreSQL database per test instead.
 */
const PG = process.env.FILEDECK_TEST_PG;
let pgAdmin: SQL | null = null;
/** Each test gets its own schema (a database per test costs ~0.5 s to create and drop; a schema ~20 ms). */
async function testDatabase(dir: string): Promise<{ database: string; drop(): Promise<void> }> {
  if (!PG) return { database: join(dir, 'db', 'filedeck.db'), drop: async () => {} };
  pgAdmin ??= new SQL(PG, { max: 2 });
  const name = `t_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  await pgAdmin.unsafe(`CREATE SCHEMA ${name}`);
  return {
    database: `${PG}?search_path=${name}`,
    // Left in place: the cluster is thrown away after the run, and a drop costs more than the test itself.
    drop: async () => {},
  };
}

export const ADMIN_PASSWORD = 'correct-horse-admin-7731';
export const USER_PASSWORD = 'bobs-long-password-4410';

export interface TestApp {
  dir: string;
  /** The database the app uses (a SQLite file, or a PostgreSQL URL with its own schema): for child servers and the CLI. */
  database: string;
  root: string;
  s: Services;
  app: Awaited<ReturnType<typeof createHttpApp>>;
  /** Sends a request through app.handle(); `path` is relative to the app (no host). */
  req(method: string, path: string, init?: { body?: unknown; headers?: Record<string, string>; token?: string; raw?: BodyInit | Uint8Array }): Promise<Response>;
  login(username: string, password: string): Promise<string>;
  adminToken(): Promise<string>;
  /** Creates a user with the given permissions (others from defaults) and returns its token. */
  userToken(username: string, perm?: Partial<Record<string, boolean>>, extra?: Record<string, unknown>): Promise<string>;
  close(): Promise<void>;
}

/** A fresh temp folder with a real database (SQLite, or PostgreSQL with FILEDECK_TEST_PG), a files root and a first admin. */
export async function makeTestApp(flags: Partial<Record<keyof Config, unknown>> = {}, settings: Record<string, unknown> = {}): Promise<TestApp> {
  const dir = mkdtempSync(join(tmpdir(), 'filedeck-test-'));
  // A setup that fails (a configuration a test expects refused) leaves no folder or open database behind.
  let opened: Services | null = null;
  try {
    return await buildTestApp(dir, flags, settings, (s) => (opened = s));
  } catch (e) {
    await (opened as Services | null)?.close().catch(() => {});
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
}

async function buildTestApp(dir: string, flags: Partial<Record<keyof Config, unknown>>, settings: Record<string, unknown>, opened: (s: Services) => void): Promise<TestApp> {
  const db = await testDatabase(dir);
  // The preview cache and the name index stay under db/ on both engines (on PostgreSQL they would default to beside
  // the files root, and to this machine's cache folder).
  const config = loadConfig({ noDefaultFiles: true, env: {}, flags: { root: join(dir, 'files'), database: db.database, cacheDir: join(dir, 'db', 'cache'), indexDir: join(dir, 'db', 'cache'), ...flags } });
  const s = await createServices(config, silentLogger);
  opened(s);
  await initialise(s, { username: 'admin', password: ADMIN_PASSWORD });
  if (Object.keys(settings).length) (await s.settings.update(settings, Object.keys(settings)));
  const app = await createHttpApp(s);
  const base = `http://localhost${config.baseURL}`;
  let admin: string | null = null;
  const t: TestApp = {
    dir,
    database: config.database,
    root: config.root,
    s,
    app,
    async req(method, path, init = {}) {
      const headers: Record<string, string> = { ...(init.headers ?? {}) };
      if (init.token) headers['X-Auth'] = init.token;
      let body = init.raw as BodyInit | undefined;
      if (init.body !== undefined) {
        body = typeof init.body === 'string' ? init.body : JSON.stringify(init.body);
        headers['Content-Type'] ??= 'application/json';
      }
      return app.handle(new Request(base + path, { method, headers, body }));
    },
    async login(username, password) {
      const r = await t.req('POST', '/api/login', { body: { username, password } });
      if (r.status !== 200) throw new Error(`login ${username} failed: ${r.status} ${await r.text()}`);
      return r.text();
    },
    async adminToken() {
      admin ??= await t.login('admin', ADMIN_PASSWORD);
      return admin;
    },
    async userToken(username, perm = {}, extra = {}) {
      const base = s.settings.get().defaults.perm;
      await s.users.create({ username, password: USER_PASSWORD, perm: { ...base, ...perm }, ...extra });
      return t.login(username, USER_PASSWORD);
    },
    async close() {
      await s.close();
      await db.drop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return t;
}

/** Decodes the JWT payload (no verification) to read what the client reads. */
export function tokenPayload(token: string): Record<string, any> {
  return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8'));
}
