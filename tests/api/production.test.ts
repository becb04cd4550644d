import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { renderIndex } from '../../server/http/page-config';
import { listenHttp } from '../../server/http/listen';
import { silentLogger } from '../../server/core/log';
import type { PageConfig } from '../../server/contract/settings';
import { startServer, type RunningServer } from '../helpers/binary';
import { ADMIN_PASSWORD, makeTestApp, type TestApp } from '../helpers/test-app';
import { settled } from '../helpers/settle';
import { partFiles } from '../helpers/transfer-fixture';

/** One HTTP/1.1 request over a raw socket, so the Host header is exactly what we send. */
function rawRequest(port: number, head: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    let out = '';
    Bun.connect({
      hostname: '127.0.0.1',
      port,
      socket: {
        open: (s) => void s.write(`${head}\r\nConnection: close\r\n\r\n`),
        data: (_s, d) => void (out += d.toString()),
        close: () => resolve({ status: Number(out.split(' ')[1]), body: out.split('\r\n\r\n').slice(1).join('\r\n\r\n') }),
        error: (_s, e) => reject(e),
      },
    }).catch(reject);
  });
}

describe('production behaviour of the listening server', () => {
  let t: TestApp;
  let server: ReturnType<typeof listenHttp>;
  let token: string;
  beforeAll(async () => {
    t = await makeTestApp();
    server = listenHttp(t.app as never, { hostname: '127.0.0.1', port: 0, log: silentLogger });
    token = await t.adminToken();
    mkdirSync(join(t.root, 'docs'));
    writeFileSync(join(t.root, 'docs', 'a.txt'), 'a');
  });
  afterAll(async () => {
    server.stop(true);
    await t.close();
  });

  test('never in development mode (no framework error pages)', () => {
    expect(server.development).toBe(false);
  });

  test('any Host header routes: short names without a port reach the API like long ones', async () => {
    for (const host of ['nas', 'n', 'ab:80', 'nas1', 'files.example.org', '[::1]']) {
      const anon = await rawRequest(server.port!, `GET /api/resources/docs/ HTTP/1.1\r\nHost: ${host}`);
      expect([host, anon.status]).toEqual([host, 401]);
      const r = await rawRequest(server.port!, `GET /api/resources/docs/ HTTP/1.1\r\nHost: ${host}\r\nX-Auth: ${token}`);
      expect([host, r.status]).toEqual([host, 200]);
      expect(r.body).toContain('"a.txt"');
    }
  });
});

describe('no route shadows a folder name', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await makeTestApp();
    token = await t.adminToken();
  });
  afterAll(() => t.close());

  test('without a folder named "recursive", the reference tree route keeps its meaning', async () => {
    mkdirSync(join(t.root, 'x', 'y'), { recursive: true });
    const r = await t.req('GET', '/api/resources/recursive/x', { token });
    expect(r.status).toBe(200);
    expect((await r.json()).map((e: { path: string }) => e.path)).toEqual(['/x/y']);
  });

  test('a folder named "recursive" at the scope root lists, opens, downloads and deletes like any other', async () => {
    mkdirSync(join(t.root, 'recursive', 'inner'), { recursive: true });
    writeFileSync(join(t.root, 'recursive', 'inner', 'f.txt'), 'deep');
    const root = await t.req('GET', '/api/resources/recursive', { token });
    expect(root.status).toBe(200);
    const listing = await root.json();
    expect(listing.isDir).toBe(true);
    expect(listing.items.map((i: { name: string }) => i.name)).toEqual(['inner']);
    const inner = await (await t.req('GET', '/api/resources/recursive/inner/', { token })).json();
    expect(inner.items.map((i: { name: string }) => i.name)).toEqual(['f.txt']);
    expect(await (await t.req('GET', '/api/raw/recursive/inner/f.txt', { token })).text()).toBe('deep');
    // The web app's tree route shadows nothing.
    const tree = await (await t.req('GET', '/api/tree/recursive', { token })).json();
    expect(tree.map((e: { path: string }) => e.path)).toEqual(['/recursive/inner', '/recursive/inner/f.txt']);
    expect((await t.req('DELETE', '/api/resources/recursive/inner/f.txt', { token })).status).toBe(204);
  });
});

describe('admin-controlled bytes and strings', () => {
  let t: TestApp;
  const brand = mkdtempSync(join(tmpdir(), 'filedeck-brand-'));
  beforeAll(async () => {
    mkdirSync(join(brand, 'img'));
    writeFileSync(join(brand, 'img', 'logo.svg'), '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    writeFileSync(join(brand, 'custom.css'), 'body{color:red}');
    t = await makeTestApp({}, { branding: { name: 'x', disableExternal: false, disableUsedPercentage: false, files: brand, theme: '', color: '' } });
  });
  afterAll(async () => {
    await t.close();
    rmSync(brand, { recursive: true, force: true });
  });

  test('branding files get the sandbox policy of users\' files', async () => {
    for (const name of ['img/logo.svg', 'custom.css']) {
      const r = await t.req('GET', `/static/${name}`);
      expect(r.status).toBe(200);
      expect(r.headers.get('content-security-policy')).toContain('sandbox');
      expect(r.headers.get('content-security-policy')).toContain("script-src 'none'");
      expect(r.headers.get('x-content-type-options')).toBe('nosniff');
    }
  });

  test('the instance name is inserted as text: no "$" pattern expansion, no markup', () => {
    const template = '<html><head><title>Filedeck</title><script src="./app.js"></script></head><body></body></html>';
    const name = "$& $' $` $1 $$ </title><script>alert(1)</script>";
    const html = renderIndex(template, { Name: name, StaticURL: '/static', CSS: false } as unknown as PageConfig);
    expect(html.match(/<title>/g)?.length).toBe(1);
    expect(html).toContain('<title>$&#38; $&#39; $` $1 $$ &#60;/title&#62;&#60;script&#62;alert(1)&#60;/script&#62;</title>');
    expect(html).toContain('<script src="/static/app.js"></script>');
    const cfg = /<script id="filedeck-config" type="application\/json">(.*?)<\/script>/.exec(html)![1]!;
    expect(JSON.parse(cfg).Name).toBe(name);
  });
});

describe('signals drain in-flight requests with a deadline', () => {
  const dir = mkdtempSync(join(tmpdir(), 'filedeck-drain-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** Starts a server, logs in, and begins an upload whose body waits for `release` before its last part. */
  async function slowUpload(extra: string[]) {
    const server: RunningServer = await startServer(['-r', join(dir, 'files'), '-d', join(dir, `db-${Math.random()}.db`), '--password', ADMIN_PASSWORD, '--log', 'stderr', ...extra]);
    const token = await (await fetch(`${server.url}/api/login`, { method: 'POST', body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }) })).text();
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    const body = new ReadableStream<Uint8Array>({
      async start(c) {
        c.enqueue(new TextEncoder().encode('first half;'));
        await released;
        c.enqueue(new TextEncoder().encode('second half'));
        c.close();
      },
    });
    const name = `up-${Math.random().toString(36).slice(2)}.txt`;
    const upload = fetch(`${server.url}/api/resources/${name}`, { method: 'POST', headers: { 'X-Auth': token }, body, duplex: 'half' } as RequestInit)
      .then((r) => r.status, () => 0);
    // In flight means the server is writing it: its temp is there (a fixed wait let a slow start meet the signal first).
    expect(await settled(() => partFiles(join(dir, 'files')).length, 1)).toBe(1);
    return { server, upload, release, name };
  }

  test('SIGHUP lets an upload in flight finish, refuses new connections, then exits 0', async () => {
    const { server, upload, release, name } = await slowUpload([]);
    server.proc.kill('SIGHUP');
    await Bun.sleep(300);
    expect(server.proc.exitCode).toBeNull(); // still draining
    release();
    expect(await upload).toBe(200);
    expect(await server.proc.exited).toBe(0);
    expect(await Bun.file(join(dir, 'files', name)).text()).toBe('first half;second half');
  });

  test('past the deadline the rest is cut and the process still exits 0, leaving no partial file', async () => {
    const { server, upload, name } = await slowUpload(['--shutdownTimeout', '1s']);
    const t0 = Date.now();
    server.proc.kill('SIGTERM');
    expect(await server.proc.exited).toBe(0);
    expect(Date.now() - t0).toBeLessThan(8000);
    expect(await upload).not.toBe(200);
    expect(await Bun.file(join(dir, 'files', name)).exists()).toBe(false);
  }, 20_000);
});
