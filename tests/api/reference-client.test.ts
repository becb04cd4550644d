import { afterEach, describe, expect, test } from 'bun:test';
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { ADMIN_PASSWORD, USER_PASSWORD, makeTestApp, tokenPayload, type TestApp } from '../helpers/test-app';
import { listenHttp } from '../../server/http/listen';
import { silentLogger } from '../../server/core/log';

/**
 * The reference's own web client (v2.63.23), one scenario per flow it performs, with the URLs, headers and
 * bodies its API module sends (filebrowser-server.md is the map). Each asserts the statuses and body shapes
 * the client reads; a difference here is a screen that breaks for people who keep the old client or scripts.
 */

let t: TestApp;
afterEach(() => t?.close());

/** What the client's fetchURL sends: X-Auth on every call. */
const xauth = (token: string) => ({ 'X-Auth': token });
/** What <img>, <video>, window.open and the shell send: only the cookie the client set (Path=/). */
const cookie = (token: string) => ({ Cookie: `auth=${token}` });
/** Bun's toMatchObject writes its asymmetric matchers into the received object; matching a copy keeps it intact. */
const copy = <T>(v: T): T => structuredClone(v);
/** The client's encodeURIComponent of a "/files/..." URL path (already encoded once), as PATCH and files= send it. */
const twice = (path: string) => encodeURIComponent(path.split('/').map(encodeURIComponent).join('/'));

async function seeded(flags: Record<string, unknown> = {}, settings: Record<string, unknown> = {}) {
  t = await makeTestApp(flags, settings);
  mkdirSync(join(t.root, 'docs/sub'), { recursive: true });
  writeFileSync(join(t.root, 'docs/a.txt'), 'alpha');
  writeFileSync(join(t.root, 'docs/sub/b.txt'), 'beta');
  writeFileSync(join(t.root, 'docs/table.csv'), 'x;y\n1;2\n');
  return t.adminToken();
}

describe('session', () => {
  test('login answers the raw token as text; its payload carries the user object the client stores', async () => {
    await seeded();
    const r = await t.req('POST', '/api/login', { body: { username: 'admin', password: ADMIN_PASSWORD, recaptcha: '' } });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toStartWith('text/plain');
    const token = await r.text();
    expect(token.split('.')).toHaveLength(3); // parseToken: "token malformed" otherwise
    const user = tokenPayload(token).user;
    for (const k of ['id', 'username', 'locale', 'viewMode', 'singleClick', 'redirectAfterCopyMove', 'perm', 'commands', 'lockPassword', 'hideDotfiles', 'dateFormat', 'aceEditorTheme']) expect(user).toHaveProperty(k);
    expect(Object.keys(user.perm).sort()).toEqual(['admin', 'create', 'delete', 'download', 'execute', 'modify', 'rename', 'share']);
  });

  test('a wrong password is 403 (the login screen shows "wrong credentials"), never 401', async () => {
    await seeded();
    const r = await t.req('POST', '/api/login', { body: { username: 'admin', password: 'nope-nope-nope', recaptcha: '' } });
    expect(r.status).toBe(403);
    expect(await r.text()).toBe('403 Forbidden\n');
  });

  test('start-up renew of the stored token: 200, a new token as text, X-Renew-Token false; garbage is 401', async () => {
    const token = await seeded();
    const r = await t.req('POST', '/api/renew', { headers: xauth(token) });
    expect(r.status).toBe(200);
    expect(r.headers.get('x-renew-token')).toBe('false');
    expect((await r.text()).split('.')).toHaveLength(3);
    expect((await t.req('POST', '/api/renew', { headers: xauth('a.b.c') })).status).toBe(401);
  });

  test('after a user update every response asks for a renew, and the parallel renews of one folder open both succeed', async () => {
    const token = await seeded();
    const me = await (await t.req('GET', '/api/users/1', { headers: xauth(token) })).json();
    await new Promise((r) => setTimeout(r, 1100)); // iat has one-second resolution
    expect((await t.req('PUT', '/api/users/1', { headers: xauth(token), body: { what: 'user', which: ['locale'], data: { ...me, locale: 'fr' } } })).status).toBe(200);
    const [usage, listing] = await Promise.all([t.req('GET', '/api/usage/docs/', { headers: xauth(token) }), t.req('GET', '/api/resources/docs/', { headers: xauth(token) })]);
    expect([usage.headers.get('x-renew-token'), listing.headers.get('x-renew-token')]).toEqual(['true', 'true']);
    const renews = await Promise.all([1, 2].map(() => t.req('POST', '/api/renew', { headers: xauth(token) })));
    expect(renews.map((r) => r.status)).toEqual([200, 200]);
    const [a, b] = await Promise.all(renews.map((r) => r.text()));
    expect(a).toBe(b!);
    expect(tokenPayload(a!).user.locale).toBe('fr');
  });

  test('signup: 200 text then the client logs in; a taken name is 409; closed signup is 405', async () => {
    await seeded({}, { signup: true });
    const r = await t.req('POST', '/api/signup', { body: { username: 'newbie', password: 'a-long-new-password-1' } });
    expect(r.status).toBe(200);
    expect(await r.text()).toBe('200 OK\n');
    expect((await t.login('newbie', 'a-long-new-password-1')).split('.')).toHaveLength(3);
    expect((await t.req('POST', '/api/signup', { body: { username: 'newbie', password: 'a-long-new-password-2' } })).status).toBe(409);
    await t.s.settings.update({ signup: false }, ['signup']);
    expect((await t.req('POST', '/api/signup', { body: { username: 'other', password: 'a-long-new-password-3' } })).status).toBe(405);
  });
});

describe('files', () => {
  test('opening a folder: listing shape (items, numDirs, numFiles, sorting, type "" for folders) and usage', async () => {
    const token = await seeded();
    const r = await t.req('GET', '/api/resources/docs/', { headers: xauth(token) });
    expect(r.status).toBe(200);
    const d = await r.json();
    expect(copy(d)).toMatchObject({ isDir: true, name: 'docs', path: '/docs', type: '', numDirs: 1, numFiles: 2, sorting: { by: expect.any(String), asc: expect.any(Boolean) } });
    expect(d.items.map((i: { name: string }) => i.name)).toEqual(['sub', 'a.txt', 'table.csv']); // folders first, A to Z
    expect(copy(d.items[0])).toMatchObject({ isDir: true, type: '', path: '/docs/sub' });
    expect(copy(d.items[1])).toMatchObject({ isDir: false, type: 'text', extension: '.txt', size: 5, path: '/docs/a.txt' });
    expect(Number.isNaN(Date.parse(d.items[1].modified))).toBe(false); // the preview key is Date.parse(modified)
    const root = await (await t.req('GET', '/api/resources/', { headers: xauth(token) })).json();
    expect(copy(root)).toMatchObject({ path: '/', name: '', isDir: true });
    const u = await t.req('GET', '/api/usage/docs/', { headers: xauth(token) });
    expect(u.status).toBe(200);
    expect(await u.json()).toEqual({ used: expect.any(Number), total: expect.any(Number) });
  });

  test('opening a text file in the editor, saving it, checksums; PUT never creates', async () => {
    const token = await seeded();
    const f = await (await t.req('GET', '/api/resources/docs/a.txt', { headers: xauth(token) })).json();
    expect(copy(f)).toMatchObject({ type: 'text', content: 'alpha', isDir: false });
    const put = await t.req('PUT', '/api/resources/docs/a.txt', { headers: xauth(token), raw: 'ALPHA' });
    expect(put.status).toBe(200);
    expect(put.headers.get('etag')).toBeTruthy();
    expect(readFileSync(join(t.root, 'docs/a.txt'), 'utf8')).toBe('ALPHA');
    expect((await t.req('PUT', '/api/resources/docs/none.txt', { headers: xauth(token), raw: 'x' })).status).toBe(404);
    const c = await t.req('GET', '/api/resources/docs/a.txt?checksum=sha256', { headers: xauth(token) });
    expect((await c.json()).checksums.sha256).toBe(new Bun.CryptoHasher('sha256').update('ALPHA').digest('hex'));
    expect((await t.req('GET', '/api/resources/docs/a.txt?checksum=crc32', { headers: xauth(token) })).status).toBe(400);
  });

  test('the CSV viewer asks with X-Encoding: true and gets the raw bytes to decode in the chosen charset', async () => {
    const token = await seeded();
    writeFileSync(join(t.root, 'docs/latin.csv'), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x3b, 0x31, 0x0a])); // "café;1" in Latin-1
    const r = await t.req('GET', '/api/resources/docs/latin.csv', { headers: { ...xauth(token), 'X-Encoding': 'true' } });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('application/octet-stream');
    expect([...new Uint8Array(await r.arrayBuffer())]).toEqual([0x63, 0x61, 0x66, 0xe9, 0x3b, 0x31, 0x0a]);
    // folders and non-text files keep the JSON answer
    expect((await t.req('GET', '/api/resources/docs/', { headers: { ...xauth(token), 'X-Encoding': 'true' } })).headers.get('content-type')).toStartWith('application/json');
    // without download permission the bytes stay out of reach
    const bob = await t.userToken('bob', { download: false, share: false });
    const denied = await t.req('GET', '/api/resources/docs/latin.csv', { headers: { ...xauth(bob), 'X-Encoding': 'true' } });
    expect(denied.status).toBe(403); // the reference says 202; see ARCHITECTURE.md, compatibility
    expect(await denied.text()).not.toContain('caf');
  });

  test('new folder (trailing slash), new empty file, 409 on a taken name, override=true replaces', async () => {
    const token = await seeded();
    expect((await t.req('POST', '/api/resources/docs/made/?override=false', { headers: xauth(token) })).status).toBe(200);
    expect((await t.req('POST', '/api/resources/docs/made/?override=false', { headers: xauth(token) })).status).toBe(200); // mkdir -p
    const f = await t.req('POST', '/api/resources/docs/new.txt?override=false', { headers: xauth(token), raw: '' });
    expect(f.status).toBe(200);
    expect(f.headers.get('etag')).toBeTruthy();
    const again = await t.req('POST', '/api/resources/docs/new.txt?override=false', { headers: xauth(token), raw: 'x' });
    expect(again.status).toBe(409); // the client asks "replace?" on exactly this status
    expect((await t.req('POST', '/api/resources/docs/new.txt?override=true', { headers: xauth(token), raw: 'x' })).status).toBe(200);
    expect(readFileSync(join(t.root, 'docs/new.txt'), 'utf8')).toBe('x');
  });

  test('tus upload as the client drives it: POST ?override (201), HEAD on the same URL, PATCH chunks (204)', async () => {
    const token = await seeded();
    const url = '/api/tus/docs/up%20load.bin?override=false';
    const body = new Uint8Array(3000).map((_, i) => i % 251);
    const c = await t.req('POST', url, { headers: { ...xauth(token), 'Upload-Length': String(body.length) } });
    expect(c.status).toBe(201);
    expect(c.headers.get('location')).toBeTruthy();
    const h = await t.req('HEAD', url, { headers: { ...xauth(token), 'Tus-Resumable': '1.0.0' } });
    expect(h.status).toBe(200);
    expect(h.headers.get('upload-offset')).toBe('0');
    let offset = 0;
    for (const size of [1024, 1024, 952]) {
      const p = await t.req('PATCH', url, { headers: { ...xauth(token), 'Tus-Resumable': '1.0.0', 'Upload-Offset': String(offset), 'Content-Type': 'application/offset+octet-stream' }, raw: body.slice(offset, offset + size) });
      expect(p.status).toBe(204);
      offset += size;
      expect(p.headers.get('upload-offset')).toBe(String(offset));
    }
    expect(new Uint8Array(readFileSync(join(t.root, 'docs/up load.bin')))).toEqual(body);
    const taken = await t.req('POST', url, { headers: { ...xauth(token), 'Upload-Length': '1' } });
    expect(taken.status).toBe(409);
  });

  test('move, rename and copy with the doubly encoded destination; 409 without override; rename=true keeps both', async () => {
    const token = await seeded();
    const patch = (from: string, q: string) => t.req('PATCH', `/api/resources${from}?${q}`, { headers: xauth(token) });
    expect((await patch('/docs/a.txt', `action=rename&destination=${twice('/docs/b c+d.txt')}&override=false&rename=false`)).status).toBe(200);
    expect(existsSync(join(t.root, 'docs/b c+d.txt'))).toBe(true);
    expect((await patch('/docs/b%20c%2Bd.txt', `action=copy&destination=${twice('/docs/sub/b.txt')}&override=false&rename=false`)).status).toBe(409);
    expect((await patch('/docs/b%20c%2Bd.txt', `action=copy&destination=${twice('/docs/sub/b.txt')}&override=false&rename=true`)).status).toBe(200);
    expect(existsSync(join(t.root, 'docs/sub/b(1).txt'))).toBe(true);
    expect((await patch('/docs/sub/', `action=rename&destination=${twice('/docs/sub/inner/')}&override=false&rename=false`)).status).toBe(400);
    expect((await patch('/docs/a.txt', `action=chmod&destination=${twice('/x')}`)).status).toBe(400);
  });

  test('delete: 204, then 404', async () => {
    const token = await seeded();
    const r = await t.req('DELETE', '/api/resources/docs/sub/', { headers: xauth(token) });
    expect(r.status).toBe(204);
    expect((await t.req('GET', '/api/resources/docs/sub/', { headers: xauth(token) })).status).toBe(404);
  });

  test('the upload conflict check of a folder upload: GET /api/resources/recursive/{path}', async () => {
    const token = await seeded();
    const r = await t.req('GET', '/api/resources/recursive/docs/', { headers: xauth(token) });
    expect(r.status).toBe(200);
    const list = (await r.json()) as { path: string; isDir: boolean }[];
    expect(list.map((e) => e.path).sort()).toEqual(['/docs/a.txt', '/docs/sub', '/docs/sub/b.txt', '/docs/table.csv']);
    expect((await t.req('GET', '/api/resources/recursive/docs/a.txt', { headers: xauth(token) })).status).toBe(400);
  });
});

describe('downloads and previews (cookie, as <img>, <video> and window.open send them)', () => {
  test('raw: attachment by default, inline=true, Range; the stored-token query works too', async () => {
    const token = await seeded();
    const r = await t.req('GET', '/api/raw/docs/a.txt', { headers: cookie(token) });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-disposition')).toStartWith('attachment');
    expect(await r.text()).toBe('alpha');
    const i = await t.req('GET', '/api/raw/docs/a.txt?inline=true', { headers: cookie(token) });
    expect(i.headers.get('content-disposition')).toStartWith('inline');
    const part = await t.req('GET', '/api/raw/docs/a.txt', { headers: { ...cookie(token), Range: 'bytes=1-2' } });
    expect([part.status, await part.text()]).toEqual([206, 'lp']);
    expect((await t.req('GET', `/api/raw/docs/a.txt?auth=${token}`)).status).toBe(200); // clients before v2.44.2
    expect((await t.req('GET', '/api/raw/docs/a.txt')).status).toBe(401);
  });

  test('several files: /api/raw/?files=<encoded list>&algo=…, every format of the download prompt', async () => {
    const token = await seeded();
    const files = encodeURIComponent(['/docs/a.txt', '/docs/sub'].join(','));
    const zip = await t.req('GET', `/api/raw/?files=${files}&algo=zip`, { headers: cookie(token) });
    expect(zip.status).toBe(200);
    expect(zip.headers.get('content-disposition')).toContain("_docs.zip");
    expect([...new Uint8Array(await zip.arrayBuffer()).slice(0, 2)]).toEqual([0x50, 0x4b]);
    for (const [algo, ext] of [['tar', '.tar'], ['targz', '.tar.gz'], ['tarbz2', '.tar.bz2'], ['tarxz', '.tar.xz'], ['tarlz4', '.tar.lz4'], ['tarsz', '.tar.sz'], ['tarbr', '.tar.br'], ['tarzst', '.tar.zst']]) {
      const r = await t.req('GET', `/api/raw/docs/sub/?algo=${algo}`, { headers: cookie(token) });
      expect([algo, r.status]).toEqual([algo, 200]);
      expect(r.headers.get('content-disposition')).toContain(`sub${ext}`);
      await r.arrayBuffer();
    }
  });

  test('thumbnail and big preview: GET /api/preview/{size}/{path}?inline=true&key=…', async () => {
    const token = await seeded();
    // a 1×1 PNG
    writeFileSync(join(t.root, 'docs/p.png'), Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC', 'base64'));
    for (const size of ['thumb', 'big']) {
      const r = await t.req('GET', `/api/preview/${size}/docs/p.png?inline=true&key=1700000000000`, { headers: cookie(token) });
      expect([size, r.status]).toEqual([size, 200]);
      expect(r.headers.get('content-type')).toStartWith('image/');
      await r.arrayBuffer();
    }
    expect((await t.req('GET', '/api/preview/huge/docs/p.png', { headers: cookie(token) })).status).toBe(400);
  });

  test('search streams one {dir, path} per line, paths relative to the folder searched', async () => {
    const token = await seeded();
    const r = await t.req('GET', `/api/search/docs/?query=${encodeURIComponent('b')}`, { headers: xauth(token) });
    expect(r.status).toBe(200);
    const lines = (await r.text()).split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l));
    expect(lines).toContainEqual({ dir: false, path: 'sub/b.txt' });
    expect(lines.every((l) => typeof l.dir === 'boolean' && !l.path.startsWith('/'))).toBe(true);
  });
});

describe('shares', () => {
  test('share dialog: list of a path (empty), create with "{}", list again, create with password and expiry, delete', async () => {
    const token = await seeded();
    const empty = await t.req('GET', '/api/share/docs/', { headers: xauth(token) });
    expect([empty.status, await empty.json()]).toEqual([200, []]);
    const r = await t.req('POST', '/api/share/docs/', { headers: xauth(token), body: '{}' });
    expect(r.status).toBe(200);
    const s = await r.json();
    expect(copy(s)).toMatchObject({ hash: expect.stringMatching(/^[A-Za-z0-9_-]{8,}$/), expire: 0, hasPassword: false, userID: 1 });
    expect(s.token).toBeUndefined();
    const listed = await (await t.req('GET', '/api/share/docs/', { headers: xauth(token) })).json();
    expect(listed.map((x: { hash: string }) => x.hash)).toEqual([s.hash]);
    const timed = await t.req('POST', '/api/share/docs/a.txt?expires=2&unit=days', { headers: xauth(token), body: JSON.stringify({ password: 'pw', expires: '2', unit: 'days' }) });
    const ts = await timed.json();
    expect(copy(ts)).toMatchObject({ hasPassword: true });
    expect(Math.abs(ts.expire - (Math.floor(Date.now() / 1000) + 2 * 86400))).toBeLessThan(5);
    const all = await (await t.req('GET', '/api/shares', { headers: xauth(token) })).json();
    expect(all).toHaveLength(2);
    const del = await t.req('DELETE', `/api/share/${s.hash}`, { headers: xauth(token) });
    expect([del.status, await del.text()]).toEqual([200, '200 OK\n']);
  });

  test('public folder share page: listing with an empty X-SHARE-PASSWORD, subfolder named after the share, downloads', async () => {
    const token = await seeded();
    const { hash } = await (await t.req('POST', '/api/share/docs/', { headers: xauth(token), body: '{}' })).json();
    const pub = (path: string) => t.req('GET', `/api/public/share/${hash}${path}`, { headers: { 'X-SHARE-PASSWORD': '' } });
    const root = await pub('');
    expect(root.status).toBe(200);
    const d = await root.json();
    expect(copy(d)).toMatchObject({ isDir: true, name: 'docs', path: '/' });
    expect(d.items.map((i: { path: string }) => i.path)).toEqual(['/sub', '/a.txt', '/table.csv']);
    expect(d.token).toBeUndefined();
    expect(await (await pub('/sub')).json()).toMatchObject({ name: 'docs', path: '/sub', isDir: true });
    // one selected file: the client encodes the whole share-relative path, slashes included
    const one = await t.req('GET', `/api/public/dl/${hash}${encodeURIComponent('/sub/b.txt')}?`);
    expect([one.status, await one.text()]).toEqual([200, 'beta']);
    // the file link of the item view
    const inline = await t.req('GET', `/api/public/dl/${hash}/a.txt?inline=true`);
    expect(inline.headers.get('content-disposition')).toStartWith('inline');
    // several: each path encoded, the list encoded again
    const files = encodeURIComponent(['/a.txt', '/sub'].map(encodeURIComponent).join(','));
    const zip = await t.req('GET', `/api/public/dl/${hash}/?files=${files}&algo=zip&`);
    expect(zip.status).toBe(200);
    expect([...new Uint8Array(await zip.arrayBuffer()).slice(0, 2)]).toEqual([0x50, 0x4b]);
    const whole = await t.req('GET', `/api/public/dl/${hash}?algo=targz&`);
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-disposition')).toContain('docs.tar.gz');
    await whole.arrayBuffer();
  });

  test('password-protected share: 401 opens the password card, the encoded password answers with a token for links', async () => {
    const token = await seeded();
    const { hash } = await (await t.req('POST', '/api/share/docs/a.txt', { headers: xauth(token), body: JSON.stringify({ password: 'päss wörd', expires: '', unit: 'hours' }) })).json();
    expect((await t.req('GET', `/api/public/share/${hash}`, { headers: { 'X-SHARE-PASSWORD': '' } })).status).toBe(401);
    expect((await t.req('GET', `/api/public/share/${hash}`, { headers: { 'X-SHARE-PASSWORD': encodeURIComponent('wrong') } })).status).toBe(401);
    const ok = await t.req('GET', `/api/public/share/${hash}`, { headers: { 'X-SHARE-PASSWORD': encodeURIComponent('päss wörd') } });
    expect(ok.status).toBe(200);
    const f = await ok.json();
    expect(copy(f)).toMatchObject({ isDir: false, name: 'a.txt', token: expect.stringMatching(/^[A-Za-z0-9_-]{128}$/) });
    expect(f.content).toBeUndefined();
    const dl = await t.req('GET', `/api/public/dl/${hash}/a.txt?inline=true&token=${f.token}`);
    expect([dl.status, await dl.text()]).toEqual([200, 'alpha']);
    expect((await t.req('GET', `/api/public/dl/${hash}/a.txt`)).status).toBe(401);
  });
});

describe('users and settings', () => {
  test('admin user editor: list, new user (201 + Location), edit with ["all"], delete', async () => {
    const token = await seeded();
    const list = await (await t.req('GET', '/api/users', { headers: xauth(token) })).json();
    expect(copy(list[0])).toMatchObject({ id: 1, username: 'admin', password: '' });
    const settings = await (await t.req('GET', '/api/settings', { headers: xauth(token) })).json();
    // the "new user" form: the defaults, blank name and password, id 0
    const data = { ...settings.defaults, username: 'carol', password: 'carols-long-password-1', rules: [], lockPassword: false, id: 0 };
    const c = await t.req('POST', '/api/users', { headers: xauth(token), body: { what: 'user', which: [], current_password: ADMIN_PASSWORD, data } });
    expect(c.status).toBe(201);
    const location = c.headers.get('location')!;
    expect(location).toMatch(/^\/settings\/users\/\d+$/);
    const id = Number(location.split('/').pop());
    const carol = await (await t.req('GET', `/api/users/${id}`, { headers: xauth(token) })).json();
    expect(copy(carol)).toMatchObject({ id, username: 'carol', password: '', perm: expect.any(Object), sorting: expect.any(Object), rules: [] });
    const e = await t.req('PUT', `/api/users/${id}`, { headers: xauth(token), body: { what: 'user', which: ['all'], current_password: ADMIN_PASSWORD, data: { ...carol, locale: 'de', perm: { ...carol.perm, delete: false } } } });
    expect([e.status, await e.text()]).toEqual([200, '200 OK\n']);
    expect((await t.login('carol', 'carols-long-password-1')).split('.')).toHaveLength(3); // empty password kept the old one
    const d = await t.req('DELETE', `/api/users/${id}`, { headers: xauth(token), body: { current_password: ADMIN_PASSWORD } });
    expect(d.status).toBe(200);
    expect((await t.req('GET', `/api/users/${id}`, { headers: xauth(token) })).status).toBe(404);
    const last = await t.req('DELETE', '/api/users/1', { headers: xauth(token), body: { current_password: ADMIN_PASSWORD } });
    expect(last.status).toBe(403); // the client shows its "forbidden" message
  });

  test('new user with "create home directory" ticked: the form blanks the scope and the server derives the home', async () => {
    const token = await seeded({}, { createUserDir: true });
    const settings = await (await t.req('GET', '/api/settings', { headers: xauth(token) })).json();
    const data = { ...settings.defaults, scope: '', username: 'dave', password: 'daves-long-password-1', rules: [], lockPassword: false, id: 0 };
    const c = await t.req('POST', '/api/users', { headers: xauth(token), body: { what: 'user', which: [], current_password: ADMIN_PASSWORD, data } });
    expect(c.status).toBe(201);
    const id = Number(c.headers.get('location')!.split('/').pop());
    expect((await (await t.req('GET', `/api/users/${id}`, { headers: xauth(token) })).json()).scope).toBe('/users/dave');
    expect(existsSync(join(t.root, 'users/dave'))).toBe(true);
  });

  test('profile page, listing sort and view mode, password change: the `which` field groups the client sends', async () => {
    await seeded();
    const bob = await t.userToken('bob', {}, { scope: '/docs' });
    const me = await (await t.req('GET', '/api/users/2', { headers: xauth(bob) })).json();
    expect(me.scope).toBe(''); // a user reading themselves does not see their scope
    const put = (which: string[], data: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
      t.req('PUT', '/api/users/2', { headers: xauth(bob), body: { what: 'user', which, data: { ...me, ...data }, ...extra } });
    expect((await put(['locale', 'hideDotfiles', 'singleClick', 'redirectAfterCopyMove', 'dateFormat', 'aceEditorTheme'], { locale: 'pt-br', singleClick: true })).status).toBe(200);
    expect((await put(['sorting'], { sorting: { by: 'size', asc: true } })).status).toBe(200);
    expect((await put(['viewMode'], { viewMode: 'list' })).status).toBe(200);
    const after = await (await t.req('GET', '/api/users/2', { headers: xauth(bob) })).json();
    expect(copy(after)).toMatchObject({ locale: 'pt-br', singleClick: true, sorting: { by: 'size', asc: true }, viewMode: 'list' });
    const listing = await (await t.req('GET', '/api/resources/', { headers: xauth(bob) })).json();
    expect(listing.sorting).toEqual({ by: 'size', asc: true });
    expect((await put(['password'], { password: 'bobs-new-long-password-2' })).status).toBe(400); // current_password required
    expect((await put(['password'], { password: 'bobs-new-long-password-2' }, { current_password: USER_PASSWORD })).status).toBe(200);
    expect((await put(['perm'], { perm: { ...me.perm, admin: true } }, { current_password: 'bobs-new-long-password-2' })).status).toBe(403);
  });

  test('global settings: GET shape, PUT of the same object back (with the read-only fields) is 200 and applies', async () => {
    const token = await seeded();
    const s = await (await t.req('GET', '/api/settings', { headers: xauth(token) })).json();
    for (const k of ['signup', 'createUserDir', 'userHomeBasePath', 'defaults', 'rules', 'branding', 'tus', 'shell', 'commands']) expect(s).toHaveProperty(k);
    expect(copy(s.tus)).toMatchObject({ chunkSize: expect.any(Number), retryCount: expect.any(Number) });
    expect(s.key).toBeUndefined();
    const r = await t.req('PUT', '/api/settings', { headers: xauth(token), body: { ...s, signup: true, branding: { ...s.branding, name: 'Deck' } } });
    expect([r.status, await r.text()]).toEqual([200, '200 OK\n']);
    expect(await (await t.req('GET', '/api/settings', { headers: xauth(token) })).json()).toMatchObject({ signup: true, branding: { name: 'Deck' } });
    const bob = await t.userToken('bob');
    expect((await t.req('GET', '/api/settings', { headers: xauth(bob) })).status).toBe(403);
  });
});

describe('envelope', () => {
  test('errors are "<code> <Status Text>\\n" text; unknown API paths are 404; /health', async () => {
    const token = await seeded();
    const r = await t.req('GET', '/api/resources/missing.txt', { headers: xauth(token) });
    expect(r.status).toBe(404);
    expect(r.headers.get('content-type')).toStartWith('text/plain');
    expect(await r.text()).toBe('404 Not Found\n');
    expect((await t.req('GET', '/api/nothing-here', { headers: xauth(token) })).status).toBe(404);
    expect((await t.req('GET', '/api/resources/')).status).toBe(401);
    expect(await (await t.req('GET', '/health')).json()).toEqual({ status: 'OK' });
  });

  test('under a base URL every call is prefixed; the bare prefix redirects to itself with a slash', async () => {
    t = await makeTestApp({ baseURL: '/fb' });
    const token = await t.login('admin', ADMIN_PASSWORD).catch(async () => (await t.app.handle(new Request('http://localhost/fb/api/login', { method: 'POST', body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }) }))).text());
    expect(token.split('.')).toHaveLength(3);
    const r = await t.app.handle(new Request('http://localhost/fb/api/resources/', { headers: xauth(token) }));
    expect(r.status).toBe(200);
    const bare = await t.app.handle(new Request('http://localhost/fb'));
    expect([bare.status, bare.headers.get('location')]).toEqual([301, '/fb/']);
  });

  test('behind a proxy that strips the base URL (or a script that omits it) the bare paths reach the same routes', async () => {
    t = await makeTestApp({ baseURL: '/fb' });
    mkdirSync(join(t.root, 'docs'));
    writeFileSync(join(t.root, 'docs/a b.txt'), 'x');
    const server = listenHttp(t.app as never, { hostname: '127.0.0.1', port: 0, log: silentLogger, baseURL: '/fb' });
    try {
      const origin = `http://127.0.0.1:${server.port}`;
      const login = await fetch(`${origin}/api/login`, { method: 'POST', body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }) });
      expect(login.status).toBe(200);
      const token = await login.text();
      for (const prefix of ['/fb', '']) {
        const r = await fetch(`${origin}${prefix}/api/resources/docs/a%20b.txt?checksum=md5`, { headers: xauth(token) });
        expect([prefix, r.status]).toEqual([prefix, 200]);
        expect((await r.json()).checksums.md5).toBe(new Bun.CryptoHasher('md5').update('x').digest('hex'));
      }
      expect((await fetch(`${origin}/api/resources/docs/`)).status).toBe(401); // same authentication either way
      const bare = await fetch(`${origin}/fb`, { redirect: 'manual' });
      expect([bare.status, bare.headers.get('location')]).toEqual([301, '/fb/']);
    } finally {
      server.stop(true);
    }
  });
});
