import { afterEach, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { systemActor } from '../../server/services/actor';
import { makeTestApp, USER_PASSWORD, type TestApp } from '../helpers/test-app';
import { runScenarios, type ScenarioValues } from '../helpers/scenario';

/** HTTP Basic for a username and password (or an API token as the password). */
const basic = (user: string, password: string) => ({ Authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` });
const asBob = () => basic('bob', USER_PASSWORD);
const PROPFIND_ALL = '<?xml version="1.0"?><D:propfind xmlns:D="DAV:"><D:allprop/></D:propfind>';
const propfindOf = (...props: string[]) => `<?xml version="1.0"?><D:propfind xmlns:D="DAV:"><D:prop>${props.join('')}</D:prop></D:propfind>`;
const proppatch = (set: string, remove = '') =>
  `<?xml version="1.0"?><D:propertyupdate xmlns:D="DAV:" xmlns:Z="urn:z"><D:set><D:prop>${set}</D:prop></D:set>${remove ? `<D:remove><D:prop>${remove}</D:prop></D:remove>` : ''}</D:propertyupdate>`;

/**
 * bob: scope /bob, every file permission, a user rule denying /secret. His scope holds docs/a.txt, docs/b.txt,
 * secret/s.txt; outside it /other/o.txt. The values: an API token of bob's limited to /docs ('docsToken').
 */
async function setup(t: TestApp): Promise<ScenarioValues> {
  const session = await t.userToken('bob', { create: true, rename: true, modify: true, delete: true, download: true, share: true }, { scope: '/bob', rules: [{ allow: false, regex: false, path: '/secret', regexp: null }] });
  const bob = join(t.root, 'bob');
  mkdirSync(join(bob, 'docs'), { recursive: true });
  mkdirSync(join(bob, 'secret'), { recursive: true });
  mkdirSync(join(t.root, 'other'), { recursive: true });
  writeFileSync(join(bob, 'docs', 'a.txt'), 'alpha');
  writeFileSync(join(bob, 'docs', 'b.txt'), 'bravo');
  writeFileSync(join(bob, 'secret', 's.txt'), 'hidden');
  writeFileSync(join(t.root, 'other', 'o.txt'), 'other');
  const r = await t.req('POST', '/api/account/tokens', { token: session, body: { name: 'docs', perm: ['create', 'rename', 'modify', 'delete', 'download'], path: '/docs' } });
  if (r.status !== 201) throw new Error(`token: ${r.status} ${await r.text()}`);
  return { session, docsToken: ((await r.json()) as { token: string }).token };
}

const bobAs = () => asBob();
const docsToken = (_t: TestApp, v: ScenarioValues) => basic('bob', v.docsToken!);
const same = { under: '', after: 'same' as const };
const dest = (p: string) => ({ Destination: `http://localhost/dav${p}` });

runScenarios('WebDAV methods', setup, [
  // Authentication
  { name: 'no credentials: 401 with the Basic challenge', as: 'anon', method: 'PROPFIND', url: '/dav/', headers: { Depth: '0' }, status: 401, responseHeaders: { 'www-authenticate': 'Basic realm="Filedeck", charset="UTF-8"' } },
  { name: 'a wrong password: 401', as: () => basic('bob', 'wrong-password-123'), method: 'PROPFIND', url: '/dav/', headers: { Depth: '0' }, status: 401 },
  { name: 'a session token is not a WebDAV credential', as: 'session', method: 'PROPFIND', url: '/dav/', headers: { Depth: '0' }, status: 401 },
  { name: 'no challenge under /api/', as: 'anon', method: 'GET', url: '/api/resources/', status: 401, responseHeaders: { 'www-authenticate': null } },
  { name: 'OPTIONS: DAV 1, 2 and Allow', as: bobAs, method: 'OPTIONS', url: '/dav/', status: 200, responseHeaders: { dav: '1, 2', allow: /PROPFIND.*PROPPATCH/ } },
  // PROPFIND
  { name: 'PROPFIND depth 1 lists what bob may see', as: bobAs, method: 'PROPFIND', url: '/dav/', headers: { Depth: '1' }, raw: PROPFIND_ALL, status: 207, contains: ['<D:href>/dav/</D:href>', '<D:href>/dav/docs/</D:href>', '<D:collection/>'], excludes: ['secret', 'other'] },
  { name: 'PROPFIND depth 0 of a file: live properties', as: bobAs, method: 'PROPFIND', url: '/dav/docs/a.txt', headers: { Depth: '0' }, status: 207, contains: ['<D:getcontentlength>5</D:getcontentlength>', '<D:getcontenttype>text/plain</D:getcontenttype>', '<D:getetag>W/&quot;5-', '<D:displayname>a.txt</D:displayname>'] },
  { name: 'PROPFIND propname', as: bobAs, method: 'PROPFIND', url: '/dav/docs/a.txt', headers: { Depth: '0' }, raw: '<D:propfind xmlns:D="DAV:"><D:propname/></D:propfind>', status: 207, contains: ['<D:getetag/>', '<D:resourcetype/>'] },
  { name: 'PROPFIND of a missing property: 404 propstat', as: bobAs, method: 'PROPFIND', url: '/dav/docs/a.txt', headers: { Depth: '0' }, raw: propfindOf('<Z:nope xmlns:Z="urn:z"/>'), status: 207, contains: ['HTTP/1.1 404 Not Found', 'nope'] },
  { name: 'PROPFIND quota properties', as: bobAs, method: 'PROPFIND', url: '/dav/', headers: { Depth: '0' }, raw: propfindOf('<D:quota-used-bytes/>', '<D:quota-available-bytes/>'), status: 207, contains: ['<D:quota-used-bytes>', '<D:quota-available-bytes>'] },
  { name: 'PROPFIND Win32FileAttributes', as: bobAs, method: 'PROPFIND', url: '/dav/docs/', headers: { Depth: '0' }, raw: propfindOf('<M:Win32FileAttributes xmlns:M="urn:schemas-microsoft-com:"/>'), status: 207, contains: ['00000010'] },
  { name: 'PROPFIND depth infinity: 403 propfind-finite-depth', as: bobAs, method: 'PROPFIND', url: '/dav/', headers: { Depth: 'infinity' }, status: 403, contains: 'propfind-finite-depth' },
  { name: 'PROPFIND without Depth is infinity', as: bobAs, method: 'PROPFIND', url: '/dav/', status: 403 },
  { name: 'PROPFIND a DOCTYPE is refused', as: bobAs, method: 'PROPFIND', url: '/dav/', headers: { Depth: '0' }, raw: '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaa">]><D:propfind xmlns:D="DAV:"><D:allprop/></D:propfind>', status: 400 },
  { name: 'PROPFIND malformed XML', as: bobAs, method: 'PROPFIND', url: '/dav/', headers: { Depth: '0' }, raw: '<D:propfind xmlns:D="DAV:"><D:allprop>', status: 400 },
  { name: 'PROPFIND of a denied folder: 403', as: bobAs, method: 'PROPFIND', url: '/dav/secret/', headers: { Depth: '0' }, status: 403 },
  { name: 'PROPFIND missing: 404', as: bobAs, method: 'PROPFIND', url: '/dav/nope/', headers: { Depth: '0' }, status: 404 },
  // The URL's dot segments are resolved before routing: this one leaves /dav/ and reaches no WebDAV route.
  { name: 'PROPFIND ../ out of the scope', as: bobAs, method: 'PROPFIND', url: '/dav/docs/%2e%2e/%2e%2e/other/', headers: { Depth: '0' }, status: 404 },
  // GET / HEAD
  { name: 'GET a file', as: bobAs, method: 'GET', url: '/dav/docs/a.txt', status: 200, contains: 'alpha', responseHeaders: { etag: /^W\/"5-/, 'last-modified': /GMT$/ } },
  { name: 'GET a range', as: bobAs, method: 'GET', url: '/dav/docs/a.txt', headers: { Range: 'bytes=1-2' }, status: 206, contains: 'lp' },
  { name: 'GET a denied file: 403', as: bobAs, method: 'GET', url: '/dav/secret/s.txt', status: 403 },
  { name: 'GET a collection: 405', as: bobAs, method: 'GET', url: '/dav/docs/', status: 405 },
  { name: 'HEAD a file', as: bobAs, method: 'HEAD', url: '/dav/docs/a.txt', status: 200, responseHeaders: { 'content-length': '5' } },
  // PUT
  { name: 'PUT a new file: 201', as: bobAs, method: 'PUT', url: '/dav/docs/new.txt', raw: 'fresh', status: 201, after: (t) => expect(readFileSync(join(t.root, 'bob/docs/new.txt'), 'utf8')).toBe('fresh') },
  { name: 'PUT over a file: 204', as: bobAs, method: 'PUT', url: '/dav/docs/a.txt', raw: 'changed', status: 204, after: (t) => expect(readFileSync(join(t.root, 'bob/docs/a.txt'), 'utf8')).toBe('changed') },
  { name: 'PUT without a parent: 409', as: bobAs, method: 'PUT', url: '/dav/nope/x.txt', raw: 'x', status: 409, disk: same },
  { name: 'PUT on a collection: 405', as: bobAs, method: 'PUT', url: '/dav/docs', raw: 'x', status: 405, disk: same },
  { name: 'PUT under a denied folder: 403', as: bobAs, method: 'PUT', url: '/dav/secret/x.txt', raw: 'x', status: 403, disk: same },
  { name: 'PUT a reserved name: refused', as: bobAs, method: 'PUT', url: '/dav/docs/.filedeck-x', raw: 'x', status: 400, disk: same },
  { name: 'PUT with X-OC-Mtime sets the time', as: bobAs, method: 'PUT', url: '/dav/docs/m.txt', raw: 'm', headers: { 'X-OC-Mtime': '1000000000' }, status: 201, after: (t) => expect(statSync(join(t.root, 'bob/docs/m.txt')).mtimeMs).toBe(1e12) },
  { name: 'PUT a macOS ._ file is dropped', as: bobAs, method: 'PUT', url: '/dav/docs/._a.txt', raw: 'apple', status: 201, disk: same },
  { name: 'GET a macOS ._ file: 404', as: bobAs, method: 'GET', url: '/dav/docs/._a.txt', before: (t) => writeFileSync(join(t.root, 'bob/docs/._a.txt'), 'x'), status: 404 },
  // MKCOL
  { name: 'MKCOL: 201', as: bobAs, method: 'MKCOL', url: '/dav/new/', status: 201, after: (t) => expect(statSync(join(t.root, 'bob/new')).isDirectory()).toBe(true) },
  { name: 'MKCOL existing: 405', as: bobAs, method: 'MKCOL', url: '/dav/docs/', status: 405, disk: same },
  { name: 'MKCOL without a parent: 409', as: bobAs, method: 'MKCOL', url: '/dav/a/b/', status: 409, disk: same },
  { name: 'MKCOL with a body: 415', as: bobAs, method: 'MKCOL', url: '/dav/c/', raw: '<x/>', status: 415, disk: same },
  { name: 'MKCOL in a denied folder: 403', as: bobAs, method: 'MKCOL', url: '/dav/secret/x/', status: 403, disk: same },
  // DELETE
  { name: 'DELETE a file: 204, into the trash', as: bobAs, method: 'DELETE', url: '/dav/docs/a.txt', status: 204, after: async (t, _r, _x, _b, v) => {
    expect(existsSync(join(t.root, 'bob/docs/a.txt'))).toBe(false);
    const trash = await (await t.req('GET', '/api/trash', { token: v.session })).text();
    expect(trash).toContain('a.txt');
  } },
  { name: 'DELETE a denied folder: 403', as: bobAs, method: 'DELETE', url: '/dav/secret/', status: 403, disk: same },
  { name: 'DELETE missing: 404', as: bobAs, method: 'DELETE', url: '/dav/nope', status: 404, disk: same },
  { name: 'DELETE a collection with Depth 0: 400', as: bobAs, method: 'DELETE', url: '/dav/docs/', headers: { Depth: '0' }, status: 400, disk: same },
  // COPY / MOVE
  { name: 'COPY a file: 201', as: bobAs, method: 'COPY', url: '/dav/docs/a.txt', headers: dest('/docs/c.txt'), status: 201, after: (t) => expect(readFileSync(join(t.root, 'bob/docs/c.txt'), 'utf8')).toBe('alpha') },
  { name: 'COPY over with Overwrite F: 412', as: bobAs, method: 'COPY', url: '/dav/docs/a.txt', headers: { ...dest('/docs/b.txt'), Overwrite: 'F' }, status: 412, disk: same },
  { name: 'COPY over with Overwrite T: 204', as: bobAs, method: 'COPY', url: '/dav/docs/a.txt', headers: dest('/docs/b.txt'), status: 204, after: (t) => expect(readFileSync(join(t.root, 'bob/docs/b.txt'), 'utf8')).toBe('alpha') },
  { name: 'MOVE a folder: 201', as: bobAs, method: 'MOVE', url: '/dav/docs/', headers: dest('/moved/'), status: 201, after: (t) => expect(readFileSync(join(t.root, 'bob/moved/a.txt'), 'utf8')).toBe('alpha') },
  { name: 'MOVE into a denied folder: 403', as: bobAs, method: 'MOVE', url: '/dav/docs/a.txt', headers: dest('/secret/a.txt'), status: 403, disk: same },
  { name: 'MOVE with Destination on another host: 403', as: bobAs, method: 'MOVE', url: '/dav/docs/a.txt', headers: { Destination: 'http://evil.example/dav/x.txt' }, status: 403, disk: same },
  { name: 'MOVE with Destination outside /dav/: 403', as: bobAs, method: 'MOVE', url: '/dav/docs/a.txt', headers: { Destination: '/api/resources/x.txt' }, status: 403, disk: same },
  { name: 'MOVE with an encoded .. in Destination: 400', as: bobAs, method: 'MOVE', url: '/dav/docs/a.txt', headers: { Destination: '/dav/docs/%2e%2e/%2e%2e/other/x.txt' }, status: 400, disk: same },
  { name: 'MOVE with a literal .. in Destination: refused', as: bobAs, method: 'MOVE', url: '/dav/docs/a.txt', headers: { Destination: '/dav/docs/../../other/x.txt' }, status: 400, disk: same },
  { name: 'MOVE to a reserved name: refused', as: bobAs, method: 'MOVE', url: '/dav/docs/a.txt', headers: dest('/docs/.filedeck-x'), status: 400, disk: same },
  { name: 'MOVE without a parent: 409', as: bobAs, method: 'MOVE', url: '/dav/docs/a.txt', headers: dest('/none/a.txt'), status: 409, disk: same },
  { name: 'COPY of a collection with Depth 0: only the collection', as: bobAs, method: 'COPY', url: '/dav/docs/', headers: { ...dest('/empty/'), Depth: '0' }, status: 201, after: (t) => expect(existsSync(join(t.root, 'bob/empty/a.txt'))).toBe(false) },
  // A token limited to /docs
  { name: 'token with a folder: lists its folder', as: docsToken, method: 'PROPFIND', url: '/dav/docs/', headers: { Depth: '1' }, status: 207, contains: 'a.txt' },
  { name: 'token with a folder: nothing outside it', as: docsToken, method: 'PUT', url: '/dav/x.txt', raw: 'x', status: 403, disk: same },
  { name: 'token with a folder: MOVE out of it refused', as: docsToken, method: 'MOVE', url: '/dav/docs/a.txt', headers: dest('/a.txt'), status: 403, disk: same },
  { name: 'token with a folder: the username must be its owner', as: (_t, v) => basic('admin', v.docsToken!), method: 'PROPFIND', url: '/dav/docs/', headers: { Depth: '0' }, status: 401 },
]);

describe('WebDAV flows', () => {
  let t: TestApp;
  afterEach(() => t?.close());
  const dav = (method: string, path: string, init: { headers?: Record<string, string>; raw?: string } = {}) => t.req(method, `/dav${path}`, { headers: { ...asBob(), ...init.headers }, raw: init.raw });

  test('dead properties: set, read, follow MOVE, copied by COPY, gone with DELETE; all or nothing with protected ones', async () => {
    t = await makeTestApp();
    await setup(t);
    const set = await dav('PROPPATCH', '/docs/a.txt', { raw: proppatch('<Z:color xml:lang="en">blue <Z:b>bold</Z:b></Z:color>') });
    expect(set.status).toBe(207);
    expect(await set.text()).toContain('HTTP/1.1 200 OK');
    const read = async (p: string) => (await dav('PROPFIND', p, { headers: { Depth: '0' }, raw: propfindOf('<Z:color xmlns:Z="urn:z"/>') })).text();
    expect(await read('/docs/a.txt')).toContain('>blue <');
    // A protected live property fails the whole request: 403 for it, 424 for the rest, nothing stored.
    const bad = await (await dav('PROPPATCH', '/docs/a.txt', { raw: proppatch('<Z:size>1</Z:size><D:getetag>x</D:getetag>') })).text();
    expect(bad).toContain('HTTP/1.1 403 Forbidden');
    expect(bad).toContain('cannot-modify-protected-property');
    expect(bad).toContain('HTTP/1.1 424 Failed Dependency');
    expect(await read('/docs/a.txt')).toContain('>blue <');
    expect((await dav('MOVE', '/docs/a.txt', { headers: dest('/docs/moved.txt') })).status).toBe(201);
    expect(await read('/docs/moved.txt')).toContain('>blue <');
    expect(await read('/docs/a.txt')).not.toContain('blue');
    expect((await dav('COPY', '/docs/', { headers: dest('/copy/') })).status).toBe(201);
    expect(await read('/copy/moved.txt')).toContain('>blue <');
    expect(await read('/docs/moved.txt')).toContain('>blue <');
    expect((await dav('DELETE', '/docs/moved.txt')).status).toBe(204);
    expect((await dav('PUT', '/docs/moved.txt', { raw: 'new' })).status).toBe(201);
    expect(await read('/docs/moved.txt')).not.toContain('blue');
    // A move through the web API moves them too (the files service's followers).
    const session = await t.login('bob', USER_PASSWORD);
    expect((await t.req('PATCH', `/api/resources/copy/moved.txt?action=rename&destination=${encodeURIComponent('/copy/web.txt')}`, { token: session })).status).toBe(200);
    expect(await read('/copy/web.txt')).toContain('>blue <');
  });

  test('dead properties go into the trash with their item: a new item at its name starts bare, a restore brings them back, an empty drops them', async () => {
    t = await makeTestApp();
    await setup(t);
    const read = async (p: string) => (await dav('PROPFIND', p, { headers: { Depth: '0' }, raw: propfindOf('<Z:color xmlns:Z="urn:z"/>') })).text();
    expect((await dav('PROPPATCH', '/docs/a.txt', { raw: proppatch('<Z:color>blue</Z:color>') })).status).toBe(207);
    // Deleted through the web API (the same delete sequence as WebDAV's DELETE).
    const session = await t.login('bob', USER_PASSWORD);
    expect((await t.req('DELETE', '/api/resources/docs/a.txt', { token: session })).status).toBe(204);
    expect((await dav('PUT', '/docs/a.txt', { raw: 'another file' })).status).toBe(201);
    expect(await read('/docs/a.txt')).not.toContain('blue');
    expect((await dav('DELETE', '/docs/a.txt')).status).toBe(204);
    const { items } = (await (await t.req('GET', '/api/trash', { token: session })).json()) as { items: { id: string; deletedAt: number }[] };
    const first = items.sort((x, y) => x.deletedAt - y.deletedAt)[0]!;
    expect((await t.req('POST', `/api/trash/${first.id}/restore`, { token: session })).status).toBe(200);
    expect(await read('/docs/a.txt')).toContain('>blue<');
    // The second item (a.txt of 'another file') goes for good: no property row of any trash item is left behind.
    const rows = async () => (await t.s.db.all<{ path: string }>('SELECT path FROM dav_props')).map((r) => r.path);
    expect((await dav('PROPPATCH', '/docs/none.txt', { raw: proppatch('<Z:color>red</Z:color>') })).status).toBe(404);
    expect((await dav('PROPPATCH', '/docs/b.txt', { raw: proppatch('<Z:color>red</Z:color>') })).status).toBe(207);
    expect((await dav('DELETE', '/docs/b.txt')).status).toBe(204);
    expect((await rows()).filter((p) => p.startsWith('.filedeck-trash/'))).toHaveLength(1);
    expect((await t.req('DELETE', '/api/trash', { token: session })).status).toBe(200);
    expect(await rows()).toEqual(['bob/docs/a.txt']);
  });

  test('Win32 times: stored and the modification time applied to the file', async () => {
    t = await makeTestApp();
    await setup(t);
    const when = 'Wed, 01 Jan 2020 10:00:00 GMT';
    const r = await dav('PROPPATCH', '/docs/a.txt', { raw: `<D:propertyupdate xmlns:D="DAV:" xmlns:M="urn:schemas-microsoft-com:"><D:set><D:prop><M:Win32LastModifiedTime>${when}</M:Win32LastModifiedTime><M:Win32FileAttributes>00000020</M:Win32FileAttributes></D:prop></D:set></D:propertyupdate>` });
    expect(await r.text()).toContain('200 OK');
    expect(statSync(join(t.root, 'bob/docs/a.txt')).mtimeMs).toBe(Date.parse(when));
    const pf = await (await dav('PROPFIND', '/docs/a.txt', { headers: { Depth: '0' }, raw: PROPFIND_ALL })).text();
    expect(pf).toContain(`<D:getlastmodified>${when}</D:getlastmodified>`);
    expect(pf).toContain('Win32LastModifiedTime');
    const bad = await dav('PROPPATCH', '/docs/a.txt', { raw: '<D:propertyupdate xmlns:D="DAV:" xmlns:M="urn:schemas-microsoft-com:"><D:set><D:prop><M:Win32LastModifiedTime>not a date</M:Win32LastModifiedTime></D:prop></D:set></D:propertyupdate>' });
    expect(await bad.text()).toContain('409');
  });

  test('PUT over a file keeps a version; the ETag of PROPFIND is the one of GET', async () => {
    t = await makeTestApp();
    const { session } = await setup(t);
    expect((await dav('PUT', '/docs/a.txt', { raw: 'second' })).status).toBe(204);
    const versions = (await (await t.req('GET', '/api/versions/docs/a.txt', { token: session })).json()) as unknown[];
    expect(versions.length).toBe(1);
    const etag = (await dav('GET', '/docs/a.txt')).headers.get('etag')!;
    const pf = await (await dav('PROPFIND', '/docs/a.txt', { headers: { Depth: '0' }, raw: propfindOf('<D:getetag/>') })).text();
    expect(pf).toContain(etag.replace(/"/g, '&quot;'));
  });

  test('a full quota: PUT 507 and the old file intact', async () => {
    t = await makeTestApp();
    await setup(t);
    const u = (await t.s.stores.users.byUsername('bob'))!;
    await t.s.users.update(systemActor, u.id, ['quota'], { quota: { bytes: 100, files: 0 } });
    const r = await dav('PUT', '/docs/a.txt', { raw: 'x'.repeat(5000) });
    expect(r.status).toBe(507);
    expect(readFileSync(join(t.root, 'bob/docs/a.txt'), 'utf8')).toBe('alpha');
    const q = await (await dav('PROPFIND', '/', { headers: { Depth: '0' }, raw: propfindOf('<D:quota-available-bytes/>') })).text();
    expect(q).toMatch(/<D:quota-available-bytes>\d+<\/D:quota-available-bytes>/);
  });

  test('macOS files kept when the switch says keep; PROPFIND hides them when it says ignore', async () => {
    t = await makeTestApp();
    await setup(t);
    writeFileSync(join(t.root, 'bob/docs/.DS_Store'), 'x');
    expect(await (await dav('PROPFIND', '/docs/', { headers: { Depth: '1' } })).text()).not.toContain('.DS_Store');
    await t.s.settings.update({ webdav: { enabled: true, allowPasswords: true, macMetadata: 'keep' } }, ['webdav']);
    expect(await (await dav('PROPFIND', '/docs/', { headers: { Depth: '1' } })).text()).toContain('.DS_Store');
    expect((await dav('PUT', '/docs/._b.txt', { raw: 'apple' })).status).toBe(201);
    expect(existsSync(join(t.root, 'bob/docs/._b.txt'))).toBe(true);
  });

  test('passwords: off by the switch, refused with a second factor, the user switch; tokens still work', async () => {
    t = await makeTestApp();
    const v = await setup(t);
    const token = basic('bob', v.docsToken!);
    const probe = (h: Record<string, string>, p = '/docs/') => t.req('PROPFIND', `/dav${p}`, { headers: { ...h, Depth: '0' } });
    expect((await probe(asBob())).status).toBe(207);
    await t.s.settings.update({ webdav: { enabled: true, allowPasswords: false, macMetadata: 'ignore' } }, ['webdav']);
    expect((await probe(asBob())).status).toBe(401);
    expect((await probe(token)).status).toBe(207);
    await t.s.settings.update({ webdav: { enabled: true, allowPasswords: true, macMetadata: 'ignore' }, twoFactor: { ...t.s.settings.get().twoFactor, required: true } }, ['webdav', 'twoFactor']);
    expect((await probe(asBob())).status).toBe(403);
    expect((await probe(token)).status).toBe(207);
    const u = (await t.s.stores.users.byUsername('bob'))!;
    await t.s.users.update(systemActor, u.id, ['webdav'], { webdav: false });
    expect((await probe(token)).status).toBe(403);
    await t.s.settings.update({ webdav: { enabled: false, allowPasswords: true, macMetadata: 'ignore' } }, ['webdav']);
    expect((await probe(token)).status).toBe(404);
  });

  test('a remembered password is forgotten when the user changes', async () => {
    t = await makeTestApp();
    await setup(t);
    expect((await dav('PROPFIND', '/', { headers: { Depth: '0' } })).status).toBe(207);
    const u = (await t.s.stores.users.byUsername('bob'))!;
    await t.s.users.update(systemActor, u.id, ['password'], { password: 'a-brand-new-password-99' });
    expect((await dav('PROPFIND', '/', { headers: { Depth: '0' } })).status).toBe(401);
  });

  test('PROPFIND of a 3,000-entry folder streams every entry', async () => {
    t = await makeTestApp();
    await setup(t);
    mkdirSync(join(t.root, 'bob/big'));
    for (let i = 0; i < 3000; i++) writeFileSync(join(t.root, 'bob/big', `f${i}.txt`), '');
    const r = await dav('PROPFIND', '/big/', { headers: { Depth: '1' }, raw: propfindOf('<D:getcontentlength/>') });
    expect(r.status).toBe(207);
    expect(r.headers.get('content-length')).toBeNull();
    const text = await r.text();
    expect(text.split('<D:response>').length - 1).toBe(3001);
  });
});
