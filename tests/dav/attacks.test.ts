import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { basic, startDavServer, type DavServer, type DavUser } from './dav-fixture';
import { rawHttp, rssOf, type RawAnswer } from './raw-http';

/**
 * The peers' attack list (reference peers.md §4.1, §4.5) against /dav/, every request sent byte for byte over a raw
 * socket. alice's scope is /alice; the server root also holds bob's /bob, a file outside every scope, and alice's
 * scope holds symlinks out of it. After every attack the disk outside alice's scope is unchanged and nothing
 * outside came back in an answer.
 */
const OUTSIDE = 'TOP-SECRET-OUTSIDE';
const BOBS = 'BOB-PRIVATE-CONTENT';
const TRAVERSALS = [
  '/../secret.txt', '/../../secret.txt', '/%2e%2e/secret.txt', '/%2E%2E/%2e%2e/secret.txt', '/..%2fsecret.txt', '/%2e%2e%2fsecret.txt',
  '/%252e%252e/secret.txt', '/%252e%252e%252fsecret.txt', '/%c0%ae%c0%ae/secret.txt', '/%c0%ae%c0%ae%c0%afsecret.txt', '/..%5csecret.txt',
  '/..\\secret.txt', '/a.txt%00.jpg', '/%00', '//../secret.txt', '/./../secret.txt', '/../bob/b.txt', '/%2e%2e/bob/b.txt',
  '/tobob/b.txt', '/tobob', '/tosecret.txt', '/.filedeck-trash', '/.filedeck-trash/x', '/.filedeck-versions', '/.filedeck-versions/x',
  '/sub/..%2f..%2f..%2fsecret.txt', '/a.txt/../../secret.txt',
];
/** DELETE and MOVE last: taking a link itself away (inside the scope) is allowed and would empty the later rounds. */
const METHODS = ['OPTIONS', 'GET', 'HEAD', 'PUT', 'MKCOL', 'PROPFIND', 'PROPPATCH', 'COPY', 'LOCK', 'UNLOCK', 'MOVE', 'DELETE'];
const PROPPATCH = '<?xml version="1.0"?><D:propertyupdate xmlns:D="DAV:"><D:set><D:prop><x:p xmlns:x="urn:x">v</x:p></D:prop></D:set></D:propertyupdate>';
const LOCKBODY = '<?xml version="1.0"?><D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype></D:lockinfo>';

/** sha256 of every file under `dir` but `skip` (relative to dir) — the disk an attack must not touch. */
function snapshot(dir: string, skip: string[]): string {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      const rel = relative(dir, p);
      if (skip.some((s) => rel === s || rel.startsWith(`${s}/`))) continue;
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) out.push(`${rel} ${createHash('sha256').update(readFileSync(p)).digest('hex')}`);
      else out.push(`${rel} link`);
    }
  };
  walk(dir);
  return out.sort().join('\n');
}

describe('WebDAV attacks', () => {
  let srv: DavServer;
  let alice: DavUser;
  let bob: DavUser;
  let auth: Record<string, string>;
  let outsideBefore = '';
  const outside = () => snapshot(srv.root, ['alice', 'db', '.filedeck-trash', '.filedeck-versions']);
  const body = (method: string) => (method === 'PUT' ? 'planted' : method === 'PROPPATCH' ? PROPPATCH : method === 'LOCK' ? LOCKBODY : undefined);
  const dav = (method: string, path: string, headers: Record<string, string> = {}, b?: string | Buffer) => rawHttp(srv.url, method, `/dav${path}`, { ...auth, ...headers }, b);
  const clean = (r: RawAnswer, what: string) => {
    expect(r.status, `${what} → ${r.status}`).toBeLessThan(500);
    expect(r.body, what).not.toContain(OUTSIDE);
    expect(r.body, what).not.toContain(BOBS);
  };

  beforeAll(async () => {
    srv = await startDavServer('attacks', { base: existsSync('/dev/shm') ? '/dev/shm' : undefined });
    mkdirSync(join(srv.root, 'alice', 'sub'), { recursive: true });
    mkdirSync(join(srv.root, 'bob'), { recursive: true });
    writeFileSync(join(srv.root, 'secret.txt'), OUTSIDE);
    writeFileSync(join(srv.root, 'bob', 'b.txt'), BOBS);
    writeFileSync(join(srv.root, 'alice', 'a.txt'), 'alice file');
    symlinkSync(join(srv.root, 'bob'), join(srv.root, 'alice', 'tobob'));
    symlinkSync(join(srv.root, 'secret.txt'), join(srv.root, 'alice', 'tosecret.txt'));
    alice = await srv.addUser('alice', 'alice-password-77123', '--scope', '/alice');
    bob = await srv.addUser('bob', 'bob-password-88234', '--scope', '/bob');
    auth = { Authorization: basic(alice.username, alice.token) };
    outsideBefore = outside();
  }, 60_000);
  afterAll(async () => {
    await srv?.stop();
  });

  test('path traversal on every method: refused or kept inside the scope, nothing outside read or written', async () => {
    for (const method of METHODS) {
      for (const path of TRAVERSALS) {
        const b = body(method);
        const dest: Record<string, string> = method === 'COPY' || method === 'MOVE' ? { Destination: `${srv.url}/dav/copied-${METHODS.indexOf(method)}`, Overwrite: 'T' } : {};
        const r = await dav(method, path, { Depth: '0', ...dest, ...(b ? { 'Content-Type': 'application/xml' } : {}) } as Record<string, string>, b);
        clean(r, `${method} ${path}`);
        if (/tobob|tosecret|filedeck-/.test(path) && !['OPTIONS', 'MOVE', 'DELETE', 'UNLOCK'].includes(method)) expect(r.status, `${method} ${path}`).not.toBeOneOf([200, 201, 204, 207]);
      }
    }
    expect(outside()).toBe(outsideBefore);
    expect(readFileSync(join(srv.root, 'alice', 'a.txt'), 'utf8')).toBe('alice file');
    // Nothing from outside was copied into the scope either (a COPY through a link would bring bob's file in).
    expect(snapshot(join(srv.root, 'alice'), [])).not.toMatch(new RegExp(createHash('sha256').update(BOBS).digest('hex')));
    expect(snapshot(join(srv.root, 'alice'), [])).not.toMatch(new RegExp(createHash('sha256').update(OUTSIDE).digest('hex')));
  }, 120_000);

  test('Destination: other hosts, other ports, encoded .., backslashes, NUL, reserved names, symlinks out, non-/dav/ paths', async () => {
    const host = new URL(srv.url).host;
    const port = Number(new URL(srv.url).port);
    const dests = [
      'http://evil.example/dav/stolen.txt', `http://127.0.0.1:${port + 1}/dav/stolen.txt`, `http://localhost.evil.example:${port}/dav/stolen.txt`,
      `http://${host}/dav/../secret.txt`, `http://${host}/dav/../../bob/stolen.txt`, `http://${host}/dav/%2e%2e/stolen.txt`, `http://${host}/dav/%2e%2e%2fstolen.txt`,
      `http://${host}/dav/%252e%252e/stolen.txt`, `http://${host}/dav/%c0%ae%c0%ae/stolen.txt`, `http://${host}/dav/..%5cstolen.txt`, `http://${host}/dav/..\\stolen.txt`,
      `http://${host}/dav/stolen%00.txt`, `http://${host}/dav/.filedeck-trash/stolen.txt`, `http://${host}/dav/.filedeck-versions/stolen.txt`,
      `http://${host}/dav/tobob/stolen.txt`, `http://${host}/dav/tosecret.txt`, `http://${host}/api/resources/stolen.txt`, `http://${host}/stolen.txt`,
      '/dav/../secret.txt', '/dav/%2e%2e/stolen.txt', '../stolen.txt', 'file:///etc/passwd', `http://alice:x@${host}/dav/../../stolen.txt`, '',
    ];
    for (const method of ['COPY', 'MOVE']) {
      for (const d of dests) {
        if (!existsSync(join(srv.root, 'alice', 'a.txt'))) writeFileSync(join(srv.root, 'alice', 'a.txt'), 'alice file');
        const r = await dav(method, '/a.txt', { Destination: d, Overwrite: 'T' });
        clean(r, `${method} → ${d}`);
        if (!d.includes('/dav/') || d.includes('evil') || d.includes(`:${port + 1}`) || /tobob|tosecret|filedeck-|file:/.test(d)) {
          expect(r.status, `${method} → ${d}`).toBeGreaterThanOrEqual(400);
        }
      }
    }
    expect(outside()).toBe(outsideBefore);
    expect(existsSync(join(srv.root, 'stolen.txt'))).toBe(false);
    expect(existsSync(join(srv.root, 'bob', 'stolen.txt'))).toBe(false);
  }, 60_000);

  test('LOCK cannot block another user\'s file: not through traversal, not by a user who may not change it', async () => {
    for (const p of ['/../bob/b.txt', '/%2e%2e/bob/b.txt', '/tobob/b.txt', '/tobob']) {
      const r = await dav('LOCK', p, { Depth: 'infinity', Timeout: 'Infinite', 'Content-Type': 'application/xml' }, LOCKBODY);
      expect(r.status, `LOCK ${p}`).not.toBeOneOf([200, 201]);
    }
    const asBob = { Authorization: basic(bob.username, bob.token) };
    const put = await rawHttp(srv.url, 'PUT', '/dav/b.txt', asBob, 'bob rewrote it');
    expect(put.status).toBeOneOf([200, 201, 204]);
    // A reader of a shared folder (no modify, create or delete) cannot lock its files against the writers.
    mkdirSync(join(srv.root, 'team'), { recursive: true });
    writeFileSync(join(srv.root, 'team', 'plan.txt'), 'plan');
    await srv.fd('users', 'add', 'reader', 'reader-password-55321', '--scope', '/team', '--perm.download', 'true');
    const reader = (await srv.fd('tokens', 'add', '--user', 'reader', '--name', 'r', '--perm', 'download')).stdout.split('\n')[0]!.trim();
    const writer = await srv.addUser('writer', 'writer-password-66432', '--scope', '/team');
    const rl = await rawHttp(srv.url, 'LOCK', '/dav/plan.txt', { Authorization: basic('reader', reader), Timeout: 'Infinite', 'Content-Type': 'application/xml' }, LOCKBODY);
    expect(rl.status).toBe(403);
    const rlNew = await rawHttp(srv.url, 'LOCK', '/dav/new-by-reader.txt', { Authorization: basic('reader', reader), 'Content-Type': 'application/xml' }, LOCKBODY);
    expect(rlNew.status).toBe(403);
    expect(existsSync(join(srv.root, 'team', 'new-by-reader.txt'))).toBe(false);
    const w = await rawHttp(srv.url, 'PUT', '/dav/plan.txt', { Authorization: basic(writer.username, writer.token) }, 'new plan');
    expect(w.status).toBe(204);
  }, 60_000);

  test('PROPFIND Depth: infinity on a 100,000-entry tree is refused at once, memory flat', async () => {
    const big = join(srv.root, 'alice', 'big');
    for (let d = 0; d < 100; d++) {
      mkdirSync(join(big, `d${d}`), { recursive: true });
      for (let f = 0; f < 1000; f++) writeFileSync(join(big, `d${d}`, `f${f}`), '');
    }
    const pid = srv.server.proc.pid;
    const before = await rssOf(pid);
    const t0 = performance.now();
    for (const path of ['/', '/big/']) {
      const r = await dav('PROPFIND', path, { Depth: 'infinity' });
      expect(r.status).toBe(403);
      expect(r.body).toContain('propfind-finite-depth');
    }
    const noDepth = await dav('PROPFIND', '/big/', {}); // no Depth header means infinity (RFC 4918 §9.1)
    expect(noDepth.status).toBe(403);
    expect(performance.now() - t0).toBeLessThan(1000);
    expect((await rssOf(pid)) - before).toBeLessThan(32 * 1024 * 1024);
  }, 90_000);

  test('huge PROPPATCH and LOCK bodies: 413 before parsing (declared, sent, or chunked without a length), memory flat', async () => {
    const pid = srv.server.proc.pid;
    const before = await rssOf(pid);
    const xml = { 'Content-Type': 'application/xml' };
    // A declared size over the cap is answered before a byte of the body is read.
    for (const method of ['PROPPATCH', 'LOCK']) {
      const r = await dav(method, '/a.txt', { ...xml, 'Content-Length': String(64 * 1024 * 1024) });
      expect(r.status, method).toBe(413);
    }
    // 64 MiB actually sent, with its length and chunked without one: refused as it arrives. The server may reset
    // the connection while the client is still sending, which can swallow the 413 (status 0 here).
    const filler = Buffer.alloc(64 * 1024 * 1024, 'a');
    const pp = Buffer.concat([Buffer.from('<?xml version="1.0"?><D:propertyupdate xmlns:D="DAV:"><D:set><D:prop><x:p xmlns:x="urn:x">'), filler, Buffer.from('</x:p></D:prop></D:set></D:propertyupdate>')]);
    const lk = Buffer.concat([Buffer.from('<?xml version="1.0"?><D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype><D:owner>'), filler, Buffer.from('</D:owner></D:lockinfo>')]);
    const chunked = (b: Buffer) => {
      const parts: Buffer[] = [];
      for (let o = 0; o < b.length; o += 1 << 20) {
        const c = b.subarray(o, o + (1 << 20));
        parts.push(Buffer.from(`${c.length.toString(16)}\r\n`), c, Buffer.from('\r\n'));
      }
      return Buffer.concat([...parts, Buffer.from('0\r\n\r\n')]);
    };
    for (const [method, b] of [['PROPPATCH', pp], ['LOCK', lk]] as const) {
      expect((await dav(method, '/a.txt', xml, b)).status, method).toBeOneOf([0, 400, 413]);
      expect((await dav(method, '/a.txt', { ...xml, 'Transfer-Encoding': 'chunked' }, chunked(b))).status, `${method} chunked`).toBeOneOf([0, 400, 413]);
    }
    // Many small properties in a body under the cap: refused or stored, never a crash.
    const many = `<?xml version="1.0"?><D:propertyupdate xmlns:D="DAV:"><D:set><D:prop>${Array.from({ length: 20_000 }, (_, i) => `<x:p${i} xmlns:x="urn:x">v</x:p${i}>`).join('')}</D:prop></D:set></D:propertyupdate>`;
    const r3 = await dav('PROPPATCH', '/a.txt', xml, many);
    expect(r3.status).toBeGreaterThan(0);
    expect(r3.status).toBeLessThan(500);
    expect((await rssOf(pid)) - before).toBeLessThan(48 * 1024 * 1024);
    expect((await dav('GET', '/a.txt')).status).toBe(200);
  }, 60_000);

  test('XML entity expansion and external entities: 400, nothing read, nothing fetched', async () => {
    let fetched = 0;
    const lure = Bun.serve({ port: 0, fetch: () => { fetched++; return new Response('<x>lured</x>'); } });
    try {
      const laughs = `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">${Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i || ''};`.repeat(10)}">`).join('')}]><D:propfind xmlns:D="DAV:"><D:prop><D:displayname>&lol9;</D:displayname></D:prop></D:propfind>`;
      const passwd = '<?xml version="1.0"?><!DOCTYPE p [<!ENTITY e SYSTEM "file:///etc/passwd">]><D:propertyupdate xmlns:D="DAV:"><D:set><D:prop><x:leak xmlns:x="urn:x">&e;</x:leak></D:prop></D:set></D:propertyupdate>';
      const remote = `<?xml version="1.0"?><!DOCTYPE p [<!ENTITY e SYSTEM "http://127.0.0.1:${lure.port}/x">]><D:propertyupdate xmlns:D="DAV:"><D:set><D:prop><x:leak xmlns:x="urn:x">&e;</x:leak></D:prop></D:set></D:propertyupdate>`;
      const param = `<?xml version="1.0"?><!DOCTYPE p [<!ENTITY % ext SYSTEM "http://127.0.0.1:${lure.port}/dtd"> %ext;]><D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype></D:lockinfo>`;
      const cases: [string, string][] = [['PROPFIND', laughs], ['PROPPATCH', passwd], ['PROPPATCH', remote], ['LOCK', param], ['PROPFIND', passwd.replace('propertyupdate', 'propfind')]];
      for (const [method, xml] of cases) {
        const r = await dav(method, '/a.txt', { Depth: '0', 'Content-Type': 'application/xml' }, xml);
        expect(r.status, `${method} with a DOCTYPE`).toBe(400);
        expect(r.body).not.toContain('root:');
        expect(r.body).not.toContain('lollol');
      }
      const props = await dav('PROPFIND', '/a.txt', { Depth: '0' }, '<?xml version="1.0"?><D:propfind xmlns:D="DAV:"><D:allprop/></D:propfind>');
      expect(props.body).not.toContain('root:');
      expect(props.body).not.toContain('lured');
      expect(fetched).toBe(0);
    } finally {
      lure.stop(true);
    }
  }, 30_000);

  test('no credentials: 401 with the Basic challenge on /dav/ only; never anonymous', async () => {
    for (const method of ['OPTIONS', 'PROPFIND', 'GET', 'PUT']) {
      const r = await rawHttp(srv.url, method, '/dav/a.txt', {}, method === 'PUT' ? 'x' : undefined);
      expect(r.status, method).toBe(401);
      expect(r.headers['www-authenticate']).toMatch(/^Basic realm="Filedeck"/);
    }
    const api = await rawHttp(srv.url, 'GET', '/api/resources/', {});
    expect(api.status).toBe(401);
    expect(api.headers['www-authenticate'] ?? '').not.toMatch(/Basic/i);
    expect(readFileSync(join(srv.root, 'alice', 'a.txt'), 'utf8')).toBe('alice file');
    expect(statSync(join(srv.root, 'secret.txt')).size).toBe(OUTSIDE.length);
  });

  // Last: it uses up this address's login attempts.
  test('a flood of bad passwords is rate-limited (429 with Retry-After)', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) {
      const r = await rawHttp(srv.url, 'PROPFIND', '/dav/', { Depth: '0', Authorization: basic('alice', `wrong-password-${i}`) });
      statuses.push(r.status);
      if (r.status === 429) {
        expect(Number(r.headers['retry-after'])).toBeGreaterThan(0);
        break;
      }
    }
    expect(statuses).toContain(429);
    expect(statuses.filter((s) => s !== 401 && s !== 429)).toEqual([]);
  }, 30_000);
});
