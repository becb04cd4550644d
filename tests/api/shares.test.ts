import { afterEach, describe, expect, test } from 'bun:test';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runScenarios, type Scenario } from '../helpers/scenario';
import { ADMIN_PASSWORD, USER_PASSWORD, makeTestApp, type TestApp } from '../helpers/test-app';

const files = (t: TestApp) => {
  mkdirSync(join(t.root, 'bob/docs/sub'), { recursive: true });
  writeFileSync(join(t.root, 'bob/docs/a.txt'), 'alpha');
  writeFileSync(join(t.root, 'bob/docs/sub/b.txt'), 'beta');
  writeFileSync(join(t.root, 'bob/sibling.txt'), 'sibling secret');
  writeFileSync(join(t.root, 'bob/report.pdf'), '%PDF-1.4 report');
  mkdirSync(join(t.root, 'carol'), { recursive: true });
};
// bob: scope /bob, default permissions; noshare: scope /bob without share; carol: another user with her own share.
const setup = async (t: TestApp) => {
  files(t);
  const bob = await t.userToken('bob', {}, { scope: '/bob' });
  const noshare = await t.userToken('noshare', { share: false }, { scope: '/bob' });
  const carol = await t.userToken('carol', {}, { scope: '/carol' });
  writeFileSync(join(t.root, 'carol/c.txt'), 'c');
  await t.req('POST', '/api/share/c.txt', { token: carol, body: {} });
  return { bob, noshare, carol };
};
const carolShare = async (t: TestApp) => (await t.s.stores.shares.byUser(4))[0]!.hash;

describe('share API per role', () => {
  const rows: Scenario[] = [
    { name: 'user creates a permanent share of a folder', as: 'bob', method: 'POST', url: '/api/share/docs/', body: {}, status: 200, contains: ['"path":"/docs"', '"expire":0', '"hasPassword":false'], excludes: ['token', 'password_hash', 'passwordHash'] },
    { name: 'share with password and expiry hides the secret', as: 'bob', method: 'POST', url: '/api/share/a', body: { password: 'pw', expires: '2', unit: 'days' }, status: 404 },
    { name: 'expiry in days is counted from now', as: 'bob', method: 'POST', url: '/api/share/docs/a.txt', body: { password: 'pw', expires: '2', unit: 'days' }, status: 200, contains: '"hasPassword":true', excludes: ['$2', 'token'],
      after: (_t, _r, text) => void expect(Math.abs(JSON.parse(text).expire - (Math.floor(Date.now() / 1000) + 2 * 86400))).toBeLessThan(5) },
    { name: 'numeric expires and default unit hours', as: 'bob', method: 'POST', url: '/api/share/docs/a.txt', body: { expires: 3 }, status: 200,
      after: (_t, _r, text) => void expect(Math.abs(JSON.parse(text).expire - (Math.floor(Date.now() / 1000) + 3 * 3600))).toBeLessThan(5) },
    { name: 'unknown unit is 400', as: 'bob', method: 'POST', url: '/api/share/docs/a.txt', body: { expires: '1', unit: 'weeks' }, status: 400 },
    { name: 'non-numeric expires is 400', as: 'bob', method: 'POST', url: '/api/share/docs/a.txt', body: { expires: 'soon' }, status: 400 },
    { name: 'expires above 2147483647 is 400', as: 'bob', method: 'POST', url: '/api/share/docs/a.txt', body: { expires: '2147483648' }, status: 400 },
    { name: 'sharing a missing item is 404 and creates nothing', as: 'bob', method: 'POST', url: '/api/share/nope.txt', body: {}, status: 404, after: async (t) => void expect((await t.s.stores.shares.byUser(2))).toEqual([]) },
    { name: 'a user without share permission cannot share', as: 'noshare', method: 'POST', url: '/api/share/docs/', body: {}, status: 403 },
    { name: 'anonymous cannot share', as: 'anon', method: 'POST', url: '/api/share/docs/', body: {}, status: 401 },
    { name: 'a user sees only their own shares', as: 'bob', method: 'GET', url: '/api/shares', status: 200, after: (_t, _r, text) => void expect(JSON.parse(text)).toEqual([]) },
    { name: 'admin sees everyone\'s shares with usernames', as: 'admin', method: 'GET', url: '/api/shares', status: 200, contains: ['"username":"carol"', '"path":"/c.txt"'], excludes: 'token' },
    { name: 'without share permission the list is 403', as: 'noshare', method: 'GET', url: '/api/shares', status: 403 },
    { name: 'anonymous cannot list shares', as: 'anon', method: 'GET', url: '/api/shares', status: 401 },
    { name: 'user deletes own share', as: 'carol', method: 'DELETE', url: async (t) => `/api/share/${await carolShare(t)}`, status: 200, after: async (t) => void expect((await t.s.stores.shares.byUser(4))).toEqual([]) },
    { name: 'IDOR: a user cannot delete another user\'s share', as: 'bob', method: 'DELETE', url: async (t) => `/api/share/${await carolShare(t)}`, status: 403, after: async (t) => void expect((await t.s.stores.shares.byUser(4))).toHaveLength(1) },
    { name: 'admin deletes anyone\'s share', as: 'admin', method: 'DELETE', url: async (t) => `/api/share/${await carolShare(t)}`, status: 200 },
    { name: 'unknown hash is 404', as: 'bob', method: 'DELETE', url: '/api/share/doesnotexist', status: 404 },
  ];
  runScenarios('shares', setup, rows);
});

let t: TestApp;
afterEach(() => t?.close());

async function shareAs(tok: string, path: string, body: Record<string, unknown> = {}) {
  const r = await t.req('POST', `/api/share${path}`, { token: tok, body });
  expect(r.status).toBe(200);
  return (await r.json()) as { hash: string };
}

describe('share hashes', () => {
  test('never start with "-" (the CLI would take one for an option)', async () => {
    t = await makeTestApp();
    const token = await t.adminToken();
    writeFileSync(join(t.root, 'h.txt'), 'h');
    const hashes: string[] = [];
    // With a plain base64url hash one in 64 starts with "-": 300 shares would show one with 99% likelihood.
    for (let i = 0; i < 300; i++) hashes.push(((await (await t.req('POST', '/api/share/h.txt', { token, body: {} })).json()) as { hash: string }).hash);
    expect(new Set(hashes).size).toBe(300);
    expect(hashes.filter((h) => h.startsWith('-'))).toEqual([]);
    expect(hashes.every((h) => /^[A-Za-z0-9_-]{12}$/.test(h))).toBe(true);
  });
});

describe('public access', () => {
  test('without, with a wrong and with the right password, and with the token', async () => {
    t = await makeTestApp();
    files(t);
    const bob = await t.userToken('bob', {}, { scope: '/bob' });
    const { hash } = await shareAs(bob, '/docs/', { password: 'p@ss word/ü' });
    expect((await t.req('GET', `/api/public/share/${hash}/`)).status).toBe(401);
    expect((await t.req('GET', `/api/public/share/${hash}/`, { headers: { 'X-SHARE-PASSWORD': 'wrong' } })).status).toBe(401);
    const ok = await t.req('GET', `/api/public/share/${hash}/`, { headers: { 'X-SHARE-PASSWORD': encodeURIComponent('p@ss word/ü') } });
    expect(ok.status).toBe(200);
    const body = await ok.json();
    expect(body.name).toBe('docs');
    expect(body.items.map((i: { path: string }) => i.path).sort()).toEqual(['/a.txt', '/sub']);
    expect(body.token).toHaveLength(128);
    // every side endpoint needs the password or the token too
    for (const p of [`/api/public/dl/${hash}/a.txt`, `/api/public/dl/${hash}/`, `/api/public/share/${hash}/sub`, `/api/public/dl/${hash}/?files=%252Fa.txt&algo=zip`])
      expect({ p, s: (await t.req('GET', p)).status }).toEqual({ p, s: 401 });
    const dl = await t.req('GET', `/api/public/dl/${hash}/a.txt?token=${body.token}`);
    expect([dl.status, await dl.text()]).toEqual([200, 'alpha']);
    expect((await t.req('GET', `/api/public/dl/${hash}/a.txt?token=${'x'.repeat(128)}`)).status).toBe(401);
    const sub = await t.req('GET', `/api/public/dl/${hash}/sub/b.txt?inline=true`, { headers: { 'X-SHARE-PASSWORD': encodeURIComponent('p@ss word/ü'), Range: 'bytes=1-2' } });
    expect([sub.status, await sub.text()]).toEqual([206, 'et']);
  });

  test('wrong passwords are rate-limited per share', async () => {
    t = await makeTestApp();
    files(t);
    const bob = await t.userToken('bob', {}, { scope: '/bob' });
    const { hash } = await shareAs(bob, '/docs/a.txt', { password: 'right' });
    for (let i = 0; i < 10; i++) expect((await t.req('GET', `/api/public/share/${hash}`, { headers: { 'X-SHARE-PASSWORD': `w${i}` } })).status).toBe(401);
    const r = await t.req('GET', `/api/public/share/${hash}`, { headers: { 'X-SHARE-PASSWORD': 'right' } });
    expect(r.status).toBe(429);
    expect(r.headers.get('retry-after')).toBeTruthy();
  });

  test('a file share exposes that file only, never its siblings', async () => {
    t = await makeTestApp();
    files(t);
    const bob = await t.userToken('bob', {}, { scope: '/bob' });
    const { hash } = await shareAs(bob, '/docs/a.txt');
    const info = await (await t.req('GET', `/api/public/share/${hash}`)).json();
    expect(info).toMatchObject({ name: 'a.txt', isDir: false, path: '/' });
    expect(info.content).toBeUndefined();
    for (const sub of ['/sub/b.txt', '/../sibling.txt', '/%2e%2e/sibling.txt', '/b.txt']) {
      const r = await t.req('GET', `/api/public/dl/${hash}${sub}`);
      if (r.status === 200) expect(await r.text()).toBe('alpha'); // the subpath is ignored: always the shared file
      else expect([400, 403, 404]).toContain(r.status);
    }
    const sel = await t.req('GET', `/api/public/dl/${hash}?files=%252F..%252Fsibling.txt`);
    expect(await sel.text()).toBe('alpha');
  });

  test('a folder share never reaches above its folder, and symlinks inside it do not leave it', async () => {
    t = await makeTestApp();
    files(t);
    symlinkSync(join(t.root, 'bob/sibling.txt'), join(t.root, 'bob/docs/link-out.txt'));
    symlinkSync(join(t.root, 'bob/docs/a.txt'), join(t.root, 'bob/docs/link-in.txt'));
    const bob = await t.userToken('bob', {}, { scope: '/bob' });
    const { hash } = await shareAs(bob, '/docs/');
    const list = await (await t.req('GET', `/api/public/share/${hash}/`)).json();
    expect(list.items.map((i: { name: string }) => i.name).sort()).toEqual(['a.txt', 'link-in.txt', 'sub']);
    expect((await t.req('GET', `/api/public/dl/${hash}/link-out.txt`)).status).toBe(403);
    expect(await (await t.req('GET', `/api/public/dl/${hash}/link-in.txt`)).text()).toBe('alpha');
    for (const p of [`/api/public/dl/${hash}/..%2fsibling.txt`, `/api/public/dl/${hash}/%2e%2e/sibling.txt`, `/api/public/dl/${hash}/sub/..%2f..%2fsibling.txt`, `/api/public/dl/${hash}/?files=%252F..%252Fsibling.txt`]) {
      const r = await t.app.handle(new Request(`http://localhost${p}`));
      expect({ p, ok: [400, 403, 404].includes(r.status) }).toEqual({ p, ok: true });
    }
    const zip = await t.req('GET', `/api/public/dl/${hash}/?algo=tar`);
    const tar = Buffer.from(await zip.arrayBuffer()).toString('latin1');
    expect(tar).toContain('a.txt');
    expect(tar).not.toContain('sibling secret');
  });

  test('the owner losing share or download permission, being deleted, or the item leaving scope or rules closes the share', async () => {
    t = await makeTestApp();
    files(t);
    const bob = await t.userToken('bob', {}, { scope: '/bob' });
    const admin = await t.adminToken();
    const { hash } = await shareAs(bob, '/docs/');
    const open = async () => (await t.req('GET', `/api/public/share/${hash}/`)).status;
    expect(await open()).toBe(200);
    const put = (data: Record<string, unknown>, which: string[]) => t.req('PUT', '/api/users/2', { token: admin, body: { what: 'user', which, current_password: ADMIN_PASSWORD, data: { id: 2, ...data } } });
    const perm = (await t.s.stores.users.byId(2))!.perm;
    expect((await put({ perm: { ...perm, share: false } }, ['perm'])).status).toBe(200);
    expect(await open()).toBe(403);
    expect((await put({ perm: { ...perm, share: true, download: false } }, ['perm'])).status).toBe(400); // share needs download
    expect((await put({ perm: { ...perm, share: false, download: false } }, ['perm'])).status).toBe(200);
    expect(await open()).toBe(403);
    expect((await put({ perm }, ['perm'])).status).toBe(200);
    expect(await open()).toBe(200);
    // the owner's rules apply to the owner's real paths
    expect((await put({ rules: [{ allow: false, regex: false, path: '/docs/sub', regexp: null }] }, ['rules'])).status).toBe(200);
    const list = await (await t.req('GET', `/api/public/share/${hash}/`)).json();
    expect(list.items.map((i: { name: string }) => i.name)).toEqual(['a.txt']);
    expect((await t.req('GET', `/api/public/dl/${hash}/sub/b.txt`)).status).toBe(403);
    expect((await put({ rules: [{ allow: false, regex: false, path: '/docs', regexp: null }] }, ['rules'])).status).toBe(200);
    expect(await open()).toBe(403);
    expect((await put({ rules: [] }, ['rules'])).status).toBe(200);
    // a scope change that leaves the shared item outside stops the link (404) but keeps it: the same item is
    // served again when the scope reaches it again (tests/api/shares-missing.test.ts)
    expect((await put({ scope: '/carol' }, ['scope'])).status).toBe(200);
    expect(await open()).toBe(404);
    expect((await t.s.stores.shares.byHash(hash))).not.toBeNull();
    expect((await put({ scope: '/bob' }, ['scope'])).status).toBe(200);
    expect(await open()).toBe(200);
    const again = await shareAs(await t.login('bob', USER_PASSWORD), '/docs/');
    expect((await t.req('GET', `/api/public/share/${again.hash}/`)).status).toBe(200);
    expect((await t.req('DELETE', '/api/users/2', { token: admin, body: { current_password: ADMIN_PASSWORD } })).status).toBe(200);
    expect((await t.req('GET', `/api/public/share/${again.hash}/`)).status).toBe(404);
    expect((await t.s.stores.shares.byHash(again.hash))).toBeNull();
  });

  test('expired shares are 404 and removed', async () => {
    t = await makeTestApp();
    files(t);
    const bob = await t.userToken('bob', {}, { scope: '/bob' });
    const { hash } = await shareAs(bob, '/docs/', { expires: '1', unit: 'seconds' });
    expect((await t.req('GET', `/api/public/share/${hash}/`)).status).toBe(200);
    await Bun.sleep(2100);
    expect((await t.req('GET', `/api/public/share/${hash}/`)).status).toBe(404);
    expect((await t.s.stores.shares.byHash(hash))).toBeNull();
  });

  test('moving or renaming a shared item keeps its share; deleting it for good removes the share', async () => {
    t = await makeTestApp();
    files(t);
    const bob = await t.userToken('bob', {}, { scope: '/bob' });
    const a = await shareAs(bob, '/docs/sub/b.txt');
    const d = await shareAs(bob, '/docs/');
    const r = await t.req('PATCH', `/api/resources/docs?action=rename&destination=${encodeURIComponent(encodeURIComponent('/papers'))}`, { token: bob });
    expect(r.status).toBe(200);
    const listed = await (await t.req('GET', '/api/shares', { token: bob })).json();
    expect(listed.find((x: { hash: string }) => x.hash === a.hash).path).toBe('/papers/sub/b.txt');
    expect(listed.find((x: { hash: string }) => x.hash === d.hash).path).toBe('/papers');
    expect(await (await t.req('GET', `/api/public/dl/${a.hash}`)).text()).toBe('beta');
    // A delete into the trash keeps the link waiting there (tests/api/trash.test.ts); a permanent one ends it.
    expect((await t.req('DELETE', '/api/resources/papers?permanent=true', { token: bob })).status).toBe(204);
    expect((await t.s.stores.shares.byUser(2))).toEqual([]);
  });

  test('share responses never carry a password hash or token, anywhere', async () => {
    t = await makeTestApp();
    files(t);
    const bob = await t.userToken('bob', {}, { scope: '/bob' });
    await shareAs(bob, '/docs/', { password: 'pw' });
    const admin = await t.adminToken();
    for (const [tok, p] of [[bob, '/api/shares'], [bob, '/api/share/docs'], [admin, '/api/shares'], [admin, '/api/share/bob/docs']] as const) {
      const text = await (await t.req('GET', p, { token: tok })).text();
      expect({ p, text: text.includes('"hasPassword":true') }).toEqual({ p, text: true });
      expect(text).not.toMatch(/\$2[aby]\$|token|password_?hash/i);
    }
  });
});
