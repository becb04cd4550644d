import { afterEach, describe, expect, test } from 'bun:test';
import { lstatSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Rule } from '../../server/contract/user';
import { actorFor, type Actor } from '../../server/services/actor';
import { SIZE_BOUND, visibleSizes } from '../../server/services/index/visible-sizes';
import { makeTestApp, type TestApp } from '../helpers/test-app';

/**
 * Folder sizes per caller (issue 15: one index serves every user; rules and hidden dotfiles are applied, never
 * leaked). Each user's sizes, in listings and for the folder itself, must equal a fresh walk of the disk that
 * keeps only what that user can see (pruned at hidden folders, as a listing is); past the bound a size is absent.
 */

let apps: TestApp[] = [];
afterEach(async () => {
  for (const a of apps) await a.close().catch(() => {});
  apps = [];
});

async function ready(t: TestApp): Promise<void> {
  t.s.index.start();
  const end = Date.now() + 5000;
  while (!t.s.index.ready()) {
    if (Date.now() > end) throw new Error('the index did not get ready');
    await Bun.sleep(50);
  }
  await t.s.index.settled();
}

/** Bytes beneath the virtual folder `path` that `actor` can see: a walk of the disk, asking the actor at each entry. */
function walked(actor: Actor, abs: string, path: string): number {
  let sum = 0;
  for (const n of readdirSync(abs)) {
    if (n.startsWith('.filedeck-')) continue;
    const v = path === '/' ? `/${n}` : `${path}/${n}`;
    const st = lstatSync(join(abs, n));
    if (st.isSymbolicLink() || !actor.allows(v)) continue;
    sum += st.isDirectory() ? walked(actor, join(abs, n), v) : st.size;
  }
  return sum;
}

type Listing = { folderSize?: number; items: { name: string; isDir: boolean; folderSize?: number }[] };

/** The folder's own size and each listed sub-folder's size, as the API answers them. */
async function sizesOf(t: TestApp, token: string, path: string): Promise<Record<string, number | undefined>> {
  const r = await t.req('GET', `/api/resources${path}`, { token });
  expect(r.status).toBe(200);
  const body = (await r.json()) as Listing;
  const out: Record<string, number | undefined> = { '.': body.folderSize };
  for (const i of body.items) if (i.isDir) out[i.name] = i.folderSize;
  return out;
}

/** What a fresh walk says for the same folder and the sub-folders the user sees. */
function expected(actor: Actor, abs: string, path: string): Record<string, number> {
  const out: Record<string, number> = { '.': walked(actor, abs, path) };
  for (const n of readdirSync(abs)) {
    const v = path === '/' ? `/${n}` : `${path}/${n}`;
    if (!n.startsWith('.filedeck-') && actor.allows(v) && lstatSync(join(abs, n)).isDirectory()) out[n] = walked(actor, join(abs, n), v);
  }
  return out;
}

const FILES: Record<string, number> = {
  '/a/secret/s1.bin': 1000,
  '/a/secret/deep/s2.bin': 500,
  '/a/secret-not/n.bin': 17, // "secret" must not hide "secret-not" (rules match on a folder boundary)
  '/a/pub/p.bin': 30,
  '/a/pub/notes.tmp': 13,
  '/a/pub/keep/k.bin': 3,
  '/a/pub/.cache/c.bin': 7,
  '/a/pub/.cache/inner.tmp': 2,
  '/a/.dot': 11,
  '/a/x.log': 5,
  '/b/.git/objects/o.pack': 400,
  '/b/b.txt': 9,
  '/top.bin': 100,
};

async function tree(): Promise<TestApp> {
  const t = await makeTestApp();
  apps.push(t);
  for (const [p, n] of Object.entries(FILES)) {
    mkdirSync(t.root + p.slice(0, p.lastIndexOf('/')), { recursive: true });
    writeFileSync(t.root + p, Buffer.alloc(n));
  }
  return t;
}

const deny = (path: string): Rule => ({ allow: false, regex: false, path, regexp: null });
const allow = (path: string): Rule => ({ allow: true, regex: false, path, regexp: null });
const denyRe = (raw: string): Rule => ({ allow: false, regex: true, path: '', regexp: { raw } });

/** Users whose rules or dotfile hiding hide something, each checked against the walk. */
const CALLERS: { name: string; rules: Rule[]; hideDotfiles: boolean; scope?: string }[] = [
  { name: 'pathrule', rules: [deny('/a/secret')], hideDotfiles: false },
  { name: 'regexrule', rules: [denyRe('\\.tmp$')], hideDotfiles: false },
  { name: 'dotfiles', rules: [], hideDotfiles: true },
  { name: 'mixed', rules: [deny('/a/secret'), denyRe('(?i)/KEEP$')], hideDotfiles: true },
  // A rule path that is also a dot-named entry (found twice: by the rule and as a dotfile) is subtracted once.
  { name: 'dotrule', rules: [deny('/a/.dot'), deny('/a/pub/.cache'), deny('/b/.git/objects')], hideDotfiles: true },
  // A later allow inside a denied folder does not make it reachable: the listing stops at the denied folder.
  { name: 'allowinside', rules: [deny('/a/pub'), allow('/a/pub/keep'), deny('/b/b.txt')], hideDotfiles: false },
  { name: 'scoped', rules: [deny('/secret'), deny('/pub/.cache')], hideDotfiles: false, scope: '/a' },
];

describe('folder sizes per caller', () => {
  test('each user sees sizes without the bytes their rules or dotfile hiding hide, equal to a fresh walk', async () => {
    const t = await tree();
    const admin = await t.adminToken();
    await ready(t);
    // Without rules: the full totals.
    expect(await sizesOf(t, admin, '/')).toEqual({ '.': 2097, a: 1588, b: 409 });
    expect(await sizesOf(t, admin, '/a')).toEqual({ '.': 1588, secret: 1500, 'secret-not': 17, pub: 55 });

    for (const c of CALLERS) {
      const token = await t.userToken(c.name, {}, { rules: c.rules, hideDotfiles: c.hideDotfiles, scope: c.scope ?? '/' });
      const user = (await t.s.stores.users.byUsername(c.name))!;
      const actor = actorFor(user, { root: t.root, globalRules: [], followExternalSymlinks: false });
      const scopeRoot = t.root + (c.scope ?? '');
      for (const path of ['/', c.scope ? '/pub' : '/a', c.scope ? '/pub/keep' : '/a/pub']) {
        if (!actor.allows(path)) continue;
        const abs = path === '/' ? scopeRoot : scopeRoot + path;
        expect({ user: c.name, path, sizes: await sizesOf(t, token, path) }).toEqual({ user: c.name, path, sizes: expected(actor, abs, path) });
      }
    }
    // Spot checks of the numbers themselves (the walk above could share a mistake with the index).
    const bob = await t.login('pathrule', 'bobs-long-password-4410');
    expect(await sizesOf(t, bob, '/a')).toEqual({ '.': 88, 'secret-not': 17, pub: 55 });
    expect((await sizesOf(t, bob, '/'))['a']).toBe(88);
    const dot = await t.login('dotfiles', 'bobs-long-password-4410');
    expect(await sizesOf(t, dot, '/')).toEqual({ '.': 1677, a: 1568, b: 9 });
    const inside = await t.login('allowinside', 'bobs-long-password-4410');
    expect((await sizesOf(t, inside, '/'))).toEqual({ '.': 2033, a: 1533, b: 400 });
  });

  test('sizes follow changes without leaking: bytes added to a denied folder change only the sizes of those who see it', async () => {
    const t = await tree();
    const admin = await t.adminToken();
    const bob = await t.userToken('bob', {}, { rules: [deny('/a/secret')] });
    await ready(t);
    const before = { admin: await sizesOf(t, admin, '/'), bob: await sizesOf(t, bob, '/') };
    expect((await t.req('POST', '/api/resources/a/secret/more.bin', { token: admin, raw: new Uint8Array(4096) })).status).toBe(200);
    await t.s.index.settled();
    expect((await sizesOf(t, admin, '/'))['a']).toBe(before.admin['a']! + 4096);
    expect(await sizesOf(t, bob, '/')).toEqual(before.bob);
  });

  test('sizes held between listings are dropped by any commit to the index: at once by ours, within a second by another process', async () => {
    const t = await tree();
    const admin = await t.adminToken();
    const dot = await t.userToken('dotfiles', {}, { hideDotfiles: true });
    await ready(t);
    expect((await sizesOf(t, admin, '/'))['a']).toBe(1588);
    expect((await sizesOf(t, dot, '/'))['a']).toBe(1568); // held apart from the answer without dotfile hiding
    expect((await sizesOf(t, admin, '/'))['a']).toBe(1588);
    // A file written through the server: the index worker's commit shows in the very next listing.
    expect((await t.req('POST', '/api/resources/a/more.bin', { token: admin, raw: new Uint8Array(12) })).status).toBe(200);
    await t.s.index.settled();
    expect((await sizesOf(t, admin, '/'))['a']).toBe(1600);
    expect((await sizesOf(t, dot, '/'))['a']).toBe(1580);
    // Another process rewrites the stored total (as `index rebuild` would): it shows within a second (the file's
    // change mark is read at most once a second), for both kinds of caller.
    const script = `const { Database } = require('bun:sqlite'); const d = new Database(${JSON.stringify(t.s.index.opts.file)}); d.run("update entries set total = 2000 where path = '/a'"); d.close();`;
    expect(Bun.spawnSync([process.execPath, '-e', script]).exitCode).toBe(0);
    await Bun.sleep(1100);
    expect((await sizesOf(t, admin, '/'))['a']).toBe(2000);
    expect((await sizesOf(t, dot, '/'))['a']).toBe(1980);
  });

  test('a public share of a folder counts with its owner\u2019s rules', async () => {
    const t = await tree();
    const owner = await t.userToken('owner', { share: true, download: true }, { rules: [deny('/a/secret'), denyRe('\\.tmp$')] });
    await ready(t);
    const share = (await (await t.req('POST', '/api/share/a', { token: owner, body: {} })).json()) as { hash: string };
    const r = await t.req('GET', `/api/public/share/${share.hash}`);
    expect(r.status).toBe(200);
    const body = (await r.json()) as Listing;
    const pub = body.items.find((i) => i.name === 'pub');
    expect(body.items.some((i) => i.name === 'secret')).toBe(false);
    expect(pub?.folderSize).toBe(40); // p.bin 30 + keep/k.bin 3 + .cache/c.bin 7, without the two .tmp files
    // Path rules only: the owner's rule paths are mapped into the share (its root is the owner's /a).
    const other = await t.userToken('other', { share: true, download: true }, { rules: [deny('/a/pub/keep')] });
    const link = (await (await t.req('POST', '/api/share/a', { token: other, body: {} })).json()) as { hash: string };
    const shared = (await (await t.req('GET', `/api/public/share/${link.hash}`)).json()) as Listing;
    expect(shared.folderSize).toBe(1585);
    expect(shared.items.find((i) => i.name === 'pub')?.folderSize).toBe(52);
  });

  test('past the bound (rows) a size is absent, never a partial sum; what was read in full keeps its size', async () => {
    const t = await tree();
    for (let i = 0; i < 30; i++) writeFileSync(`${t.root}/b/many-${String(i).padStart(2, '0')}.tmp`, Buffer.alloc(1));
    const token = await t.userToken('re', {}, { rules: [denyRe('\\.tmp$')] });
    await ready(t);
    const user = (await t.s.stores.users.byUsername('re'))!;
    const actor = actorFor(user, { root: t.root, globalRules: [], followExternalSymlinks: false });
    // Directly: a bound of 18 rows reads /a and its 16 entries, then /b (so /a's range is known to be over).
    const small = visibleSizes(t.s.index.reader(), actor, '/', '/', { rows: 18, ms: 1000 })!;
    expect(small.own).toBeUndefined();
    expect(small.children.get('a')).toBe(walked(actor, `${t.root}/a`, '/a'));
    expect(small.children.has('b')).toBe(false);
    // Through the API: the same bound leaves the sizes out of the answer (the web shows "—").
    const saved = SIZE_BOUND.rows;
    SIZE_BOUND.rows = 18;
    try {
      const s = await sizesOf(t, token, '/');
      expect(s['.']).toBeUndefined();
      expect(s['b']).toBeUndefined();
      expect(s['a']).toBe(walked(actor, `${t.root}/a`, '/a'));
    } finally {
      SIZE_BOUND.rows = saved;
    }
    expect((await sizesOf(t, token, '/'))['.']).toBe(walked(actor, t.root, '/'));
  });

  test('a hidden subtree costs one row of the bound, however large it is', async () => {
    const t = await tree();
    mkdirSync(`${t.root}/m/many`, { recursive: true });
    for (let i = 0; i < 50; i++) writeFileSync(`${t.root}/m/many/f${String(i).padStart(2, '0')}`, Buffer.alloc(10));
    writeFileSync(`${t.root}/m/z.bin`, Buffer.alloc(6));
    await t.userToken('jump', {}, { rules: [denyRe('/many$')] });
    await ready(t);
    const actor = actorFor((await t.s.stores.users.byUsername('jump'))!, { root: t.root, globalRules: [], followExternalSymlinks: false });
    expect(visibleSizes(t.s.index.reader(), actor, '/m', '/m', { rows: 5, ms: 1000 })?.own).toBe(6);
  });
});
