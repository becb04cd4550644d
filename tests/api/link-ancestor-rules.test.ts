import { afterEach, expect, test } from 'bun:test';
import { existsSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Job } from '../../server/contract/job';
import { startJob, waitJob } from '../helpers/jobs-fixture';
import { zipNames } from '../helpers/files-fixture';
import { makeTestApp, type TestApp } from '../helpers/test-app';

/**
 * Rules at the real location (issue 32): with `/l` a link to the folder `/a` inside the scope and a rule denying
 * `/a/secret`, nothing reached through `/l` shows or hands out what lies in `/a/secret`: listings, folder sizes,
 * search (walk and index), /api/tree, archives, copies (route and job), moves, public shares and previews.
 */

let t: TestApp;
afterEach(() => t?.close());

const SECRET = 'top secret '.repeat(100); // 1100 bytes
const PUB = 'public';

async function setup(rules: unknown[] = [{ allow: false, regex: false, path: '/a/secret', regexp: null }], flags: Record<string, unknown> = {}) {
  t = await makeTestApp(flags);
  mkdirSync(join(t.root, 'a', 'secret', 'deep'), { recursive: true });
  mkdirSync(join(t.root, 'a', 'pub'), { recursive: true });
  writeFileSync(join(t.root, 'a', 'secret', 'hidden-doc.txt'), SECRET);
  writeFileSync(join(t.root, 'a', 'secret', 'deep', 'hidden-deep.png'), SECRET);
  writeFileSync(join(t.root, 'a', 'pub', 'p.txt'), PUB);
  symlinkSync(join(t.root, 'a'), join(t.root, 'l'));
  await t.s.settings.update({ rules }, ['rules']);
  return t.userToken('bob', {}, { scope: '/' });
}

const names = (body: { items: { name: string }[] }) => body.items.map((i) => i.name).sort();

async function ready(): Promise<void> {
  t.s.index.start();
  const end = Date.now() + 5000;
  while (!t.s.index.ready()) {
    if (Date.now() > end) throw new Error('the index did not get ready');
    await Bun.sleep(20);
  }
  await t.s.index.settled();
}

async function searchPaths(token: string, where: string, query: string): Promise<string[]> {
  const r = await t.req('GET', `/api/search${where}?query=${encodeURIComponent(query)}`, { token });
  expect(r.status).toBe(200);
  return (await r.text()).split('\n').filter(Boolean).map((l) => (JSON.parse(l) as { path: string }).path).sort();
}

test('listing through a linked ancestor leaves out what the rules deny at the real location', async () => {
  const token = await setup();
  const direct = await (await t.req('GET', '/api/resources/a/', { token })).json();
  expect(names(direct)).toEqual(['pub']);
  const r = await t.req('GET', '/api/resources/l/', { token });
  expect(r.status).toBe(200);
  expect(names(await r.json())).toEqual(['pub']);
  // Straight at the path: refused, as before.
  expect((await t.req('GET', '/api/resources/l/secret/', { token })).status).toBe(403);
  expect((await t.req('GET', '/api/raw/l/secret/hidden-doc.txt', { token })).status).toBe(403);
  // Previews of a denied file reached through the link are refused too.
  expect((await t.req('GET', '/api/preview/thumb/l/secret/deep/hidden-deep.png', { token })).status).toBe(403);
});

test('the folder size of a linked folder leaves out what the rules deny at the real location', async () => {
  const token = await setup();
  await ready();
  const viaLink = await (await t.req('GET', '/api/resources/l/', { token })).json();
  const direct = await (await t.req('GET', '/api/resources/a/', { token })).json();
  expect(direct.folderSize).toBe(PUB.length);
  expect(viaLink.folderSize).toBe(PUB.length);
});

test('the folder size of a linked folder under a regex rule (every entry asked) leaves out what it denies at the real location', async () => {
  const token = await setup([{ allow: false, regex: true, path: '', regexp: { raw: '^/a/secret(/|$)' } }]);
  await ready();
  const regex = await (await t.req('GET', '/api/resources/l/', { token })).json();
  expect([names(regex), regex.folderSize]).toEqual([['pub'], PUB.length]);
});

test('search through a linked folder (walk) finds nothing the rules deny at the real location', async () => {
  const token = await setup();
  const r = await t.req('GET', '/api/search/l/?query=hidden', { token });
  expect(r.headers.get('X-Search-Source')).toBe('walk');
  expect(await searchPaths(token, '/l/', 'hidden')).toEqual([]);
  expect(await searchPaths(token, '/l/', 'p.txt')).toEqual(['pub/p.txt']);
});

test('search through a linked folder (index) finds nothing the rules deny at the real location', async () => {
  const token = await setup();
  await ready();
  const r = await t.req('GET', '/api/search/l/?query=hidden', { token });
  expect(r.headers.get('X-Search-Source')).toBe('index');
  expect(await searchPaths(token, '/l/', 'hidden')).toEqual([]);
  expect(await searchPaths(token, '/l/', 'secret')).toEqual([]);
  expect(await searchPaths(token, '/l/', 'p.txt')).toEqual(['pub/p.txt']);
});

test('/api/tree of a linked folder leaves out what the rules deny at the real location', async () => {
  const token = await setup();
  const tree = (await (await t.req('GET', '/api/tree/l', { token })).json()) as { path: string }[];
  expect(tree.map((e) => e.path).sort()).toEqual(['/l/pub', '/l/pub/p.txt']);
});

test('an archive of a linked folder leaves out what the rules deny at the real location', async () => {
  const token = await setup();
  const r = await t.req('GET', '/api/raw/l/?algo=zip', { token });
  expect(r.status).toBe(200);
  const got = await zipNames(new Uint8Array(await r.arrayBuffer()));
  expect(got.filter((n) => n.includes('secret') || n.includes('hidden'))).toEqual([]);
  expect(got.some((n) => n.endsWith('pub/p.txt'))).toBe(true);
});

test('copying a linked folder holding a denied subtree is refused; nothing lands', async () => {
  const token = await setup();
  const r = await t.req('PATCH', `/api/resources/l?action=copy&destination=${encodeURIComponent('/c')}`, { token });
  expect(r.status).toBe(403);
  expect(existsSync(join(t.root, 'c'))).toBe(false);
  expect((await t.req('GET', '/api/raw/c/secret/hidden-doc.txt', { token })).status).toBe(404);
});

test('a copy job of a linked folder holding a denied subtree fails; nothing lands', async () => {
  const token = await setup();
  mkdirSync(join(t.root, 'dst'));
  const job: Job = await waitJob(t, token, (await startJob(t, token, { kind: 'copy', items: ['/l'], destination: '/dst' })).id);
  expect(job.state).toBe('failed');
  expect(readdirSync(join(t.root, 'dst'))).toEqual([]);
  expect((await t.req('GET', '/api/resources/dst/l/secret/hidden-doc.txt', { token })).status).toBe(404);
});

test('moving a real folder reached through a link is refused when it holds a denied subtree; moving the link itself is not', async () => {
  const token = await setup([{ allow: false, regex: false, path: '/a/box/hidden', regexp: null }]);
  mkdirSync(join(t.root, 'a', 'box', 'hidden'), { recursive: true });
  writeFileSync(join(t.root, 'a', 'box', 'hidden', 'h.txt'), SECRET);
  const r = await t.req('PATCH', `/api/resources/l/box?action=rename&destination=${encodeURIComponent('/m')}`, { token });
  expect(r.status).toBe(403);
  expect(existsSync(join(t.root, 'a', 'box', 'hidden', 'h.txt'))).toBe(true);
  expect(existsSync(join(t.root, 'm'))).toBe(false);
  // The link moves alone: its target stays where it is, under the same rules.
  const moved = await t.req('PATCH', `/api/resources/l?action=rename&destination=${encodeURIComponent('/l2')}`, { token });
  expect(moved.status).toBe(200);
  expect((await t.req('GET', '/api/raw/l2/box/hidden/h.txt', { token })).status).toBe(403);
});

test('a public share of a linked folder hides what the owner\'s rules deny at the real location', async () => {
  const token = await setup();
  const created = await t.req('POST', '/api/share/l/', { token, body: {} });
  expect(created.status).toBe(200);
  const share = await created.json();
  const list = await (await t.req('GET', `/api/public/share/${share.hash}/`)).json();
  expect(names(list)).toEqual(['pub']);
  expect((await t.req('GET', `/api/public/dl/${share.hash}/secret/hidden-doc.txt`)).status).toBe(403);
  const zip = await t.req('GET', `/api/public/dl/${share.hash}/?algo=zip`);
  expect(zip.status).toBe(200);
  const got = await zipNames(new Uint8Array(await zip.arrayBuffer()));
  expect(got.filter((n) => n.includes('secret') || n.includes('hidden'))).toEqual([]);
});

test('an archive job of a linked folder holding a denied subtree fails and its totals do not count it', async () => {
  const token = await setup();
  mkdirSync(join(t.root, 'out'));
  const job: Job = await waitJob(t, token, (await startJob(t, token, { kind: 'archive', items: ['/l'], destination: '/out' })).id);
  // Read like a copy: a denied entry beneath fails it; the progress totals say nothing of the denied subtree.
  expect(job.state).toBe('failed');
  expect([job.progress.filesTotal, job.progress.bytesTotal]).toEqual([1, PUB.length]);
  expect(readdirSync(join(t.root, 'out'))).toEqual([]);
});

test('where links may leave the scope (followExternalSymlinks), the rules still hold where an in-scope link leads', async () => {
  const token = await setup(undefined, { followExternalSymlinks: 'true' });
  symlinkSync(join(t.root, 'a', 'secret'), join(t.root, 'direct'));
  for (const path of ['/api/raw/direct/hidden-doc.txt', '/api/raw/l/secret/hidden-doc.txt', '/api/resources/l/secret/', '/api/resources/direct/'])
    expect({ path, status: (await t.req('GET', path, { token })).status }).toEqual({ path, status: 403 });
  expect(names(await (await t.req('GET', '/api/resources/l/', { token })).json())).toEqual(['pub']);
  const tree = (await (await t.req('GET', '/api/tree/l', { token })).json()) as { path: string }[];
  expect(tree.map((e) => e.path).sort()).toEqual(['/l/pub', '/l/pub/p.txt']);
  expect(await searchPaths(token, '/l/', 'hidden')).toEqual([]);
});

test('a listing path given with its trailing "/" is where it says (no second rule check per entry); a walk through a link maps paths exactly', async () => {
  await setup();
  const admin = (await t.s.stores.users.byUsername('admin'))!;
  const { actorFor } = await import('../../server/services/actor');
  const actor = actorFor(admin, { root: t.s.config.root, globalRules: [], followExternalSymlinks: false });
  const realA = join(actor.fs.realRoot, 'a');
  expect(actor.fs.realPathOf('/a/', realA)).toBeUndefined(); // was '/a': every listing asked the rules twice
  expect(actor.fs.realPathOf('/l/', realA)).toBe('/a');
  const walked = async (from: string) => {
    const out: [string, string | undefined][] = [];
    for await (const e of actor.fs.walk(from)) out.push([e.path, e.at]);
    return out.sort(([a], [b]) => a.localeCompare(b));
  };
  for (const [, at] of await walked('/a')) expect(at).toBeUndefined();
  const throughLink = await walked('/l');
  expect(throughLink.find(([p]) => p === '/l/pub/p.txt')).toEqual(['/l/pub/p.txt', '/a/pub/p.txt']);
  for (const [p, at] of throughLink) expect(at).toBe(p.replace(/^\/l\//, '/a/'));
});
