import { afterEach, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { Transformer } from '@napi-rs/image';
import { makeTestApp, type TestApp } from '../helpers/test-app';
import { listen, sha256, waitFor, type Live } from '../helpers/transfer-fixture';

let t: TestApp;
let live: Live | null = null;
afterEach(async () => {
  await live?.stop();
  live = null;
  t?.close();
});

/** A w x h RGBA gradient (so encoders have real content to work with). */
function pixels(w: number, h: number): Uint8Array {
  const p = new Uint8Array(w * h * 4);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const i = (y * w + x) * 4;
      p[i] = (x * 255) / w;
      p[i + 1] = (y * 255) / h;
      p[i + 2] = (x + y) % 256;
      p[i + 3] = 255;
    }
  return p;
}
const image = (w: number, h: number, kind: 'png' | 'jpeg' | 'bmp') => {
  const tr = Transformer.fromRgbaPixels(pixels(w, h), w, h);
  return kind === 'png' ? tr.png() : kind === 'jpeg' ? tr.jpeg(90) : tr.bmp();
};
const meta = (buf: Uint8Array) => new Transformer(Buffer.from(buf)).metadata();

/** A minimal PNG whose IHDR claims w x h (valid CRCs, a tiny IDAT): a decompression bomb's header. */
function pngHeader(w: number, h: number): Uint8Array {
  const chunk = (type: string, data: Uint8Array) => {
    const out = Buffer.alloc(12 + data.length);
    out.writeUInt32BE(data.length, 0);
    out.write(type, 4, 'latin1');
    Buffer.from(data).copy(out, 8);
    out.writeUInt32BE(Bun.hash.crc32(out.subarray(4, 8 + data.length)) >>> 0, 8 + data.length);
    return out;
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  const zlib = deflateSync(new Uint8Array(64)); // a few pixels' worth of zlib data, far short of the claim
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', zlib), chunk('IEND', new Uint8Array(0))]);
}
const GIF = Buffer.from('R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==', 'base64');

/** Every file under the preview cache folder. */
function cacheFiles(): string[] {
  const dir = join(t.s.config.cacheDir, 'previews');
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true }).filter((d) => d.isFile()).map((d) => join(d.parentPath, d.name));
}

async function bytes(r: Response) {
  return new Uint8Array(await r.arrayBuffer());
}

describe('GET /api/preview', () => {
  test('thumb of an 800x600 JPEG (and of a BMP) is a 256x256 JPEG; big of a 3000x2000 PNG fits 1080 px and stays PNG', async () => {
    t = await makeTestApp();
    const token = await t.adminToken();
    mkdirSync(join(t.root, 'img'));
    writeFileSync(join(t.root, 'img', 'photo.jpg'), await image(800, 600, 'jpeg'));
    writeFileSync(join(t.root, 'img', 'wide.png'), await image(3000, 2000, 'png'));
    writeFileSync(join(t.root, 'img', 'old.bmp'), await image(500, 400, 'bmp'));
    for (const name of ['photo.jpg', 'old.bmp', 'wide.png']) {
      const r = await t.req('GET', `/api/preview/thumb/img/${name}`, { token });
      expect(r.status).toBe(200);
      expect(r.headers.get('content-type')).toBe('image/jpeg');
      const m = await meta(await bytes(r));
      expect([m.width, m.height, m.format]).toEqual([256, 256, 'jpeg']);
    }
    const big = await t.req('GET', '/api/preview/big/img/wide.png', { token });
    expect(big.status).toBe(200);
    expect(big.headers.get('content-type')).toBe('image/png');
    const m = await meta(await bytes(big));
    expect(m.format).toBe('png');
    expect(Math.max(m.width, m.height)).toBe(1080);
    expect(m.width / m.height).toBeCloseTo(1.5, 1);
  });

  test('pass-through: a small JPEG big preview, GIF and SVG are the original bytes', async () => {
    t = await makeTestApp();
    const token = await t.adminToken();
    const small = await image(400, 300, 'jpeg');
    const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>';
    writeFileSync(join(t.root, 'small.jpg'), small);
    writeFileSync(join(t.root, 'anim.gif'), GIF);
    writeFileSync(join(t.root, 'logo.svg'), svg);
    const r = await t.req('GET', '/api/preview/big/small.jpg', { token });
    expect(r.status).toBe(200);
    expect(sha256(await bytes(r))).toBe(sha256(small));
    for (const size of ['thumb', 'big']) {
      const g = await t.req('GET', `/api/preview/${size}/anim.gif`, { token });
      expect(g.status).toBe(200);
      expect(g.headers.get('content-type')).toBe('image/gif');
      expect(sha256(await bytes(g))).toBe(sha256(GIF));
      const s = await t.req('GET', `/api/preview/${size}/logo.svg`, { token });
      expect(s.status).toBe(200);
      expect(s.headers.get('content-type')).toContain('image/svg+xml');
      expect(s.headers.get('content-security-policy')).toContain('sandbox');
      expect(await s.text()).toBe(svg);
    }
    expect(cacheFiles()).toEqual([]); // nothing was rendered
  });

  test('text files and folders are 501, an unknown size 400, a missing file 404', async () => {
    t = await makeTestApp();
    const token = await t.adminToken();
    writeFileSync(join(t.root, 'notes.txt'), 'just text');
    mkdirSync(join(t.root, 'dir.png'));
    writeFileSync(join(t.root, 'p.png'), await image(20, 20, 'png'));
    expect((await t.req('GET', '/api/preview/thumb/notes.txt', { token })).status).toBe(501);
    expect((await t.req('GET', '/api/preview/big/notes.txt', { token })).status).toBe(501);
    expect((await t.req('GET', '/api/preview/thumb/dir.png', { token })).status).toBe(501);
    expect((await t.req('GET', '/api/preview/huge/p.png', { token })).status).toBe(400);
    expect((await t.req('GET', '/api/preview/thumb/nope.png', { token })).status).toBe(404);
  });

  test('a PNG whose header claims 30000x30000 is 413, and the server keeps working', async () => {
    t = await makeTestApp();
    const token = await t.adminToken();
    writeFileSync(join(t.root, 'bomb.png'), pngHeader(30000, 30000));
    writeFileSync(join(t.root, 'long.png'), await image(12000, 4, 'png')); // a real image past the side limit
    writeFileSync(join(t.root, 'ok.png'), await image(1500, 1500, 'png'));
    const bomb = [];
    for (const size of ['thumb', 'big']) bomb.push((await t.req('GET', `/api/preview/${size}/bomb.png`, { token })).status);
    for (const size of ['thumb', 'big']) expect((await t.req('GET', `/api/preview/${size}/long.png`, { token })).status).toBe(413);
    const r = await t.req('GET', '/api/preview/thumb/ok.png', { token });
    expect(r.status).toBe(200);
    expect((await meta(await bytes(r))).width).toBe(256);
    expect((await t.req('GET', '/api/resources/', { token })).status).toBe(200);
    expect(bomb).toEqual([413, 413]);
  });

  test('concurrent requests for the same uncached thumbnail all succeed with the same bytes', async () => {
    t = await makeTestApp();
    const token = await t.adminToken();
    for (let round = 0; round < 3; round++) {
      writeFileSync(join(t.root, `p${round}.jpg`), await image(2000, 1500, 'jpeg'));
      const rs = await Promise.all([0, 1, 2, 3, 4, 5].map(() => t.req('GET', `/api/preview/thumb/p${round}.jpg`, { token })));
      expect(rs.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
      const digests = new Set(await Promise.all(rs.map(async (r) => sha256(await bytes(r)))));
      expect(digests.size).toBe(1);
    }
    expect(cacheFiles()).toHaveLength(3);
    expect(cacheFiles().filter((f) => f.endsWith('.tmp'))).toEqual([]);
  }, 30_000);

  test('previews are cached, reused, and evicted on delete, overwrite, PUT, rename and folder delete', async () => {
    t = await makeTestApp();
    const token = await t.adminToken();
    const jpeg = await image(800, 600, 'jpeg');
    const names = ['del.jpg', 'over.jpg', 'put.jpg', 'ren.jpg', 'tus.jpg', 'sub/in.jpg'];
    mkdirSync(join(t.root, 'c', 'sub'), { recursive: true });
    for (const n of names) writeFileSync(join(t.root, 'c', n), jpeg);
    const cached: Record<string, string> = {};
    for (const n of names) {
      const before = new Set(cacheFiles());
      const first = await bytes(await t.req('GET', `/api/preview/thumb/c/${n}`, { token }));
      const made = cacheFiles().filter((f) => !before.has(f));
      expect(made).toHaveLength(1);
      cached[n] = made[0]!;
      expect(sha256(readFileSync(cached[n]!))).toBe(sha256(first));
      const again = await t.req('GET', `/api/preview/thumb/c/${n}`, { token });
      expect(sha256(await bytes(again))).toBe(sha256(first));
      expect(cacheFiles()).toHaveLength(made.length + before.size);
    }
    expect((await t.s.stores.previews.totalBytes())).toBe(names.reduce((n, k) => n + statSync(cached[k]!).size, 0));
    const gone = (n: string) => waitFor(() => !existsSync(cached[n]!), 3000);

    expect((await t.req('DELETE', '/api/resources/c/del.jpg', { token })).status).toBe(204);
    expect(await gone('del.jpg')).toBe(true);
    expect((await t.req('POST', '/api/resources/c/over.jpg?override=true', { token, raw: await image(640, 480, 'jpeg') })).status).toBe(200);
    expect(await gone('over.jpg')).toBe(true);
    expect((await t.req('PUT', '/api/resources/c/put.jpg', { token, raw: await image(300, 300, 'jpeg') })).status).toBe(200);
    expect(await gone('put.jpg')).toBe(true);
    const dest = encodeURIComponent('/c/renamed.jpg');
    expect((await t.req('PATCH', `/api/resources/c/ren.jpg?action=rename&destination=${dest}`, { token })).status).toBe(200);
    expect(await gone('ren.jpg')).toBe(true);
    const up = await image(200, 100, 'jpeg');
    expect((await t.req('POST', '/api/tus/c/tus.jpg?override=true', { token, headers: { 'Upload-Length': String(up.length) } })).status).toBe(201);
    expect((await t.req('PATCH', '/api/tus/c/tus.jpg', { token, headers: { 'Content-Type': 'application/offset+octet-stream', 'Upload-Offset': '0' }, raw: up })).status).toBe(204);
    expect(await gone('tus.jpg')).toBe(true);
    expect((await t.req('DELETE', '/api/resources/c/sub', { token })).status).toBe(204);
    expect(await gone('sub/in.jpg')).toBe(true);
    expect(cacheFiles()).toEqual([]);
    expect((await t.s.stores.previews.totalBytes())).toBe(0);

    // The overwritten file's new thumbnail shows the new picture, not the old one.
    const fresh = await t.req('GET', '/api/preview/big/c/over.jpg', { token });
    expect((await meta(await bytes(fresh))).width).toBe(640);
  });
});

/** NDJSON lines of a search, each checked to be exactly {dir, path}. */
async function search(path: string, query: string, token: string): Promise<{ dir: boolean; path: string }[]> {
  const r = await t.req('GET', `/api/search${path}?query=${encodeURIComponent(query)}`, { token });
  expect(r.status).toBe(200);
  expect(r.headers.get('content-type')).toContain('application/x-ndjson');
  return (await r.text()).split('\n').filter((l) => l.trim() !== '').map((l) => {
    const o = JSON.parse(l);
    expect(Object.keys(o).sort()).toEqual(['dir', 'path']);
    expect(typeof o.dir).toBe('boolean');
    expect(o.path.startsWith('/')).toBe(false);
    return o;
  });
}
const paths = (hits: { path: string }[]) => hits.map((h) => h.path).sort();

const TREE = ['alpha.txt', 'beta.txt', 'Report.pdf', 'report.txt', 'my file.txt', 'my-file.txt', 'file my.txt', 'pics/a.png', 'pics/b.JPG', 'music/song.mp3', 'music/track.flac', 'docs/guide.pdf', 'video.mp4', 'secret/x.txt', 'secret/public/ok.txt', '.hidden.txt', '.dotdir/inner.txt'];
async function searchApp() {
  t = await makeTestApp();
  for (const f of TREE) {
    mkdirSync(join(t.root, 's', f, '..'), { recursive: true });
    writeFileSync(join(t.root, 's', f), f);
  }
  (await t.s.settings.update({ rules: [{ allow: false, regex: false, path: '/s/secret' }, { allow: true, regex: false, path: '/s/secret/public' }] }, ['rules']));
  return t.adminToken();
}

describe('GET /api/search', () => {
  test('relative NDJSON paths; types, case, phrases, any-term matching; rules respected', async () => {
    const token = await searchApp();
    const all = await search('/s', '', token);
    const visible = TREE.filter((p) => !p.startsWith('secret/') || p.startsWith('secret/public/'));
    expect(paths(all.filter((h) => !h.dir))).toEqual([...visible].sort());
    expect(paths(all.filter((h) => h.dir))).toEqual(['.dotdir', 'docs', 'music', 'pics', 'secret/public']); // a denied folder is still searched
    expect(paths(await search('/s', 'type:image', token))).toEqual(['pics/a.png', 'pics/b.JPG']);
    expect(paths(await search('/s', 'type:pdf', token))).toEqual(['Report.pdf', 'docs/guide.pdf']);
    expect(paths(await search('/s', 'type:music', token))).toEqual(['music/song.mp3', 'music/track.flac']);
    expect(paths(await search('/s', 'type:pdf type:music', token))).toEqual(['Report.pdf', 'docs/guide.pdf', 'music/song.mp3', 'music/track.flac']);
    expect(paths(await search('/s', 'type:pdf guide', token))).toEqual(['docs/guide.pdf']);
    expect(paths(await search('/s', 'report', token))).toEqual(['Report.pdf', 'report.txt']);
    expect(paths(await search('/s', 'case:sensitive Report', token))).toEqual(['Report.pdf']);
    expect(paths(await search('/s', '"my file"', token))).toEqual(['my file.txt']);
    expect(paths(await search('/s', 'my file', token))).toEqual(['file my.txt', 'my file.txt', 'my-file.txt']);
    expect(paths(await search('/s', 'alpha beta', token))).toEqual(['alpha.txt', 'beta.txt']);
    expect(paths(await search('/s/music', '', token))).toEqual(['song.mp3', 'track.flac']);
    expect(paths(await search('', 'alpha', token))).toEqual(['s/alpha.txt']);
    expect(paths(await search('/s', 'x.txt', token))).toEqual([]); // secret/x.txt is denied
    expect((await t.req('GET', '/api/search/nowhere?query=a', { token })).status).toBe(404);
  });

  test('hideDotfiles hides dot entries from a user who asked for it', async () => {
    await searchApp();
    const dora = await t.userToken('dora', {}, { hideDotfiles: true });
    const hits = paths(await search('/s', '', dora));
    expect(hits.some((p) => p.split('/').some((seg) => seg.startsWith('.')))).toBe(false);
    expect(hits).toContain('alpha.txt');
    expect(paths(await search('/s', 'hidden', dora))).toEqual([]);
  });

  test('a search over thousands of files streams, the client can cancel, and the server keeps working', async () => {
    t = await makeTestApp();
    const token = await t.adminToken();
    for (let d = 0; d < 30; d++) {
      mkdirSync(join(t.root, 'many', `d${d}`), { recursive: true });
      for (let f = 0; f < 100; f++) writeFileSync(join(t.root, 'many', `d${d}`, `file-${f}.txt`), '');
    }
    live = listen(t);
    const r = await fetch(`${live.url}/api/search/many?query=file`, { headers: { 'X-Auth': token } });
    expect(r.status).toBe(200);
    const reader = r.body!.getReader();
    const first = await reader.read();
    expect(first.done).toBe(false);
    expect(new TextDecoder().decode(first.value).split('\n')[0]).toMatch(/^\{"dir":false,"path":"d\d+\/file-\d+\.txt"\}$/);
    await reader.cancel();
    const again = await fetch(`${live.url}/api/search/many?query=`, { headers: { 'X-Auth': token } });
    expect(again.status).toBe(200);
    const lines = (await again.text()).split('\n').filter(Boolean);
    expect(lines).toHaveLength(3030);
    expect((await fetch(`${live.url}/api/usage/many`, { headers: { 'X-Auth': token } })).status).toBe(200);
  }, 60_000);
});

describe('usage and recursive listing', () => {
  test('usage is {total, used} for a folder, zeros for a file, 404 when missing', async () => {
    const token = await searchApp();
    const r = await t.req('GET', '/api/usage/s', { token });
    expect(r.status).toBe(200);
    const u = await r.json();
    expect(Object.keys(u).sort()).toEqual(['total', 'used']);
    expect(u.total).toBeGreaterThan(0);
    expect(u.used).toBeGreaterThan(0);
    expect(u.used).toBeLessThanOrEqual(u.total);
    expect(await (await t.req('GET', '/api/usage/s/alpha.txt', { token })).json()).toEqual({ total: 0, used: 0 });
    expect((await t.req('GET', '/api/usage/nope', { token })).status).toBe(404);
    expect((await t.req('GET', '/api/usage/s/secret', { token })).status).toBe(403);
  });

  test('recursive listing: every allowed descendant with path, name and isDir; 400 for a file, 404 when missing', async () => {
    const token = await searchApp();
    const r = await t.req('GET', '/api/resources/recursive/s', { token });
    expect(r.status).toBe(200);
    const items = (await r.json()) as { path: string; name: string; isDir: boolean }[];
    for (const i of items) {
      expect(i.name).toBe(i.path.slice(i.path.lastIndexOf('/') + 1));
      expect(typeof i.isDir).toBe('boolean');
    }
    const files = TREE.filter((p) => !p.startsWith('secret/')).map((p) => `/s/${p}`); // a denied folder is skipped whole
    expect(items.filter((i) => !i.isDir).map((i) => i.path).sort()).toEqual(files.sort());
    expect(items.filter((i) => i.isDir).map((i) => i.path).sort()).toEqual(['/s/.dotdir', '/s/docs', '/s/music', '/s/pics']);
    expect((await t.req('GET', '/api/resources/recursive/s/alpha.txt', { token })).status).toBe(400);
    expect((await t.req('GET', '/api/resources/recursive/nope', { token })).status).toBe(404);
    const empty = await t.req('GET', '/api/resources/recursive/s/docs', { token });
    expect(await empty.json()).toEqual([{ path: '/s/docs/guide.pdf', name: 'guide.pdf', isDir: false }]);
  });
});
