import { afterAll, describe, expect, test } from 'bun:test';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli, startServer } from '../helpers/binary';

// The compiled executable, copied away from the source tree, must serve the app on its embedded defaults.
const BIN = process.env.FILEDECK_BIN;
const dir = mkdtempSync(join(tmpdir(), 'filedeck-bin-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.skipIf(!BIN)('single executable', () => {
  const bin = join(dir, 'bin', 'filedeck');
  const home = join(dir, 'home');

  test('first run from an empty folder: defaults under ./data, random admin password printed once and working', async () => {
    mkdirSync(join(dir, 'bin'));
    mkdirSync(home);
    copyFileSync(BIN!, bin);
    const env = { HOME: home, PATH: '/usr/bin:/bin' };
    const server = await startServer(['--log', 'stderr'], { cwd: home, cmd: [bin], env });
    try {
      const m = /User 'admin' initialised with randomly generated password: (\S+)/.exec(server.output());
      expect(m).not.toBeNull();
      const password = m![1]!;
      expect(password.length).toBeGreaterThanOrEqual(16);
      expect(password).not.toBe('admin');
      expect(statSync(join(home, 'data')).mode & 0o777).toBe(0o700);
      expect(statSync(join(home, 'data', 'filedeck.db')).mode & 0o777).toBe(0o600);
      expect(statSync(join(home, 'data', 'files')).isDirectory()).toBe(true);
      const login = await fetch(`${server.url}/api/login`, { method: 'POST', body: JSON.stringify({ username: 'admin', password }) });
      expect(login.status).toBe(200);
      const token = await login.text();
      const list = await fetch(`${server.url}/api/resources/`, { headers: { 'X-Auth': token } });
      expect(list.status).toBe(200);
      expect((await list.json()).isDir).toBe(true);

      const page = await fetch(`${server.url}/`);
      expect(page.status).toBe(200);
      const csp = page.headers.get('content-security-policy')!;
      const html = await page.text();
      // The one inline script (web/early.ts) is allowed by the hash of its text as served, and nothing else inline is.
      const inline = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
      expect(inline).toHaveLength(1);
      const hash = new Bun.CryptoHasher('sha256').update(inline[0]!).digest('base64');
      expect(/script-src ([^;]*)/.exec(csp)?.[1]).toBe(`'self' 'sha256-${hash}'`);
      expect(csp).not.toMatch(/script-src[^;]*unsafe/);
      expect(html).toContain('<script id="filedeck-config" type="application/json">');
      const cfg = JSON.parse(/<script id="filedeck-config" type="application\/json">(.*?)<\/script>/.exec(html)![1]!);
      expect(cfg).toMatchObject({ BaseURL: '', StaticURL: '/static', Signup: false, EnableExec: false, LoginPage: true });
      const js = /src="(\/static\/[^"]+\.js)"/.exec(html)?.[1];
      expect(js).toBeDefined();
      const asset = await fetch(`${server.url}${js}`, { headers: { 'Accept-Encoding': 'br, gzip' } });
      expect(asset.status).toBe(200);
      expect(asset.headers.get('content-type')).toContain('javascript');
      expect(asset.headers.get('cache-control')).toContain('immutable');
      const plain = await fetch(`${server.url}${js}`, { headers: { 'Accept-Encoding': 'identity' } });
      expect((await plain.text()).length).toBeGreaterThan(1000);
      const deep = await fetch(`${server.url}/files/some/deep/folder/`);
      expect(deep.status).toBe(200);
      expect(await deep.text()).toContain('filedeck-config');
      expect((await fetch(`${server.url}/static/nope.js`)).status).toBe(404);
    } finally {
      await server.stop();
    }
    const second = await startServer(['--log', ''], { cwd: home, cmd: [bin], env });
    expect(second.output()).not.toContain('password');
    await second.stop();
  });

  test('bad boot configuration exits 1 with a message naming the key', async () => {
    const bad = await cli(['serve', '--port', 'eighty'], { cwd: home });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('"port"');
    writeFileSync(join(home, 'filedeck.yaml'), 'port: 8080\n  address: [oops\n');
    const yaml = await cli(['serve'], { cwd: home });
    expect(yaml.code).toBe(1);
    expect(yaml.stderr).toContain('not valid YAML');
    writeFileSync(join(home, 'filedeck.yaml'), 'enableExec: perhaps\n');
    const val = await cli(['serve'], { cwd: home });
    expect(val.code).toBe(1);
    expect(val.stderr).toContain('"enableExec"');
    rmSync(join(home, 'filedeck.yaml'));
  });
});
