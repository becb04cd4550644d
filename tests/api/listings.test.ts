import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { closeSync, mkdirSync, openSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliDecompressSync, createBrotliDecompress, gunzipSync } from 'node:zlib';
import type { Resource } from '../../server/contract/resource';
import { sortItems } from '../../server/services/files/describe';
import { makeTestApp, type TestApp } from '../helpers/test-app';
import { settled } from '../helpers/settle';

// Big listings: streamed, paged on request, compressed per Accept-Encoding, in the reference's order and shape.
let t: TestApp;
let token: string;

const NAMES = ['file10.txt', 'file2.txt', 'File1.txt', 'file1.txt', 'a.mp4', 'a.srt', 'a.en.vtt', 'Zed', 'zed.bin', 'b 2.md', 'b 10.md', 'x007', 'x7'];
beforeAll(async () => {
  t = await makeTestApp();
  token = await t.adminToken();
  const f = join(t.root, 'mixed');
  mkdirSync(join(f, 'Dir10'), { recursive: true });
  mkdirSync(join(f, 'dir9'));
  NAMES.forEach((n, i) => {
    writeFileSync(join(f, n), 'x'.repeat(i * 3));
    utimesSync(join(f, n), 1_700_000_000 + ((i * 7919) % 13) * 60, 1_700_000_000 + ((i * 7919) % 13) * 60);
  });
  writeFileSync(join(f, '.filedeck-abc.part'), 'temp');
  symlinkSync('/etc', join(f, 'escape'));
  symlinkSync('dir9', join(f, 'linked'));
  symlinkSync('missing-target', join(f, 'broken'));
  const big = join(t.root, 'big');
  mkdirSync(big);
  for (let i = 0; i < 3000; i++) closeSync(openSync(join(big, `report-${i}.txt`), 'w'));
});
afterAll(() => t.close());

const get = (url: string, headers: Record<string, string> = {}) => t.req('GET', url, { token, headers });
const listing = async (url: string) => {
  const r = await get(url);
  expect(r.status).toBe(200);
  return (await r.json()) as Resource & { page?: { offset: number; limit: number; total: number } };
};
const setSorting = async (by: string, asc: boolean) => {
  const r = await t.req('PUT', '/api/users/1', { token, body: { what: 'user', which: ['sorting'], data: { id: 1, sorting: { by, asc } } } });
  expect(r.status).toBe(200);
};

describe('order and shape', () => {
  for (const [by, asc] of [['name', false], ['name', true], ['size', false], ['size', true], ['modified', false], ['modified', true]] as const) {
    test(`sorted by ${by} asc=${asc} exactly as the reference's order (sortItems)`, async () => {
      await setSorting(by, asc);
      const res = await listing('/api/resources/mixed/');
      const names = res.items!.map((i) => i.name);
      const oracle = [...res.items!];
      sortItems(oracle, by, asc);
      expect(names).toEqual(oracle.map((i) => i.name));
      expect(res.sorting).toEqual({ by, asc });
      // Temps and escaping links are never listed; an in-scope linked folder is a folder; a dangling link is marked.
      expect(names).not.toContain('escape');
      expect(names.some((n) => n.startsWith('.filedeck-'))).toBe(false);
      expect(names.slice(0, 3).sort()).toEqual(['Dir10', 'dir9', 'linked']);
      expect(res.items!.find((i) => i.name === 'broken')?.type).toBe('invalid_link');
      expect(res.numDirs).toBe(3);
      expect(res.numFiles).toBe(NAMES.length + 1);
    });
  }
  test('random names in a small folder (compared part by part) and a big one (one-string keys) are in the oracle\u2019s order', async () => {
    let seed = 11;
    const rnd = (n: number) => (seed = (seed * 1103515245 + 12345) >>> 0) % n;
    const parts = ['a', 'B', 'file', 'File', '0', '007', '7', '10', '2', ' ', '-', '.', 'é', 'Ä', 'z', '99999999999999999999999', '_'];
    const name = () => Array.from({ length: 1 + rnd(5) }, () => parts[rnd(parts.length)]).join('') + rnd(1000);
    for (const [dir, n] of [['rand-small', 60], ['rand-big', 300]] as const) {
      mkdirSync(join(t.root, dir));
      const made = new Set<string>();
      while (made.size < n) {
        const nm = name().replace(/^\.+/, 'x');
        if (made.has(nm)) continue;
        made.add(nm);
        if (rnd(5) === 0) mkdirSync(join(t.root, dir, nm), { recursive: true });
        else writeFileSync(join(t.root, dir, nm), '');
      }
    }
    for (const asc of [false, true]) {
      await setSorting('name', asc);
      for (const dir of ['rand-small', 'rand-big']) {
        const res = await listing(`/api/resources/${dir}/`);
        const oracle = [...res.items!];
        sortItems(oracle, 'name', asc);
        expect({ dir, asc, names: res.items!.map((i) => i.name) }).toEqual({ dir, asc, names: oracle.map((i) => i.name) });
      }
    }
  });

  test('natural order by name: file1 < file2 < file10, case-insensitive; a video names its subtitles', async () => {
    await setSorting('name', false);
    const res = await listing('/api/resources/mixed/');
    const names = res.items!.map((i) => i.name);
    expect(names.indexOf('file2.txt')).toBeLessThan(names.indexOf('file10.txt'));
    expect(names.indexOf('b 2.md')).toBeLessThan(names.indexOf('b 10.md'));
    expect(res.items!.find((i) => i.name === 'a.mp4')?.subtitles?.sort()).toEqual(['/mixed/a.en.vtt', '/mixed/a.srt']);
    expect(Object.keys(res)).toEqual(expect.arrayContaining(['path', 'name', 'size', 'modified', 'mode', 'isDir', 'items', 'numDirs', 'numFiles', 'sorting']));
    expect(res.page).toBeUndefined();
  });
  test('rules and hidden dotfiles leave items out, and out of the counts', async () => {
    const bob = await t.userToken('bob', {}, { hideDotfiles: true, rules: [{ regex: false, allow: false, path: '/mixed/dir9' }] });
    writeFileSync(join(t.root, 'mixed', '.hidden'), '');
    const r = await t.req('GET', '/api/resources/mixed/', { token: bob });
    const res = (await r.json()) as Resource;
    const names = res.items!.map((i) => i.name);
    expect(names).not.toContain('.hidden');
    expect(names).not.toContain('dir9');
    expect(names).not.toContain('linked'); // a link to a denied folder is denied with it
    expect(res.numDirs).toBe(1);
  });
  test('types are the same whether a listing is described at once (small, no dangling link), through its batches (a dangling link) or streamed (big)', async () => {
    await setSorting('name', false);
    // Contents decide the type of names without a known extension (typeDetectionByHeader, on by default).
    const typed = (dir: string) => {
      mkdirSync(join(t.root, dir, 'sub'), { recursive: true });
      writeFileSync(join(t.root, dir, 'NOTES'), 'plain words\n');
      writeFileSync(join(t.root, dir, 'blob'), new Uint8Array([0, 1, 2, 0, 255, 0, 7]));
      writeFileSync(join(t.root, dir, 'photo.jpg'), 'not really a jpeg');
      writeFileSync(join(t.root, dir, 'clip.mp4'), '');
      writeFileSync(join(t.root, dir, 'clip.srt'), '1');
    };
    const want: Record<string, string> = { NOTES: 'text', blob: 'blob', 'photo.jpg': 'image', 'clip.mp4': 'video', 'clip.srt': 'text' };
    const typesOf = (res: Resource): Record<string, string> => Object.fromEntries(res.items!.filter((i) => i.name in want).map((i) => [i.name, i.type]));
    typed('typed-small');
    typed('typed-link');
    symlinkSync('nowhere', join(t.root, 'typed-link', 'dangling'));
    typed('typed-big');
    for (let i = 0; i < 100; i++) closeSync(openSync(join(t.root, 'typed-big', `filler-${i}.txt`), 'w'));
    for (const dir of ['typed-small', 'typed-link', 'typed-big']) {
      const res = await listing(`/api/resources/${dir}/`);
      expect(typesOf(res)).toEqual(want);
      expect(res.items!.find((i) => i.name === 'clip.mp4')?.subtitles).toEqual([`/${dir}/clip.srt`]);
      expect(res.items![0]).toMatchObject({ name: 'sub', isDir: true });
      if (dir === 'typed-link') expect(res.items!.find((i) => i.name === 'dangling')?.type).toBe('invalid_link');
    }
  });
});

describe('paging', () => {
  test('pages put together are the whole folder, in the same order', async () => {
    await setSorting('name', false);
    const whole = (await listing('/api/resources/big/')).items!.map((i) => i.name);
    expect(whole.length).toBe(3000);
    const pages: string[] = [];
    for (let offset = 0; offset < 3000; offset += 700) {
      const p = await listing(`/api/resources/big/?offset=${offset}&limit=700`);
      expect(p.page).toEqual({ offset, limit: 700, total: 3000 });
      expect(p.numFiles).toBe(3000);
      pages.push(...p.items!.map((i) => i.name));
    }
    expect(pages).toEqual(whole);
    expect(whole.indexOf('report-2.txt')).toBeLessThan(whole.indexOf('report-10.txt'));
  });
  test('limit alone, offset alone, and past the end', async () => {
    expect((await listing('/api/resources/big/?limit=5')).items!.map((i) => i.name)).toEqual(['report-0.txt', 'report-1.txt', 'report-2.txt', 'report-3.txt', 'report-4.txt']);
    expect((await listing('/api/resources/big/?offset=2998')).items!.length).toBe(2);
    const past = await listing('/api/resources/big/?offset=5000&limit=10');
    expect(past.items).toEqual([]);
    expect(past.page?.total).toBe(3000);
  });
  for (const q of ['limit=0', 'limit=-1', 'offset=x', 'limit=100001', 'offset=1.5', 'limit=1e3'])
    test(`?${q} is a 400 with a message`, async () => {
      const r = await get(`/api/resources/big/?${q}`);
      expect(r.status).toBe(400);
      expect(await r.text()).toMatch(/(offset|limit) must be a whole number/);
    });
});

describe('compression', () => {
  const body = async (r: Response) => Buffer.from(await r.arrayBuffer());
  test('gzip and br per Accept-Encoding, the same JSON as uncompressed', async () => {
    const plain = await get('/api/resources/big/');
    expect(plain.headers.get('content-encoding')).toBeNull();
    const text = (await body(plain)).toString();
    const gz = await get('/api/resources/big/', { 'Accept-Encoding': 'gzip, deflate' });
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect(gz.headers.get('vary')).toMatch(/Accept-Encoding/i);
    const gzBytes = await body(gz);
    expect(gunzipSync(gzBytes).toString()).toBe(text);
    expect(gzBytes.length).toBeLessThan(text.length / 5);
    const br = await get('/api/resources/big/', { 'Accept-Encoding': 'gzip, br' });
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(brotliDecompressSync(await body(br)).toString()).toBe(text);
  });
  test('q values: q=0 refuses a coding; identity only means plain', async () => {
    expect((await get('/api/resources/big/', { 'Accept-Encoding': 'br;q=0, gzip;q=0.5' })).headers.get('content-encoding')).toBe('gzip');
    expect((await get('/api/resources/big/', { 'Accept-Encoding': 'identity' })).headers.get('content-encoding')).toBeNull();
    expect((await get('/api/resources/big/', { 'Accept-Encoding': '*;q=0' })).headers.get('content-encoding')).toBeNull();
  });
  test('small JSON and non-JSON answers stay plain', async () => {
    const small = await get('/api/resources/mixed/dir9/', { 'Accept-Encoding': 'gzip' });
    expect(small.headers.get('content-encoding')).toBeNull();
    expect(((await small.json()) as Resource).items).toEqual([]);
    writeFileSync(join(t.root, 'big.txt'), 'y'.repeat(50_000));
    const raw = await get('/api/raw/big.txt', { 'Accept-Encoding': 'gzip' });
    expect(raw.headers.get('content-encoding')).toBeNull();
    expect((await body(raw)).length).toBe(50_000);
  });
  test('a small listing (declared length) is compressed whole: Content-Length kept, gzip preferred when offered', async () => {
    mkdirSync(join(t.root, 'twenty'));
    for (let i = 0; i < 20; i++) writeFileSync(join(t.root, 'twenty', `document-${i}.txt`), 'x');
    const plain = await get('/api/resources/twenty/');
    const text = (await body(plain)).toString();
    expect(Number(plain.headers.get('content-length'))).toBeGreaterThan(1024);
    const gz = await get('/api/resources/twenty/', { 'Accept-Encoding': 'gzip, deflate, br' });
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    const gzBytes = await body(gz);
    expect(Number(gz.headers.get('content-length'))).toBe(gzBytes.length);
    expect(gunzipSync(gzBytes).toString()).toBe(text);
    const br = await get('/api/resources/twenty/', { 'Accept-Encoding': 'br, gzip;q=0' });
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(brotliDecompressSync(await body(br)).toString()).toBe(text);
    // Each header value keeps its own answer, however often and in whatever order they come (they are remembered).
    for (const [header, coding] of [['gzip, deflate, br', 'gzip'], ['br, gzip;q=0', 'br'], ['gzip;q=0, br;q=0', null], ['gzip, deflate, br', 'gzip']] as const)
      expect((await get('/api/resources/twenty/', { 'Accept-Encoding': header })).headers.get('content-encoding')).toBe(coding);
  });
  test('other JSON API answers above the threshold are compressed too', async () => {
    const r = await get('/api/tree/big', { 'Accept-Encoding': 'gzip' });
    expect(r.headers.get('content-encoding')).toBe('gzip');
    expect((JSON.parse(gunzipSync(await body(r)).toString()) as unknown[]).length).toBe(3000);
  });
  test('a streamed br listing sends its first items at once, not when the compressor\'s buffers fill', async () => {
    const r = await get('/api/resources/big/', { 'Accept-Encoding': 'br' });
    expect(r.headers.get('content-encoding')).toBe('br');
    const chunks: Buffer[] = [];
    const reader = r.body!.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(Buffer.from(value));
    }
    expect(chunks.length).toBeGreaterThan(1);
    // The bytes before the last chunk already decode (a flushed prefix) to the head and some items.
    const dec = createBrotliDecompress();
    const text: Buffer[] = [];
    dec.on('data', (d: Buffer) => text.push(d));
    await new Promise<void>((resolve) => dec.write(Buffer.concat(chunks.slice(0, -1)), () => resolve()));
    // The decoder hands its output over on later turns (a thread pool): wait for the head, not a fixed 20 ms.
    const decoded = () => Buffer.concat(text).toString();
    expect(await settled(() => decoded().includes('"items":[{'), true)).toBe(true);
    const prefix = decoded();
    expect(prefix).toContain('"items":[{');
    expect(prefix.length).toBeLessThan(JSON.stringify(JSON.parse(brotliDecompressSync(Buffer.concat(chunks)).toString())).length);
    dec.destroy();
  });
});
