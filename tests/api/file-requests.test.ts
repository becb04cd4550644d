import { afterEach, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runScenarios, type Scenario, type ScenarioValues } from '../helpers/scenario';
import { makeTestApp, type TestApp } from '../helpers/test-app';

/**
 * File requests (issue 37, decision 0051): uploads through `upload`/`upload-view` links, their limits, and what an
 * upload link never shows. bob (scope /bob) shares /bob/inbox, which already holds a file visitors must never learn of.
 */
const setup = async (t: TestApp): Promise<ScenarioValues> => {
  mkdirSync(join(t.root, 'bob/inbox/old'), { recursive: true });
  writeFileSync(join(t.root, 'bob/inbox/secret-plans.txt'), 'the owner\'s own file');
  writeFileSync(join(t.root, 'bob/inbox/old/movie.mp4'), 'v');
  writeFileSync(join(t.root, 'bob/inbox/old/movie.srt'), '1\n00:00:00,000 --> 00:00:01,000\nhi\n');
  writeFileSync(join(t.root, 'bob/outside.txt'), 'beside the shared folder');
  const bob = await t.userToken('bob', {}, { scope: '/bob', quota: { bytes: 256 * 1024, files: 0 } });
  const link = async (body: Record<string, unknown>) => {
    const r = await t.req('POST', '/api/share/inbox/', { token: bob, body });
    if (r.status !== 200) throw new Error(`share: ${r.status} ${await r.text()}`);
    return ((await r.json()) as { hash: string }).hash;
  };
  return {
    bob,
    up: await link({ mode: 'upload' }),
    upview: await link({ mode: 'upload-view' }),
    view: await link({}),
    small: await link({ mode: 'upload', upload: { maxFileSize: 10, maxFiles: 2, maxTotalSize: 15, allowedTypes: ['.txt', 'image/*'] } }),
    pw: await link({ mode: 'upload', password: 'letmein-please' }),
    off: await link({ mode: 'upload', disabled: true }),
    slugged: await link({ mode: 'upload', slug: 'Send-Me-Files' }),
  };
};

const INBOX_BEFORE = { 'old': '/', 'old/movie.mp4': 'v', 'old/movie.srt': '1\n00:00:00,000 --> 00:00:01,000\nhi\n', 'secret-plans.txt': 'the owner\'s own file' };
const inbox = (extra: Record<string, string>) => ({ under: 'bob/inbox', after: { ...INBOX_BEFORE, ...extra } });
const same = { under: 'bob', after: 'same' as const };
const at = (link: string, rest: string) => (_t: TestApp, v: ScenarioValues) => `/api/public/upload/${v[link]}${rest}`;
const pub = (kind: string, link: string, rest: string) => (_t: TestApp, v: ScenarioValues) => `/api/public/${kind}/${v[link]}${rest}`;

describe('file request uploads (plain POST)', () => {
  const rows: Scenario[] = [
    { name: 'a visitor sends a file', as: 'anon', method: 'POST', url: at('up', '/hello.txt'), raw: 'hello', status: 201, json: { path: '/hello.txt' }, disk: inbox({ 'hello.txt': 'hello' }) },
    { name: 'a taken name is stored as "name (1).ext", the owner\'s file untouched; an upload link is told the name it sent', as: 'anon', method: 'POST', url: at('up', '/secret-plans.txt'), raw: 'visitor', status: 201, json: { path: '/secret-plans.txt' }, excludes: '(1)', responseHeaders: { location: null }, disk: inbox({ 'secret-plans (1).txt': 'visitor' }) },
    { name: 'an upload-and-view link is told the stored name', as: 'anon', method: 'POST', url: at('upview', '/secret-plans.txt'), raw: 'visitor', status: 201, json: { path: '/secret-plans (1).txt' }, disk: inbox({ 'secret-plans (1).txt': 'visitor' }) },
    { name: 'a folder upload makes its subfolders', as: 'anon', method: 'POST', url: at('upview', '/trip/day%201/a.txt'), raw: 'a', status: 201, json: { path: '/trip/day 1/a.txt' }, disk: inbox({ trip: '/', 'trip/day 1': '/', 'trip/day 1/a.txt': 'a' }) },
    { name: 'by slug, any case', as: 'anon', method: 'POST', url: '/api/public/upload/SEND-me-files/s.txt', raw: 's', status: 201, disk: inbox({ 's.txt': 's' }) },
    { name: 'a view link refuses uploads', as: 'anon', method: 'POST', url: at('view', '/x.txt'), raw: 'x', status: 403, disk: same },
    { name: 'a disabled link refuses uploads', as: 'anon', method: 'POST', url: at('off', '/x.txt'), raw: 'x', status: 403, disk: same },
    { name: 'a password link without it: 401', as: 'anon', method: 'POST', url: at('pw', '/x.txt'), raw: 'x', status: 401, disk: same },
    { name: 'a password link with it', as: 'anon', method: 'POST', url: at('pw', '/x.txt'), raw: 'x', headers: { 'X-SHARE-PASSWORD': 'letmein-please' }, status: 201, disk: inbox({ 'x.txt': 'x' }) },
    { name: 'an unknown link: 404', as: 'anon', method: 'POST', url: '/api/public/upload/nosuchlink00/x.txt', raw: 'x', status: 404, disk: same },
    { name: 'no name: 403', as: 'anon', method: 'POST', url: at('up', '/'), raw: 'x', status: 403, disk: same },
    // Limits: size (413), type (415), count (403), total (413), checked before the first byte and as bytes arrive.
    { name: 'a type the link does not accept: 415', as: 'anon', method: 'POST', url: at('small', '/a.pdf'), raw: 'x', status: 415, disk: same },
    { name: 'an accepted MIME pattern', as: 'anon', method: 'POST', url: at('small', '/p.PNG'), raw: 'png', status: 201, disk: inbox({ 'p.PNG': 'png' }) },
    { name: 'larger than maxFileSize: 413, nothing written', as: 'anon', method: 'POST', url: at('small', '/big.txt'), raw: '0123456789AB', status: 413, disk: same },
    { name: 'the limit holds on a body without a length', as: 'anon', method: 'POST', url: at('small', '/big.txt'), status: 413, disk: same,
      before: (t, v) => void (v.stream = 'yes'),
      after: () => {} },
    { name: 'no more files than maxFiles: 403', as: 'anon', method: 'POST', url: at('small', '/third.txt'), raw: 'x', status: 403, disk: same,
      before: async (t, v) => void (await t.s.stores.shares.takeUpload(v.small!, 1, 0), await t.s.stores.shares.takeUpload(v.small!, 1, 0)) },
    { name: 'no more bytes than maxTotalSize: 413', as: 'anon', method: 'POST', url: at('small', '/more.txt'), raw: '0123456', status: 413, disk: same,
      before: async (t, v) => void (await t.s.stores.shares.takeUpload(v.small!, 10, 0)) },
    // Attacks: every trick to write outside the folder or at a server name is a 4xx and writes nothing.
    // A URL's own ".." (plain or %2e%2e) is resolved by the URL parser before routing: it names no link then (404).
    { name: '.. never leaves the link', as: 'anon', method: 'POST', url: at('up', '/../outside.txt'), raw: 'x', status: 404, disk: same },
    { name: 'encoded .. never leaves the link', as: 'anon', method: 'POST', url: at('up', '/%2e%2e/outside.txt'), raw: 'x', status: 404, disk: same },
    { name: 'a doubly encoded .. is decoded once: a folder literally named "%2e%2e", inside', as: 'anon', method: 'POST', url: at('up', '/%252e%252e/outside.txt'), raw: 'x', status: 201,
      json: { path: '/%2e%2e/outside.txt' }, disk: inbox({ '%2e%2e': '/', '%2e%2e/outside.txt': 'x' }) },
    { name: 'an encoded slash then .. is refused', as: 'anon', method: 'POST', url: at('up', '/a%2f..%2f..%2foutside.txt'), raw: 'x', status: 400, disk: same },
    { name: 'an encoded backslash is refused', as: 'anon', method: 'POST', url: at('up', '/..%5coutside.txt'), raw: 'x', status: 400, disk: same },
    { name: 'an absolute path is refused', as: 'anon', method: 'POST', url: at('up', '//etc/passwd'), raw: 'x', status: 400, disk: same },
    { name: 'a NUL byte is refused', as: 'anon', method: 'POST', url: at('up', '/a%00.txt'), raw: 'x', status: 400, disk: same },
    { name: 'a name over 255 bytes is refused', as: 'anon', method: 'POST', url: at('up', `/${'n'.repeat(256)}`), raw: 'x', status: 400, disk: same },
    { name: 'the trash folder\'s name reaches nothing', as: 'anon', method: 'POST', url: at('up', '/.filedeck-trash/x'), raw: 'x', status: 404, disk: same },
    { name: 'a reserved name is refused', as: 'anon', method: 'POST', url: at('up', '/.filedeck-1234.part'), raw: 'x', status: 400, disk: same },
    { name: 'a reserved name in any case is refused', as: 'anon', method: 'POST', url: at('up', '/.FILEDECK-x.part'), raw: 'x', status: 400, disk: same },
  ];
  // The chunked row: a body without Content-Length (a stream) larger than maxFileSize.
  const stream = rows.find((r) => r.name.startsWith('the limit holds'))!;
  stream.raw = undefined;
  stream.before = undefined;
  stream.url = async (t, v) => {
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        for (let i = 0; i < 4; i++) c.enqueue(new TextEncoder().encode('0123456'));
        c.close();
      },
    });
    const r = await t.app.handle(new Request(`http://localhost/api/public/upload/${v.small}/big.txt`, { method: 'POST', body, duplex: 'half' } as RequestInit));
    // The table's own request follows; this one is the check: a stream past the limit is a 413 and leaves nothing.
    expect(r.status).toBe(413);
    return `/api/public/upload/${v.small}/big.txt?again`;
  };
  stream.raw = '0123456789ABCDEF';
  runScenarios('file request uploads', setup, rows, { timeout: 30_000 });
});

describe('an upload link shows nothing of what is there', () => {
  const rows: Scenario[] = [
    { name: 'its page: mode, limits, no items, names, sizes or counts', as: 'anon', method: 'GET', url: pub('share', 'small', '/'), status: 200,
      json: { mode: 'upload', items: [], upload: { maxFileSize: 10, remainingBytes: 15, remainingFiles: 2, allowedTypes: ['.txt', 'image/*'] } },
      excludes: ['secret-plans', 'movie', 'old', '"size"', 'numFiles', 'numDirs', 'modified'] },
    { name: 'below its root: 403', as: 'anon', method: 'GET', url: pub('share', 'up', '/old'), status: 403, excludes: 'movie' },
    { name: 'a file by name: 403', as: 'anon', method: 'GET', url: pub('share', 'up', '/secret-plans.txt'), status: 403, excludes: 'owner' },
    { name: 'a download: 403', as: 'anon', method: 'GET', url: pub('dl', 'up', '/secret-plans.txt'), status: 403, excludes: 'owner' },
    { name: 'an inline view: 403', as: 'anon', method: 'GET', url: pub('dl', 'up', '/secret-plans.txt?inline=true'), status: 403 },
    { name: 'the folder as an archive: 403', as: 'anon', method: 'GET', url: pub('dl', 'up', '/?algo=zip'), status: 403 },
    { name: 'a selection: 403', as: 'anon', method: 'GET', url: pub('dl', 'up', '/?files=secret-plans.txt'), status: 403 },
    { name: 'a subtitle: 403', as: 'anon', method: 'GET', url: pub('subtitle', 'up', '/old/movie.srt'), status: 403, excludes: 'hi' },
    { name: 'a missing name answers as an existing one (no probing)', as: 'anon', method: 'GET', url: pub('dl', 'up', '/nope.txt'), status: 403 },
    { name: 'the tus offset of a name not being uploaded: 404 like any', as: 'anon', method: 'HEAD', url: pub('tus', 'up', '/secret-plans.txt'), status: 404 },
    { name: 'upload-view: the folder is listed', as: 'anon', method: 'GET', url: pub('share', 'upview', '/'), status: 200, json: { mode: 'upload-view', upload: { maxFileSize: 0, remainingBytes: null, remainingFiles: null } }, contains: 'secret-plans.txt' },
    { name: 'a view link: as before (no upload field)', as: 'anon', method: 'GET', url: pub('share', 'view', '/'), status: 200, contains: 'secret-plans.txt', excludes: '"upload"' },
  ];
  runScenarios('upload link privacy', setup, rows, { shared: true, timeout: 30_000 });
});

let t: TestApp;
afterEach(() => t?.close());

test('two visitors sending the same name at once get two files, nothing overwritten', async () => {
  t = await makeTestApp();
  const v = await setup(t);
  const send = (body: string) => t.req('POST', `/api/public/upload/${v.up}/same.txt`, { raw: body });
  const rs = await Promise.all(['one', 'two', 'three', 'four'].map(send));
  expect(rs.map((r) => r.status)).toEqual([201, 201, 201, 201]);
  const paths = (await Promise.all(rs.map((r) => r.json()))).map((j) => (j as { path: string }).path).sort();
  expect(paths).toEqual(Array(4).fill('/same.txt')); // an upload link is told the name it sent
  const stored = readdirSync(join(t.root, 'bob/inbox')).filter((n) => n.startsWith('same')).sort();
  expect(stored).toEqual(['same (1).txt', 'same (2).txt', 'same (3).txt', 'same.txt']);
  const contents = stored.map((p) => readFileSync(join(t.root, 'bob/inbox', p), 'utf8')).sort();
  expect(contents).toEqual(['four', 'one', 'three', 'two']);
}, 30_000);

test('a flood of uploads from one address is refused (429) and the refusals write nothing', async () => {
  t = await makeTestApp();
  const v = await setup(t);
  const statuses: number[] = [];
  for (let i = 0; i < 65; i++) statuses.push((await t.req('POST', `/api/public/upload/${v.up}/f${i}.txt`, { raw: 'x' })).status);
  expect(statuses.slice(0, 60).every((s) => s === 201)).toBe(true);
  expect(statuses.slice(60)).toEqual([429, 429, 429, 429, 429]);
  expect(readdirSync(join(t.root, 'bob/inbox')).filter((n) => n.startsWith('f')).length).toBe(60);
}, 60_000);

test('a file request cannot fill the disk past the owner\'s quota (507), and nothing is left', async () => {
  t = await makeTestApp();
  const v = await setup(t);
  const r = await t.req('POST', `/api/public/upload/${v.up}/big.bin`, { raw: new Uint8Array(300 * 1024) });
  expect(r.status).toBe(507);
  expect(existsSync(join(t.root, 'bob/inbox/big.bin'))).toBe(false);
  expect(readdirSync(join(t.root, 'bob/inbox')).filter((n) => n.startsWith('.filedeck-'))).toEqual([]);
}, 30_000);

test('refusals by the link\'s limits are lines of its log; deleting the link deletes its log', async () => {
  t = await makeTestApp();
  const v = await setup(t);
  expect((await t.req('POST', `/api/public/upload/${v.small}/a.pdf`, { raw: 'x' })).status).toBe(415);
  expect((await t.req('POST', `/api/public/upload/${v.small}/b.txt`, { raw: '0123456789AB' })).status).toBe(413);
  expect((await t.req('POST', `/api/public/upload/${v.small}/c.txt`, { raw: 'ok' })).status).toBe(201);
  const log = (await (await t.req('GET', `/api/share/${v.small}/log`, { token: v.bob })).json()) as { kind: string; path: string }[];
  expect(log.map((l) => [l.kind, l.path])).toEqual([['upload', '/c.txt'], ['refused', '/b.txt'], ['refused', '/a.pdf']]);
  expect((await t.req('DELETE', `/api/share/${v.small}`, { token: v.bob })).status).toBe(200);
  expect(Number((await t.s.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM share_access WHERE hash = ?', v.small))!.n)).toBe(0);
}, 30_000);
