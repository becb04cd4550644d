import { afterEach, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeTestApp, type TestApp } from '../helpers/test-app';
import { ScopedFs } from '../../server/fs/scoped-fs';
import { head, listen, partFiles, random, sendAndHangUp, sha256, sha256File, track, type Live, type Tracked } from '../helpers/transfer-fixture';

let t: TestApp;
let live: Live | null = null;
let tracked: Tracked | null = null;
afterEach(async () => {
  tracked?.restore();
  tracked = null;
  await live?.stop();
  live = null;
  t?.close();
});

const OCTET = { 'Content-Type': 'application/offset+octet-stream' };

describe('POST and PUT /api/resources', () => {
  test('upload, 409 without override, overwrite with override=true, ETag on every write', async () => {
    t = await makeTestApp();
    const token = await t.adminToken();
    const one = random(5000);
    const r = await t.req('POST', '/api/resources/docs/new%20file.bin', { token, raw: one });
    expect(r.status).toBe(200);
    expect(r.headers.get('etag')).toMatch(/^"[0-9a-f]+"$/);
    expect(sha256File(join(t.root, 'docs', 'new file.bin'))).toBe(sha256(one)); // missing parent created

    const two = random(7000);
    const conflict = await t.req('POST', '/api/resources/docs/new%20file.bin', { token, raw: two });
    expect(conflict.status).toBe(409);
    expect(sha256File(join(t.root, 'docs', 'new file.bin'))).toBe(sha256(one));

    const over = await t.req('POST', '/api/resources/docs/new%20file.bin?override=true', { token, raw: two });
    expect(over.status).toBe(200);
    expect(over.headers.get('etag')).toMatch(/^"[0-9a-f]+"$/);
    expect(over.headers.get('etag')).not.toBe(r.headers.get('etag'));
    expect(sha256File(join(t.root, 'docs', 'new file.bin'))).toBe(sha256(two));
    expect(partFiles(join(t.root, 'docs'))).toEqual([]);
  });

  test('a trailing slash creates folders (200 even when they exist); a file cannot replace a folder', async () => {
    t = await makeTestApp();
    const token = await t.adminToken();
    for (let i = 0; i < 2; i++) {
      const r = await t.req('POST', '/api/resources/x/y/z/', { token });
      expect(r.status).toBe(200);
      expect(statSync(join(t.root, 'x', 'y', 'z')).isDirectory()).toBe(true);
    }
    const r = await t.req('POST', '/api/resources/x/y?override=true', { token, raw: 'data' });
    expect(r.status).toBe(409);
    expect(statSync(join(t.root, 'x', 'y')).isDirectory()).toBe(true);
  });

  test('PUT replaces content with an ETag, never creates (404), and is 405 on a folder', async () => {
    t = await makeTestApp();
    const token = await t.adminToken();
    writeFileSync(join(t.root, 'note.txt'), 'old content');
    mkdirSync(join(t.root, 'folder'));
    const r = await t.req('PUT', '/api/resources/note.txt', { token, raw: 'new content, longer than before' });
    expect(r.status).toBe(200);
    expect(r.headers.get('etag')).toMatch(/^"[0-9a-f]+"$/);
    expect(readFileSync(join(t.root, 'note.txt'), 'utf8')).toBe('new content, longer than before');

    expect((await t.req('PUT', '/api/resources/missing.txt', { token, raw: 'x' })).status).toBe(404);
    expect(existsSync(join(t.root, 'missing.txt'))).toBe(false);
    expect((await t.req('PUT', '/api/resources/folder', { token, raw: 'x' })).status).toBe(405);
    expect((await t.req('PUT', '/api/resources/folder/', { token, raw: 'x' })).status).toBe(405);
    expect((await t.req('PUT', '/api/resources/note.txt/', { token, raw: 'x' })).status).toBe(405);
    expect(statSync(join(t.root, 'folder')).isDirectory()).toBe(true);
    expect(partFiles(t.root)).toEqual([]);
  });
});

describe('an upload cut off half-way', () => {
  test('POST: the old file stays byte-identical and no partial file is left', async () => {
    t = await makeTestApp();
    const token = await t.adminToken();
    const old = random(20_000);
    writeFileSync(join(t.root, 'f.bin'), old);
    live = listen(t);
    tracked = track(ScopedFs.prototype, 'writeFile');
    const sent = random(3 * 1024 * 1024);
    await sendAndHangUp(live.port, head('POST', '/api/resources/f.bin?override=true', { 'X-Auth': token, 'Content-Length': 10_000_000, 'Content-Type': 'application/octet-stream' }), sent);
    expect(await tracked.idle()).toBe(true); // the server has finished with the request
    expect(tracked.outcomes).toHaveLength(1);
    expect(tracked.outcomes[0]).not.toBe('ok'); // the truncated body was not committed
    expect(partFiles(t.root)).toEqual([]);
    expect(sha256File(join(t.root, 'f.bin'))).toBe(sha256(old));
    // the server still answers on a new connection
    const r = await fetch(`${live.url}/api/resources/f.bin`, { headers: { 'X-Auth': token } });
    expect(r.status).toBe(200);
    expect((await r.json()).size).toBe(old.length);
  });

  test('POST with a chunked body cut off: the old file stays byte-identical', async () => {
    t = await makeTestApp();
    const token = await t.adminToken();
    const old = random(20_000);
    writeFileSync(join(t.root, 'f.bin'), old);
    live = listen(t);
    tracked = track(ScopedFs.prototype, 'writeFile');
    const chunk = random(1024 * 1024);
    const size = Buffer.from(`${chunk.length.toString(16)}\r\n`);
    const body = Buffer.concat([size, chunk, Buffer.from('\r\n'), size, chunk.subarray(0, 5000)]); // no final 0-chunk
    await sendAndHangUp(live.port, head('POST', '/api/resources/f.bin?override=true', { 'X-Auth': token, 'Transfer-Encoding': 'chunked' }), body);
    expect(await tracked.idle()).toBe(true);
    expect(tracked.outcomes[0]).not.toBe('ok');
    expect(partFiles(t.root)).toEqual([]);
    expect(sha256File(join(t.root, 'f.bin'))).toBe(sha256(old));
  });

  test('POST of a new file: nothing appears at the target', async () => {
    t = await makeTestApp();
    const token = await t.adminToken();
    mkdirSync(join(t.root, 'in'));
    live = listen(t);
    tracked = track(ScopedFs.prototype, 'writeFile');
    await sendAndHangUp(live.port, head('POST', '/api/resources/in/new.bin', { 'X-Auth': token, 'Content-Length': 10_000_000 }), random(2 * 1024 * 1024));
    expect(await tracked.idle()).toBe(true);
    expect(tracked.outcomes[0]).not.toBe('ok');
    expect(partFiles(join(t.root, 'in'))).toEqual([]);
    expect(existsSync(join(t.root, 'in', 'new.bin'))).toBe(false);
  });
});

describe('tus resumable uploads', () => {
  test('create, HEAD, chunks, a dropped PATCH, resume, finish: same sha256, target untouched until the end', async () => {
    t = await makeTestApp();
    const token = await t.adminToken();
    const dir = join(t.root, 'up');
    mkdirSync(dir);
    const old = random(1000);
    writeFileSync(join(dir, 'big file.bin'), old);
    const src = random(8 * 1024 * 1024 + 123);
    const MB = 1024 * 1024;
    live = listen(t);
    const url = `${live.url}/api/tus/up/big%20file.bin`;
    const auth = { 'X-Auth': token };

    const created = await fetch(`${url}?override=true`, { method: 'POST', headers: { ...auth, 'Upload-Length': String(src.length) } });
    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toBe('/api/tus/up/big%20file.bin');
    expect(created.headers.get('tus-resumable')).toBe('1.0.0');
    expect(partFiles(dir)).toHaveLength(1);

    const headOf = async () => {
      const h = await fetch(url, { method: 'HEAD', headers: auth });
      expect(h.status).toBe(200);
      expect(h.headers.get('upload-length')).toBe(String(src.length));
      return Number(h.headers.get('upload-offset'));
    };
    expect(await headOf()).toBe(0);

    const patch = (offset: number, end: number) =>
      fetch(url, { method: 'PATCH', headers: { ...auth, ...OCTET, 'Upload-Offset': String(offset) }, body: src.slice(offset, end) });
    const p1 = await patch(0, 3 * MB);
    expect(p1.status).toBe(204);
    expect(p1.headers.get('upload-offset')).toBe(String(3 * MB));
    expect(p1.headers.get('tus-resumable')).toBe('1.0.0');
    expect(await headOf()).toBe(3 * MB);
    expect(sha256File(join(dir, 'big file.bin'))).toBe(sha256(old));

    expect((await patch(0, 10)).status).toBe(409); // stale offset
    expect((await patch(3 * MB + 5, 3 * MB + 10)).status).toBe(409);
    expect(await headOf()).toBe(3 * MB);

    // A PATCH promising 3 MB that sends 1.5 MB and hangs up.
    tracked = track(t.s.tus, 'append');
    await sendAndHangUp(live.port, head('PATCH', '/api/tus/up/big%20file.bin', { ...auth, ...OCTET, 'Upload-Offset': 3 * MB, 'Content-Length': 3 * MB }), src.slice(3 * MB, 4.5 * MB));
    expect(await tracked.idle()).toBe(true); // the server has finished with the dropped PATCH
    const kept = await headOf();
    expect(kept).toBeGreaterThanOrEqual(3 * MB);
    expect(kept).toBeLessThanOrEqual(4.5 * MB);
    const parts = partFiles(dir);
    expect(parts).toHaveLength(1);
    expect(sha256File(join(dir, parts[0]!))).toBe(sha256(src.subarray(0, kept))); // exactly the bytes kept
    expect(sha256File(join(dir, 'big file.bin'))).toBe(sha256(old));

    let offset = kept;
    while (offset < src.length) {
      const end = Math.min(offset + 3 * MB, src.length);
      const r = await patch(offset, end);
      expect(r.status).toBe(204);
      expect(r.headers.get('upload-offset')).toBe(String(end));
      if (end < src.length) expect(sha256File(join(dir, 'big file.bin'))).toBe(sha256(old));
      offset = end;
    }
    expect(sha256File(join(dir, 'big file.bin'))).toBe(sha256(src));
    expect(partFiles(dir)).toEqual([]);
    expect((await fetch(url, { method: 'HEAD', headers: auth })).status).toBe(404);
    expect((await t.s.stores.uploads.get(1, '/up/big file.bin'))).toBeNull();
  }, 60_000);

  test('a new target does not exist until the upload completes', async () => {
    t = await makeTestApp();
    const token = await t.adminToken();
    const src = random(4096);
    expect((await t.req('POST', '/api/tus/n/new.bin', { token, headers: { 'Upload-Length': '4096' } })).status).toBe(201);
    expect((await t.req('PATCH', '/api/tus/n/new.bin', { token, headers: { ...OCTET, 'Upload-Offset': '0' }, raw: src.slice(0, 4000) })).status).toBe(204);
    expect(existsSync(join(t.root, 'n', 'new.bin'))).toBe(false);
    expect((await t.req('POST', '/api/tus/n/new.bin', { token, headers: { 'Upload-Length': '4096' } })).status).toBe(201); // re-create restarts
    expect(partFiles(join(t.root, 'n'))).toHaveLength(1);
    const r = await t.req('PATCH', '/api/tus/n/new.bin', { token, headers: { ...OCTET, 'Upload-Offset': '0' }, raw: src });
    expect(r.status).toBe(204);
    expect(sha256File(join(t.root, 'n', 'new.bin'))).toBe(sha256(src));
    expect(partFiles(join(t.root, 'n'))).toEqual([]);
  });

  test('Upload-Length is enforced: 413 and rollback past it; 400 on negative, non-numeric or missing', async () => {
    t = await makeTestApp();
    const token = await t.adminToken();
    const src = random(100);
    for (const bad of ['-1', 'abc', '1.5', '']) expect((await t.req('POST', '/api/tus/x.bin', { token, headers: { 'Upload-Length': bad } })).status).toBe(400);
    expect((await t.req('POST', '/api/tus/x.bin', { token })).status).toBe(400);
    expect(existsSync(join(t.root, 'x.bin'))).toBe(false);
    expect(partFiles(t.root)).toEqual([]);

    expect((await t.req('POST', '/api/tus/x.bin', { token, headers: { 'Upload-Length': '100' } })).status).toBe(201);
    const send = (offset: number, body: Uint8Array) => t.req('PATCH', '/api/tus/x.bin', { token, headers: { ...OCTET, 'Upload-Offset': String(offset) }, raw: body });
    expect((await send(0, src.slice(0, 60))).status).toBe(204);
    expect((await send(60, random(50))).status).toBe(413);
    const h = await t.req('HEAD', '/api/tus/x.bin', { token });
    expect(h.headers.get('upload-offset')).toBe('60');
    expect(statSync(join(t.root, partFiles(t.root)[0]!)).size).toBe(60);
    expect((await send(101, random(1))).status).toBe(400); // offset past the length
    const done = await send(60, src.slice(60));
    expect(done.status).toBe(204);
    expect(done.headers.get('upload-offset')).toBe('100');
    expect(sha256File(join(t.root, 'x.bin'))).toBe(sha256(src));
  });


  test('HEADs while chunks are written never make a PATCH fail (a HEAD takes no lock)', async () => {
    t = await makeTestApp();
    const token = await t.adminToken();
    const src = random(64 * 1024);
    expect((await t.req('POST', '/api/tus/busy.bin', { token, headers: { 'Upload-Length': String(src.length) } })).status).toBe(201);
    let stop = false;
    const offsets: string[] = [];
    const heads = (async () => {
      while (!stop) {
        const h = await t.req('HEAD', '/api/tus/busy.bin', { token });
        if (h.status === 200) offsets.push(h.headers.get('upload-offset')!);
        else if (h.status !== 404) offsets.push(`status ${h.status}`);
        await Bun.sleep(0); // in process a HEAD may finish in microtasks alone: let the PATCHes run
      }
    })();
    const statuses: number[] = [];
    for (let at = 0; at < src.length; at += 1024) {
      const r = await t.req('PATCH', '/api/tus/busy.bin', { token, headers: { ...OCTET, 'Upload-Offset': String(at) }, raw: src.slice(at, at + 1024) });
      statuses.push(r.status);
    }
    stop = true;
    await heads;
    expect(statuses.every((s) => s === 204)).toBe(true);
    expect(offsets.length).toBeGreaterThan(0);
    expect(offsets.every((o) => /^\d+$/.test(o))).toBe(true);
    expect(sha256File(join(t.root, 'busy.bin'))).toBe(sha256(src));
  });
  test('404 for unknown uploads, 409 for an existing target without override', async () => {
    t = await makeTestApp();
    const token = await t.adminToken();
    writeFileSync(join(t.root, 'exists.txt'), 'keep me');
    expect((await t.req('POST', '/api/tus/exists.txt', { token, headers: { 'Upload-Length': '3' } })).status).toBe(409);
    expect(readFileSync(join(t.root, 'exists.txt'), 'utf8')).toBe('keep me');
    expect(partFiles(t.root)).toEqual([]);
    expect((await t.req('HEAD', '/api/tus/nope.bin', { token })).status).toBe(404);
    expect((await t.req('PATCH', '/api/tus/nope.bin', { token, headers: { ...OCTET, 'Upload-Offset': '0' }, raw: 'abc' })).status).toBe(404);
    expect((await t.req('DELETE', '/api/tus/nope.bin', { token })).status).toBe(404);
    expect(existsSync(join(t.root, 'nope.bin'))).toBe(false);
  });

  test('PATCH with a Content-Type other than application/offset+octet-stream is 415 and writes nothing', async () => {
    t = await makeTestApp();
    const token = await t.adminToken();
    expect((await t.req('POST', '/api/tus/u.bin', { token, headers: { 'Upload-Length': '3' } })).status).toBe(201);
    for (const headers of [{ 'Content-Type': 'application/octet-stream' }, { 'Content-Type': 'text/plain' }, {}] as Record<string, string>[]) {
      const r = await t.req('PATCH', '/api/tus/u.bin', { token, headers: { ...headers, 'Upload-Offset': '0' }, raw: 'abc' });
      expect(r.status).toBe(415);
    }
    expect(statSync(join(t.root, partFiles(t.root)[0]!)).size).toBe(0);
    expect(existsSync(join(t.root, 'u.bin'))).toBe(false);
  });

  test('DELETE cancels: temp file removed, target untouched, later HEAD is 404', async () => {
    t = await makeTestApp();
    const token = await t.adminToken();
    writeFileSync(join(t.root, 'doc.bin'), 'original');
    expect((await t.req('POST', '/api/tus/doc.bin?override=true', { token, headers: { 'Upload-Length': '1000' } })).status).toBe(201);
    expect((await t.req('PATCH', '/api/tus/doc.bin', { token, headers: { ...OCTET, 'Upload-Offset': '0' }, raw: random(500) })).status).toBe(204);
    expect(partFiles(t.root)).toHaveLength(1);
    const d = await t.req('DELETE', '/api/tus/doc.bin', { token });
    expect(d.status).toBe(204);
    expect(partFiles(t.root)).toEqual([]);
    expect(readFileSync(join(t.root, 'doc.bin'), 'utf8')).toBe('original');
    expect((await t.req('HEAD', '/api/tus/doc.bin', { token })).status).toBe(404);
  });

  test('a zero-length upload completes at once', async () => {
    t = await makeTestApp();
    const token = await t.adminToken();
    const r = await t.req('POST', '/api/tus/empty/zero.txt', { token, headers: { 'Upload-Length': '0' } });
    expect(r.status).toBe(201);
    expect(statSync(join(t.root, 'empty', 'zero.txt')).size).toBe(0);
    expect(partFiles(join(t.root, 'empty'))).toEqual([]);
    expect((await t.req('HEAD', '/api/tus/empty/zero.txt', { token })).status).toBe(404);
  });

  test('idle uploads expire: sweep removes the temp file and the row, and only once idle', async () => {
    t = await makeTestApp();
    const token = await t.adminToken();
    expect((await t.req('POST', '/api/tus/idle.bin', { token, headers: { 'Upload-Length': '1000' } })).status).toBe(201);
    expect((await t.req('PATCH', '/api/tus/idle.bin', { token, headers: { ...OCTET, 'Upload-Offset': '0' }, raw: random(10) })).status).toBe(204);
    expect(await t.s.tus.sweep(Date.now())).toBe(0);
    expect(partFiles(t.root)).toHaveLength(1);
    expect((await t.s.stores.uploads.get(1, '/idle.bin'))).not.toBeNull();
    expect(await t.s.tus.sweep(Date.now() + 3600_000)).toBe(1);
    expect(partFiles(t.root)).toEqual([]);
    expect((await t.s.stores.uploads.get(1, '/idle.bin'))).toBeNull();
    expect((await t.req('HEAD', '/api/tus/idle.bin', { token })).status).toBe(404);
    expect(existsSync(join(t.root, 'idle.bin'))).toBe(false);
  });
});

describe('GET /api/raw single files', () => {
  const bytes = Uint8Array.from({ length: 100 }, (_, i) => i);

  test('Range: 206 with Content-Range for a-b, -n and a-; 416 past the end; full file otherwise', async () => {
    t = await makeTestApp();
    const token = await t.adminToken();
    writeFileSync(join(t.root, 'r.bin'), bytes);
    const get = (range?: string) => t.req('GET', '/api/raw/r.bin', { token, headers: range ? { Range: range } : {} });
    for (const [range, start, end] of [['bytes=0-9', 0, 9], ['bytes=-5', 95, 99], ['bytes=10-', 10, 99], ['bytes=90-500', 90, 99]] as const) {
      const r = await get(range);
      expect(r.status).toBe(206);
      expect(r.headers.get('content-range')).toBe(`bytes ${start}-${end}/100`);
      expect(new Uint8Array(await r.arrayBuffer())).toEqual(bytes.slice(start, end + 1));
    }
    for (const range of ['bytes=100-', 'bytes=500-600']) {
      const r = await get(range);
      expect(r.status).toBe(416);
      expect(r.headers.get('content-range')).toBe('bytes */100');
    }
    const full = await get();
    expect(full.status).toBe(200);
    expect(full.headers.get('accept-ranges')).toBe('bytes');
    expect(new Uint8Array(await full.arrayBuffer())).toEqual(bytes);
  });

  test('If-Modified-Since gives 304 when not modified, 200 when older', async () => {
    t = await makeTestApp();
    const token = await t.adminToken();
    writeFileSync(join(t.root, 'r.bin'), bytes);
    const first = await t.req('GET', '/api/raw/r.bin', { token });
    const lm = first.headers.get('last-modified')!;
    expect(Date.parse(lm)).toBeGreaterThan(0);
    expect((await t.req('GET', '/api/raw/r.bin', { token, headers: { 'If-Modified-Since': lm } })).status).toBe(304);
    const older = new Date(Date.parse(lm) - 3600_000).toUTCString();
    const r = await t.req('GET', '/api/raw/r.bin', { token, headers: { 'If-Modified-Since': older } });
    expect(r.status).toBe(200);
    expect((await r.arrayBuffer()).byteLength).toBe(100);
  });

  test('inline keeps the type and encodes a non-ASCII name; otherwise an octet-stream attachment', async () => {
    t = await makeTestApp();
    const token = await t.adminToken();
    const name = 'résumé ü.txt';
    writeFileSync(join(t.root, name), 'hello');
    const inline = await t.req('GET', `/api/raw/${encodeURIComponent(name)}?inline=true`, { token });
    expect(inline.status).toBe(200);
    expect(inline.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    const cd = inline.headers.get('content-disposition')!;
    expect(cd.startsWith('inline;')).toBe(true);
    expect(cd).toContain("filename*=UTF-8''r%C3%A9sum%C3%A9%20%C3%BC.txt");
    expect(inline.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await inline.text()).toBe('hello');

    const att = await t.req('GET', `/api/raw/${encodeURIComponent(name)}`, { token });
    expect(att.headers.get('content-type')).toBe('application/octet-stream');
    expect(att.headers.get('content-disposition')!.startsWith('attachment;')).toBe(true);
    expect(att.headers.get('content-disposition')).toContain("filename*=UTF-8''r%C3%A9sum%C3%A9%20%C3%BC.txt");
    expect(att.headers.get('x-content-type-options')).toBe('nosniff');
  });

  test('SVG and HTML opened inline carry nosniff and a sandboxing CSP without scripts', async () => {
    t = await makeTestApp();
    const token = await t.adminToken();
    writeFileSync(join(t.root, 'x.svg'), '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    writeFileSync(join(t.root, 'x.html'), '<script>alert(1)</script>');
    for (const [name, type] of [['x.svg', 'image/svg+xml'], ['x.html', 'text/html']]) {
      const r = await t.req('GET', `/api/raw/${name}?inline=true`, { token });
      expect(r.status).toBe(200);
      expect(r.headers.get('content-type')).toContain(type!);
      expect(r.headers.get('x-content-type-options')).toBe('nosniff');
      const csp = r.headers.get('content-security-policy')!;
      expect(csp).toContain("script-src 'none'");
      expect(csp.split(';').map((s) => s.trim())).toContain('sandbox');
    }
  });
});
