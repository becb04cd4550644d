import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { basic, davFetch, startDavServer, type DavServer, type DavUser } from './dav-fixture';

/**
 * macOS Finder's uploads: a PUT with `Transfer-Encoding: chunked`, no Content-Length and `X-Expected-Entity-Length`
 * (the peers store 0 bytes or fail with error -36), sent byte for byte over a raw socket; a PUT cut off mid-body
 * leaves the old file; `._*` and `.DS_Store` are dropped or kept by the `webdav.macMetadata` setting.
 */
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Sends a request head and then its body parts one by one (a pause between them); answers the raw response. */
function rawRequest(url: string, head: string, parts: Buffer[], opts: { cut?: boolean } = {}): Promise<string> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const sock = connect(Number(u.port), u.hostname);
    let got = '';
    sock.on('data', (d) => (got += d.toString('latin1')));
    sock.on('error', (e) => (opts.cut ? resolve(got) : reject(e)));
    sock.on('close', () => resolve(got));
    sock.on('connect', async () => {
      sock.write(head);
      for (const p of parts) {
        sock.write(p);
        await sleep(15);
      }
      if (opts.cut) {
        await sleep(100);
        sock.destroy();
      }
    });
  });
}

const chunk = (b: Buffer) => Buffer.concat([Buffer.from(`${b.length.toString(16)}\r\n`), b, Buffer.from('\r\n')]);
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe('Finder uploads', () => {
  let srv: DavServer;
  let fay: DavUser;
  const home = () => join(srv.root, 'fay');
  const head = (path: string, extra: string[]) =>
    [`PUT /dav${path} HTTP/1.1`, `Host: ${new URL(srv.url).host}`, 'User-Agent: WebDAVFS/3.0.0 (03008000) Darwin/23.0.0 (arm64)', `Authorization: ${basic(fay.username, fay.token)}`, 'Content-Type: application/octet-stream', ...extra, '', ''].join('\r\n');

  beforeAll(async () => {
    srv = await startDavServer('finder');
    fay = await srv.addUser('fay', 'fay-password-30981', '--scope', '/fay');
  }, 60_000);
  afterAll(async () => {
    await srv?.stop();
  });

  test('a chunked PUT without Content-Length stores the whole file (Finder: empty PUT first, then the body)', async () => {
    const body = Buffer.alloc(3 * 1024 * 1024 + 17);
    for (let i = 0; i < body.length; i++) body[i] = (i * 7 + (i >> 10)) & 0xff;
    const empty = await davFetch(srv.dav, fay, '/photo.raw', { method: 'PUT', body: '' });
    expect(empty.status).toBe(201);
    const parts: Buffer[] = [];
    for (let o = 0; o < body.length; o += 256 * 1024 + 3) parts.push(chunk(body.subarray(o, Math.min(body.length, o + 256 * 1024 + 3))));
    parts.push(Buffer.from('0\r\n\r\n'));
    const res = await rawRequest(srv.url, head('/photo.raw', ['Transfer-Encoding: chunked', `X-Expected-Entity-Length: ${body.length}`, 'Connection: close']), parts);
    expect(res).toMatch(/^HTTP\/1\.1 20[14] /);
    expect(statSync(join(home(), 'photo.raw')).size).toBe(body.length);
    expect(sha(readFileSync(join(home(), 'photo.raw')))).toBe(sha(body));
    const get = await davFetch(srv.dav, fay, '/photo.raw');
    expect(sha(Buffer.from(await get.arrayBuffer()))).toBe(sha(body));
  }, 30_000);

  test('a chunked PUT cut off mid-body leaves the old file whole and nothing else behind', async () => {
    expect((await davFetch(srv.dav, fay, '/keep.txt', { method: 'PUT', body: 'the old content' })).status).toBe(201);
    const listBefore = readdirSync(home()).sort();
    const parts = [chunk(Buffer.alloc(200_000, 0x61)), Buffer.from('186a0\r\nonly a little')];
    await rawRequest(srv.url, head('/keep.txt', ['Transfer-Encoding: chunked', 'X-Expected-Entity-Length: 300000']), parts, { cut: true });
    await sleep(300);
    expect(readFileSync(join(home(), 'keep.txt'), 'utf8')).toBe('the old content');
    expect(readdirSync(home()).sort()).toEqual(listBefore);
    // The server is still fine after the cut.
    expect((await davFetch(srv.dav, fay, '/keep.txt')).status).toBe(200);
  }, 30_000);

  test('macMetadata "ignore" (the default): ._* and .DS_Store are accepted, never stored, never listed', async () => {
    expect((await davFetch(srv.dav, fay, '/note.txt', { method: 'PUT', body: 'note' })).status).toBe(201);
    for (const name of ['._note.txt', '.DS_Store']) {
      const put = await davFetch(srv.dav, fay, `/${name}`, { method: 'PUT', body: 'mac metadata' });
      expect(put.status).toBeGreaterThanOrEqual(200);
      expect(put.status).toBeLessThan(300);
      expect(existsSync(join(home(), name))).toBe(false);
      expect((await davFetch(srv.dav, fay, `/${name}`)).status).toBe(404);
    }
    const list = await davFetch(srv.dav, fay, '/', { method: 'PROPFIND', headers: { Depth: '1' } });
    expect(list.status).toBe(207);
    const xml = await list.text();
    expect(xml).toContain('note.txt');
    expect(xml).not.toContain('._note.txt');
    expect(xml).not.toContain('.DS_Store');
  }, 30_000);

  test('macMetadata "keep": ._* and .DS_Store are stored like any file', async () => {
    await srv.setWebdav({ macMetadata: 'keep' });
    try {
      for (const name of ['._note.txt', '.DS_Store']) {
        expect((await davFetch(srv.dav, fay, `/${name}`, { method: 'PUT', body: 'mac metadata' })).status).toBe(201);
        expect(readFileSync(join(home(), name), 'utf8')).toBe('mac metadata');
        expect(await (await davFetch(srv.dav, fay, `/${name}`)).text()).toBe('mac metadata');
      }
    } finally {
      await srv.setWebdav({ macMetadata: 'ignore' });
    }
  }, 30_000);
});
