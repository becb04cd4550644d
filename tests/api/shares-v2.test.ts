import { afterEach, describe, expect, test } from 'bun:test';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runScenarios, type Scenario, type ScenarioValues } from '../helpers/scenario';
import { makeTestApp, USER_PASSWORD, type TestApp } from '../helpers/test-app';

/** Shares v2 owner side (decision 0051): editing keeps the URL, regeneration, slugs, download limits, counters and the log. */
const setup = async (t: TestApp): Promise<ScenarioValues> => {
  mkdirSync(join(t.root, 'bob/docs'), { recursive: true });
  writeFileSync(join(t.root, 'bob/docs/a.txt'), 'alpha');
  mkdirSync(join(t.root, 'carol'), { recursive: true });
  writeFileSync(join(t.root, 'carol/c.txt'), 'c');
  const bob = await t.userToken('bob', {}, { scope: '/bob' });
  const carol = await t.userToken('carol', {}, { scope: '/carol' });
  const mk = async (tok: string, path: string, body: Record<string, unknown> = {}) => ((await (await t.req('POST', `/api/share${path}`, { token: tok, body })).json()) as { hash: string }).hash;
  return { bob, carol, folder: await mk(bob, '/docs/'), file: await mk(bob, '/docs/a.txt'), carols: await mk(carol, '/c.txt', { slug: 'carols-file' }) };
};
const patch = (link: string) => (_t: TestApp, v: ScenarioValues) => `/api/share/${v[link]}`;

describe('PATCH /api/share/:hash', () => {
  const rows: Scenario[] = [
    { name: 'a new expiry keeps the hash', as: 'bob', method: 'PATCH', url: patch('folder'), body: { expires: 2, unit: 'days' }, status: 200,
      after: (_t, _r, text, _b, v) => {
        const s = JSON.parse(text);
        expect(s.hash).toBe(v.folder);
        expect(Math.abs(s.expire - (Math.floor(Date.now() / 1000) + 2 * 86400))).toBeLessThan(5);
      } },
    { name: 'v2 fields are set and returned', as: 'bob', method: 'PATCH', url: patch('folder'), status: 200,
      body: { mode: 'upload-view', slug: 'Team-Drop', maxDownloads: 5, upload: { maxFileSize: 1000, maxFiles: 3, allowedTypes: ['.PDF', 'image/*'] } },
      json: { mode: 'upload-view', slug: 'team-drop', maxDownloads: 5, upload: { maxFileSize: 1000, maxTotalSize: 0, maxFiles: 3, allowedTypes: ['.pdf', 'image/*'] }, counters: { views: 0, downloads: 0 } } },
    { name: 'a webhook gets a secret shown to the owner', as: 'bob', method: 'PATCH', url: patch('folder'), body: { webhookUrl: 'https://hooks.example.com/in' }, status: 200,
      after: (_t, _r, text) => void expect(JSON.parse(text).webhookSecret).toMatch(/^[A-Za-z0-9_-]{32}$/) },
    { name: 'by slug', as: 'carol', method: 'PATCH', url: '/api/share/CAROLS-FILE', body: { disabled: true }, status: 200, json: { disabled: true } },
    { name: 'slug too short', as: 'bob', method: 'PATCH', url: patch('folder'), body: { slug: 'ab' }, status: 400 },
    { name: 'slug too long', as: 'bob', method: 'PATCH', url: patch('folder'), body: { slug: 'a'.repeat(65) }, status: 400 },
    { name: 'slug with a leading dash', as: 'bob', method: 'PATCH', url: patch('folder'), body: { slug: '-abc' }, status: 400 },
    { name: 'slug with a trailing dash', as: 'bob', method: 'PATCH', url: patch('folder'), body: { slug: 'abc-' }, status: 400 },
    { name: 'slug with other characters', as: 'bob', method: 'PATCH', url: patch('folder'), body: { slug: 'a_b.c' }, status: 400 },
    { name: 'slug with a slash', as: 'bob', method: 'PATCH', url: patch('folder'), body: { slug: 'a/b' }, status: 400 },
    { name: 'a reserved slug', as: 'bob', method: 'PATCH', url: patch('folder'), body: { slug: 'API' }, status: 400 },
    { name: 'another link\'s slug: 409, and nothing else of the change is kept', as: 'bob', method: 'PATCH', url: patch('folder'), body: { slug: 'Carols-File', password: 'a-new-password', maxDownloads: 4 }, status: 409,
      after: async (t, _r, _x, _b, v) => void expect((await t.s.stores.shares.byHash(v.folder!))).toMatchObject({ passwordHash: '', v2: { slug: '', maxDownloads: 0 } }) },
    { name: 'another link\'s hash, case-folded: 409', as: 'bob', method: 'PATCH', url: patch('folder'), status: 409,
      body: undefined, before: async (t, v) => {
        // A hash that can be a slug (letters, digits, dashes only) made for the test.
        await t.s.db.run('UPDATE shares SET hash = ? WHERE hash = ?', 'AbcDef-12345', v.carols);
      } },
    { name: 'upload modes are for folders', as: 'bob', method: 'PATCH', url: patch('file'), body: { mode: 'upload' }, status: 400 },
    { name: 'an unknown mode', as: 'bob', method: 'PATCH', url: patch('folder'), body: { mode: 'write' }, status: 400 },
    { name: 'a negative limit', as: 'bob', method: 'PATCH', url: patch('folder'), body: { maxDownloads: -1 }, status: 400 },
    { name: 'a bad type pattern', as: 'bob', method: 'PATCH', url: patch('folder'), body: { upload: { allowedTypes: ['pdf'] } }, status: 400 },
    { name: 'a webhook that is not http(s)', as: 'bob', method: 'PATCH', url: patch('folder'), body: { webhookUrl: 'file:///etc/passwd' }, status: 400 },
    { name: 'a webhook with credentials', as: 'bob', method: 'PATCH', url: patch('folder'), body: { webhookUrl: 'https://u:p@example.com/' }, status: 400 },
    { name: 'an unknown field', as: 'bob', method: 'PATCH', url: patch('folder'), body: { owner: 1 }, status: 400 },
    { name: 'nothing to change', as: 'bob', method: 'PATCH', url: patch('folder'), body: {}, status: 400 },
    { name: 'not JSON', as: 'bob', method: 'PATCH', url: patch('folder'), raw: 'slug=x', status: 400 },
    { name: 'IDOR: someone else\'s link', as: 'bob', method: 'PATCH', url: patch('carols'), body: { disabled: true }, status: 403 },
    { name: 'an admin changes anyone\'s', as: 'admin', method: 'PATCH', url: patch('carols'), body: { maxDownloads: 1 }, status: 200 },
    { name: 'anonymous: 401', as: 'anon', method: 'PATCH', url: patch('folder'), body: { disabled: true }, status: 401 },
    { name: 'an unknown link: 404', as: 'bob', method: 'PATCH', url: '/api/share/nosuchlink00', body: { disabled: true }, status: 404 },
  ];
  const hashRow = rows.find((r) => r.name.startsWith('another link\'s hash'))!;
  hashRow.body = { slug: 'abcdef-12345' };
  runScenarios('share changes', setup, rows, { timeout: 30_000 });
});

describe('settings.shares (admins only)', () => {
  const rows: Scenario[] = [
    { name: 'off by default', as: 'admin', method: 'GET', url: '/api/settings', status: 200, json: { shares: { logFullAddresses: false, webhookPrivateHosts: false } } },
    { name: 'an admin turns one on, the other kept', as: 'admin', method: 'PUT', url: '/api/settings', body: { shares: { webhookPrivateHosts: true } }, status: 200,
      after: (t) => void expect(t.s.settings.get().shares).toEqual({ logFullAddresses: false, webhookPrivateHosts: true }) },
    { name: 'not a boolean: 400', as: 'admin', method: 'PUT', url: '/api/settings', body: { shares: { logFullAddresses: 'yes' } }, status: 400 },
    { name: 'an unknown field: 400', as: 'admin', method: 'PUT', url: '/api/settings', body: { shares: { everything: true } }, status: 400 },
    { name: 'a user may not: 403', as: 'bob', method: 'PUT', url: '/api/settings', body: { shares: { logFullAddresses: true } }, status: 403 },
  ];
  runScenarios('share settings', setup, rows, { timeout: 30_000 });
});

let t: TestApp;
afterEach(() => t?.close());

const pub = (kind: string, name: string, rest = '/', headers: Record<string, string> = {}) => t.req('GET', `/api/public/${kind}/${name}${rest}`, { headers });

test('editing keeps the URL: a new password ends the old token, disabling and enabling', async () => {
  t = await makeTestApp();
  const v = await setup(t);
  const set = (body: unknown, who = v.bob) => t.req('PATCH', `/api/share/${v.folder}`, { token: who, body });
  expect((await set({ password: 'first-password' })).status).toBe(200);
  const first = await pub('share', v.folder!, '/', { 'X-SHARE-PASSWORD': 'first-password' });
  const token = ((await first.json()) as { token: string }).token;
  expect((await pub('share', v.folder!, `/?token=${token}`)).status).toBe(200);
  expect((await set({ password: 'second-password' })).status).toBe(200);
  expect((await pub('share', v.folder!, `/?token=${token}`)).status).toBe(401);
  expect((await pub('share', v.folder!, '/', { 'X-SHARE-PASSWORD': 'second-password' })).status).toBe(200);
  expect((await set({ password: null })).status).toBe(200);
  expect((await pub('share', v.folder!)).status).toBe(200);
  // Disabled: visitors get 403, the owner sees it listed as disabled; enabled again, the same URL works.
  expect((await set({ disabled: true })).status).toBe(200);
  expect((await pub('share', v.folder!)).status).toBe(403);
  expect((await pub('dl', v.folder!, '/a.txt')).status).toBe(403);
  const list = (await (await t.req('GET', '/api/shares', { token: v.bob })).json()) as { hash: string; state: string }[];
  expect(list.find((s) => s.hash === v.folder)!.state).toBe('disabled');
  expect((await set({ disabled: false })).status).toBe(200);
  expect((await pub('share', v.folder!)).status).toBe(200);
  // Expiry on an upload link: expired is 404 for uploads too.
  expect((await set({ mode: 'upload', expires: 1, unit: 'seconds' })).status).toBe(200);
  await t.s.db.run('UPDATE shares SET expire = ? WHERE hash = ?', Math.floor(Date.now() / 1000) - 1, v.folder);
  expect((await t.req('POST', `/api/public/upload/${v.folder}/late.txt`, { raw: 'x' })).status).toBe(404);
}, 30_000);

test('regenerate: a new hash; the old hash and the slug stop working; the log follows', async () => {
  t = await makeTestApp();
  const v = await setup(t);
  expect((await t.req('PATCH', `/api/share/${v.folder}`, { token: v.bob, body: { slug: 'bobs-docs' } })).status).toBe(200);
  expect((await pub('share', 'bobs-docs')).status).toBe(200);
  const r = await t.req('POST', `/api/share/${v.folder}/regenerate`, { token: v.bob });
  expect(r.status).toBe(200);
  const next = (await r.json()) as { hash: string; slug: string; counters: { views: number } };
  expect(next.hash).not.toBe(v.folder);
  expect(next.slug).toBe('');
  expect(next.counters.views).toBe(1);
  expect((await pub('share', v.folder!)).status).toBe(404);
  expect((await pub('share', 'bobs-docs')).status).toBe(404);
  expect((await pub('share', next.hash)).status).toBe(200);
  const log = (await (await t.req('GET', `/api/share/${next.hash}/log`, { token: v.bob })).json()) as { kind: string }[];
  expect(log.map((l) => l.kind)).toEqual(['view', 'view']);
  // Someone else may not regenerate it; the audit log has the change.
  expect((await t.req('POST', `/api/share/${next.hash}/regenerate`, { token: v.carol })).status).toBe(403);
  const audit = await t.s.audit.list({ action: 'share.update' });
  expect(audit.entries.some((e) => e.target === next.hash && e.detail.regenerated === true && e.detail.from === v.folder)).toBe(true);
}, 30_000);

test('max downloads end a link; ranges past byte 0 and inline views do not count', async () => {
  t = await makeTestApp();
  const v = await setup(t);
  expect((await t.req('PATCH', `/api/share/${v.file}`, { token: v.bob, body: { maxDownloads: 2 } })).status).toBe(200);
  expect((await pub('dl', v.file!)).status).toBe(200);
  expect((await pub('dl', v.file!, '/', { Range: 'bytes=2-' })).status).toBe(206); // a continuation
  expect((await pub('dl', v.file!, '/?inline=true')).status).toBe(200); // an inline view
  expect((await pub('dl', v.file!, '/', { Range: 'bytes=0-1' })).status).toBe(206); // a fresh start: counts
  expect((await pub('dl', v.file!)).status).toBe(404);
  expect((await pub('share', v.file!)).status).toBe(404);
  const list = (await (await t.req('GET', '/api/shares', { token: v.bob })).json()) as { hash: string; state: string; counters: { downloads: number } }[];
  const mine = list.find((s) => s.hash === v.file)!;
  expect([mine.state, mine.counters.downloads]).toEqual(['exhausted', 2]);
  // Raising the limit brings it back, the same URL.
  expect((await t.req('PATCH', `/api/share/${v.file}`, { token: v.bob, body: { maxDownloads: 3 } })).status).toBe(200);
  expect((await pub('dl', v.file!)).status).toBe(200);
}, 30_000);

test('concurrent downloads never pass max downloads', async () => {
  t = await makeTestApp();
  const v = await setup(t);
  expect((await t.req('PATCH', `/api/share/${v.file}`, { token: v.bob, body: { maxDownloads: 3 } })).status).toBe(200);
  const rs = await Promise.all(Array.from({ length: 8 }, () => pub('dl', v.file!)));
  expect(rs.filter((r) => r.status === 200).length).toBe(3);
  expect(rs.filter((r) => r.status === 404).length).toBe(5);
}, 30_000);

test('counters and the access log: views, downloads, uploads, wrong passwords; addresses anonymised, agents reduced', async () => {
  for (const full of [false, true]) {
    t = await makeTestApp({ trustedProxies: '127.0.0.1' }, full ? { shares: { logFullAddresses: true } } : {});
    const v = await setup(t);
    await t.req('PATCH', `/api/share/${v.folder}`, { token: v.bob, body: { mode: 'upload-view', password: 'a-password-here' } });
    const server = t.app.listen({ hostname: '127.0.0.1', port: 0 });
    const base = `http://127.0.0.1:${server.server!.port}/api/public`;
    const as = (ip: string, ua: string, pw = 'a-password-here') => ({ 'X-Forwarded-For': ip, 'User-Agent': ua, 'X-SHARE-PASSWORD': pw });
    try {
      const firefox = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
      expect((await fetch(`${base}/share/${v.folder}/`, { headers: as('203.0.113.77', firefox) })).status).toBe(200);
      expect((await fetch(`${base}/dl/${v.folder}/a.txt`, { headers: as('2001:db8:aaaa:bbbb::1', 'curl/8.5.0') })).status).toBe(200);
      expect((await fetch(`${base}/upload/${v.folder}/in.txt`, { method: 'POST', body: 'abc', headers: as('198.51.100.9', 'python-requests/2.31') })).status).toBe(201);
      expect((await fetch(`${base}/share/${v.folder}/`, { headers: as('192.0.2.200', 'x', 'wrong') })).status).toBe(401);
    } finally {
      await server.stop(true);
    }
    const log = (await (await t.req('GET', `/api/share/${v.folder}/log`, { token: v.bob })).json()) as Record<string, unknown>[];
    expect(log.map((l) => [l.kind, l.path, l.address, l.agent])).toEqual([
      ['password-failed', '/', full ? '192.0.2.200' : '192.0.2.0', 'Other'],
      ['upload', '/in.txt', full ? '198.51.100.9' : '198.51.100.0', 'Python'],
      ['download', '/a.txt', full ? '2001:db8:aaaa:bbbb::1' : '2001:db8:aaaa::', 'curl'],
      ['view', '/', full ? '203.0.113.77' : '203.0.113.0', 'Firefox'],
    ]);
    expect(log[1]!.bytes).toBe(3);
    expect(JSON.stringify(log)).not.toContain('Gecko');
    const page = (await (await t.req('GET', `/api/share/${v.folder}/log?limit=2&before=${log[1]!.id}`, { token: v.bob })).json()) as { kind: string }[];
    expect(page.map((l) => l.kind)).toEqual(['download', 'view']);
    expect((await t.req('GET', `/api/share/${v.folder}/log?limit=501`, { token: v.bob })).status).toBe(400);
    expect((await t.req('GET', `/api/share/${v.folder}/log`, { token: v.carol })).status).toBe(403);
    const s = ((await (await t.req('GET', '/api/shares', { token: v.bob })).json()) as { hash: string; counters: Record<string, number> }[]).find((x) => x.hash === v.folder)!;
    expect(s.counters).toMatchObject({ views: 1, downloads: 1, uploads: 1, uploadedBytes: 3 });
    expect(s.counters.lastAccess).toBeGreaterThan(Date.now() / 1000 - 60);
    await t.close();
  }
}, 60_000);

test('the log keeps at most 1,000 lines per link, the newest', async () => {
  t = await makeTestApp();
  const v = await setup(t);
  const visit = { address: '192.0.2.1', agent: 'curl/8' };
  for (let i = 0; i < 1003; i++) await t.s.db.run("INSERT INTO share_access (hash, time, kind, path, address, agent, bytes) VALUES (?, ?, 'view', ?, '', '', 0)", v.folder, i, `/${i}`);
  expect((await pub('share', v.folder!)).status).toBe(200); // the next line trims
  void visit;
  const n = await t.s.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM share_access WHERE hash = ?', v.folder);
  expect(Number(n!.n)).toBe(1000);
  const oldest = await t.s.db.get<{ path: string }>('SELECT path FROM share_access WHERE hash = ? ORDER BY id LIMIT 1', v.folder);
  expect(oldest!.path).toBe('/4');
}, 60_000);

test('the old share routes still reach files named like the new ones', async () => {
  t = await makeTestApp();
  const v = await setup(t);
  mkdirSync(join(t.root, 'bob/notalink'), { recursive: true });
  writeFileSync(join(t.root, 'bob/notalink/log'), 'a file named log');
  writeFileSync(join(t.root, 'bob/notalink/regenerate'), 'a file named regenerate');
  expect((await t.req('GET', '/api/share/notalink/log', { token: v.bob })).status).toBe(200);
  const made = await t.req('POST', '/api/share/notalink/regenerate', { token: v.bob, body: {} });
  expect(made.status).toBe(200);
  expect(((await made.json()) as { path: string }).path).toBe('/notalink/regenerate');
  void USER_PASSWORD;
}, 30_000);
