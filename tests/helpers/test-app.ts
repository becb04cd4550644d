import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHttpApp, createServices, initialise, type Services } from '../../server/app';
import { loadConfig, type Config } from '../../server/core/config';
import { silentLogger } from '../../server/core/log';

export const ADMIN_PASSWORD = 'correct-horse-admin-7731';
export const USER_PASSWORD = 'bobs-long-password-4410';

export interface TestApp {
  dir: string;
  root: string;
  s: Services;
  app: Awaited<ReturnType<typeof createHttpApp>>;
  /** Sends a request through app.handle(); `path` is relative to the app (no host). */
  req(method: string, path: string, init?: { body?: unknown; headers?: Record<string, string>; token?: string; raw?: BodyInit | Uint8Array }): Promise<Response>;
  login(username: string, password: string): Promise<string>;
  adminToken(): Promise<string>;
  /** Creates a user with the given permissions (others from defaults) and returns its token. */
  userToken(username: string, perm?: Partial<Record<string, boolean>>, extra?: Record<string, unknown>): Promise<string>;
  close(): void;
}

/** A fresh temp folder with a real SQLite database, a files root and a first admin. */
export async function makeTestApp(flags: Partial<Record<keyof Config, unknown>> = {}, settings: Record<string, unknown> = {}): Promise<TestApp> {
  const dir = mkdtempSync(join(tmpdir(), 'filedeck-test-'));
  const config = loadConfig({ noDefaultFiles: true, env: {}, flags: { root: join(dir, 'files'), database: join(dir, 'db', 'filedeck.db'), ...flags } });
  const s = createServices(config, silentLogger);
  await initialise(s, { username: 'admin', password: ADMIN_PASSWORD });
  if (Object.keys(settings).length) s.settings.update(settings, Object.keys(settings));
  const app = await createHttpApp(s);
  const base = `http://localhost${config.baseURL}`;
  let admin: string | null = null;
  const t: TestApp = {
    dir,
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
    close() {
      s.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return t;
}

/** Decodes the JWT payload (no verification) to read what the client reads. */
export function tokenPayload(token: string): Record<string, any> {
  return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8'));
}
