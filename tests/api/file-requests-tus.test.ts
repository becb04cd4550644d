import { afterEach, expect, test } from 'bun:test';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeTestApp, type TestApp } from '../helpers/test-app';

/** Resumable uploads through file requests (tus under /api/public/tus/<hash>/…, decision 0051). */
let t: TestApp;
afterEach(() => t?.close());

const TUS = { 'Tus-Resumable': '1.0.0' };
const OCTETS = { ...TUS, 'Content-Type': 'application/offset+octet-stream' };

async function fileRequest(body: Record<string, unknown> = {}) {
  t = await makeTestApp();
  mkdirSync(join(t.root, 'bob/inbox'), { recursive: true });
  writeFileSync(join(t.root, 'bob/inbox/taken.bin'), 'the owner\'s');
  const bob = await t.userToken('bob', {}, { scope: '/bob' });
  const r = await t.req('POST', '/api/share/inbox/', { token: bob, body: { mode: 'upload', ...body } });
  expect(r.status).toBe(200);
  return { bob, hash: ((await r.json()) as { hash: string }).hash };
}

/** tus creation; returns the Location path (relative to the app). */
async function create(hash: string, name: string, length: number, headers: Record<string, string> = {}) {
  const r = await t.req('POST', `/api/public/tus/${hash}/${name}`, { headers: { ...TUS, 'Upload-Length': String(length), ...headers } });
  const location = (r.headers.get('location') ?? '').replace(/^https?:\/\/[^/]+/, '');
  return { status: r.status, location, at: location.split('?')[0] ?? '', headers: r.headers, text: await r.text() };
}

const patch = (location: string, offset: number, body: BodyInit) => t.req('PATCH', location, { headers: { ...OCTETS, 'Upload-Offset': String(offset) }, raw: body as Uint8Array });

test('a resumable upload lands at its clash-free name, resumed after a cut', async () => {
  const { hash } = await fileRequest();
  const data = new TextEncoder().encode('0123456789abcdefghij');
  const c = await create(hash, 'taken.bin', data.length);
  expect(c.status).toBe(201);
  // An upload-only link's visitor is never told the stored name (which would say that taken.bin is there).
  expect(c.at).toBe(`/api/public/tus/${hash}/taken.bin`);
  expect(c.location).toMatch(/\?upload=[A-Za-z0-9_-]{32}$/);
  expect(`${[...c.headers].join('\n')}\n${c.text}`).not.toContain('(1)');
  // The connection drops after the first 8 bytes: what arrived is kept.
  let sent = false;
  const cut = new ReadableStream<Uint8Array>({
    pull(ctl) {
      if (!sent) {
        sent = true;
        ctl.enqueue(data.slice(0, 8));
      } else ctl.error(new Error('connection reset by peer'));
    },
  });
  await t.app.handle(new Request(`http://localhost${c.location}`, { method: 'PATCH', headers: { ...OCTETS, 'Upload-Offset': '0' }, body: cut, duplex: 'half' } as RequestInit)).catch(() => null);
  const head = await t.req('HEAD', c.location, { headers: TUS });
  expect(head.status).toBe(200);
  const offset = Number(head.headers.get('upload-offset'));
  expect(offset).toBe(8);
  expect(head.headers.get('upload-length')).toBe('20');
  const done = await patch(c.location, offset, data.slice(offset));
  expect(done.status).toBe(204);
  expect(done.headers.get('upload-offset')).toBe('20');
  expect(readFileSync(join(t.root, 'bob/inbox/taken (1).bin'), 'utf8')).toBe('0123456789abcdefghij');
  expect(readFileSync(join(t.root, 'bob/inbox/taken.bin'), 'utf8')).toBe('the owner\'s');
  // The link counted one file and its bytes, and the log has the upload.
  const row = (await t.s.stores.shares.byHash(hash))!;
  expect([row.v2!.uploads, row.v2!.uploadedBytes]).toEqual([1, 20]);
}, 30_000);

test('two uploads of one name at once get two names; a visitor never restarts another\'s upload', async () => {
  const { hash } = await fileRequest();
  const [a, b] = await Promise.all([create(hash, 'same.txt', 3), create(hash, 'same.txt', 3)]);
  expect([a.status, b.status]).toEqual([201, 201]);
  expect(new Set([a.location, b.location]).size).toBe(2); // told the same name, told apart by their keys
  // A third, while both are in progress, takes a third name.
  const c = await create(hash, 'same.txt', 3);
  expect([a.at, b.at, c.at]).toEqual(Array(3).fill(`/api/public/tus/${hash}/same.txt`));
  // A plain upload of that name meanwhile avoids the names being uploaded too.
  const plain = await t.req('POST', `/api/public/upload/${hash}/same.txt`, { raw: 'p' });
  expect(((await plain.json()) as { path: string }).path).toBe('/same.txt');
  for (const [loc, body] of [[a.location, 'aaa'], [b.location, 'bbb'], [c.location, 'ccc']] as const) expect((await patch(loc, 0, new TextEncoder().encode(body))).status).toBe(204);
  expect(readdirSync(join(t.root, 'bob/inbox')).sort()).toEqual(['same (1).txt', 'same (2).txt', 'same (3).txt', 'same.txt', 'taken.bin']);
}, 30_000);

test('limits: declared length, type, and the count taken when the last byte lands', async () => {
  const { hash } = await fileRequest({ upload: { maxFileSize: 10, maxFiles: 1, allowedTypes: ['.txt'] } });
  expect((await create(hash, 'big.txt', 11)).status).toBe(413);
  expect((await create(hash, 'a.exe', 1)).status).toBe(415);
  expect((await create(hash, 'bad.txt', -1)).status).toBe(400);
  const one = await create(hash, 'one.txt', 2);
  const two = await create(hash, 'two.txt', 2);
  expect([one.status, two.status]).toEqual([201, 201]); // both declared within the limits
  expect((await patch(one.location, 0, new TextEncoder().encode('11'))).status).toBe(204);
  // The second finishes after the link's one file arrived: refused, nothing lands, no temp left.
  expect((await patch(two.location, 0, new TextEncoder().encode('22'))).status).toBe(403);
  expect(existsSync(join(t.root, 'bob/inbox/two.txt'))).toBe(false);
  expect(readdirSync(join(t.root, 'bob/inbox')).filter((n) => n.startsWith('.filedeck-'))).toEqual([]);
  // Bytes beyond Upload-Length are refused.
  const { hash: h2 } = await fileRequest();
  const c = await create(h2, 'x.txt', 2);
  expect((await patch(c.location, 0, new TextEncoder().encode('123'))).status).toBe(413);
}, 30_000);

test('tus metadata cannot choose the name; names in the path are checked like any', async () => {
  const { hash } = await fileRequest();
  const meta = `filename ${btoa('../../outside.txt')},name ${btoa('/etc/passwd')}`;
  const c = await create(hash, 'safe.txt', 1, { 'Upload-Metadata': meta });
  expect(c.at).toBe(`/api/public/tus/${hash}/safe.txt`);
  expect((await patch(c.location, 0, new TextEncoder().encode('s'))).status).toBe(204);
  expect(existsSync(join(t.root, 'bob/inbox/safe.txt'))).toBe(true);
  expect(existsSync(join(t.root, 'bob/outside.txt'))).toBe(false);
  for (const bad of ['%2e%2e%5cx.txt', '.filedeck-9.part', 'a%00b', `${'n'.repeat(256)}`]) expect((await create(hash, bad, 1)).status).toBe(400);
  // A view link refuses tus creation; an unknown link is 404.
  const bobView = await t.req('POST', '/api/share/inbox/', { token: await t.login('bob', 'bobs-long-password-4410'), body: {} });
  const view = ((await bobView.json()) as { hash: string }).hash;
  expect((await create(view, 'v.txt', 1)).status).toBe(403);
  expect((await create('nosuchlink00', 'v.txt', 1)).status).toBe(404);
}, 30_000);

test('the owner\'s own tus upload of the same path is a different upload', async () => {
  const { bob, hash } = await fileRequest();
  mkdirSync(join(t.root, 'bob/x'), { recursive: true });
  // bob uploads /x.txt (his scope's root) while a visitor uploads /x.txt (the inbox's root): separate rows.
  const own = await t.req('POST', '/api/tus/x.txt', { token: bob, headers: { ...TUS, 'Upload-Length': '3' } });
  expect(own.status).toBe(201);
  const visitor = await create(hash, 'x.txt', 3);
  expect(visitor.at).toBe(`/api/public/tus/${hash}/x.txt`);
  expect((await patch(visitor.location, 0, new TextEncoder().encode('vvv'))).status).toBe(204);
  expect((await t.req('PATCH', '/api/tus/x.txt', { token: bob, headers: { ...OCTETS, 'Upload-Offset': '0' }, raw: new TextEncoder().encode('own') })).status).toBe(204);
  expect(readFileSync(join(t.root, 'bob/inbox/x.txt'), 'utf8')).toBe('vvv');
  expect(readFileSync(join(t.root, 'bob/x.txt'), 'utf8')).toBe('own');
}, 30_000);

test('an upload is its sender\'s own: without its key another visitor can neither see, append to nor cancel it', async () => {
  const { hash } = await fileRequest();
  const c = await create(hash, 'mine.txt', 4);
  const wrong = `${c.at}?upload=${'A'.repeat(32)}`;
  for (const loc of [c.at, wrong]) {
    expect((await t.req('HEAD', loc, { headers: TUS })).status).toBe(404);
    expect((await patch(loc, 0, new TextEncoder().encode('evil'))).status).toBe(404);
    expect((await t.req('DELETE', loc, { headers: TUS })).status).toBe(404);
  }
  expect(Number((await t.req('HEAD', c.location, { headers: TUS })).headers.get('upload-offset'))).toBe(0);
  expect((await patch(c.location, 0, new TextEncoder().encode('mine'))).status).toBe(204);
  expect(readFileSync(join(t.root, 'bob/inbox/mine.txt'), 'utf8')).toBe('mine');
  // Cancelling with the key works and leaves nothing.
  const d = await create(hash, 'gone.txt', 4);
  expect((await t.req('DELETE', d.location, { headers: TUS })).status).toBe(204);
  expect(readdirSync(join(t.root, 'bob/inbox')).filter((n) => n.startsWith('.filedeck-'))).toEqual([]);
}, 30_000);

test('an upload-and-view link is told the stored name; a key reaches only its own upload\'s name', async () => {
  const { hash } = await fileRequest({ mode: 'upload-view' });
  const c = await create(hash, 'taken.bin', 3);
  expect(c.at).toBe(`/api/public/tus/${hash}/taken%20(1).bin`);
  const key = c.location.split('?')[1];
  // The key with another name (or another folder) is no upload.
  for (const other of ['other.bin', 'taken%20(1).txt', 'sub/taken.bin']) expect((await t.req('HEAD', `/api/public/tus/${hash}/${other}?${key}`, { headers: TUS })).status).toBe(404);
  expect((await patch(c.location, 0, new TextEncoder().encode('abc'))).status).toBe(204);
  expect(readFileSync(join(t.root, 'bob/inbox/taken (1).bin'), 'utf8')).toBe('abc');
}, 30_000);

test('an upload-only link: the name sent, with its key, resumes the upload stored under another name', async () => {
  const { hash } = await fileRequest();
  const c = await create(hash, 'taken.bin', 4);
  expect(c.at).toBe(`/api/public/tus/${hash}/taken.bin`);
  expect(Number((await t.req('HEAD', c.location, { headers: TUS })).headers.get('upload-offset'))).toBe(0);
  expect((await patch(c.location, 0, new TextEncoder().encode('ab'))).status).toBe(204);
  expect(Number((await t.req('HEAD', c.location, { headers: TUS })).headers.get('upload-offset'))).toBe(2);
  const key = c.location.split('?')[1];
  expect((await t.req('HEAD', `/api/public/tus/${hash}/other.bin?${key}`, { headers: TUS })).status).toBe(404);
  const done = await patch(c.location, 2, new TextEncoder().encode('cd'));
  expect(done.status).toBe(204);
  expect(`${[...done.headers].join('\n')}\n${await done.text()}`).not.toContain('(1)');
  expect(readdirSync(join(t.root, 'bob/inbox')).sort()).toEqual(['taken (1).bin', 'taken.bin']);
  expect(readFileSync(join(t.root, 'bob/inbox/taken (1).bin'), 'utf8')).toBe('abcd');
}, 30_000);
