import { afterEach, describe, expect, test } from 'bun:test';
import { appendFileSync, closeSync, lstatSync, openSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServices, type Services } from '../../server/app';
import { silentLogger } from '../../server/core/log';
import { actorFor } from '../../server/services/actor';
import { searchCounters, searchGate } from '../../server/services/index/index-search';
import { search } from '../../server/services/search/search.service';
import { cli } from '../helpers/binary';
import { makeTestApp, type TestApp } from '../helpers/test-app';

/**
 * The name index against the disk: after random changes made through the API and behind the server's back, the
 * index must equal a fresh walk (entries, sizes, folder totals); search from it must apply each user's scope,
 * rules and dotfile hiding; it catches up after a restart without a rebuild; it falls back to polling when the
 * watch limit is reached.
 */

let apps: TestApp[] = [];
afterEach(async () => {
  for (const a of apps) await a.close().catch(() => {});
  apps = [];
});

async function app(flags: Record<string, unknown> = {}): Promise<TestApp> {
  const t = await makeTestApp({ indexPoll: '300ms', ...flags });
  apps.push(t);
  return t;
}

async function until(what: string, ok: () => boolean | Promise<boolean>, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(50);
  }
}

async function started(t: TestApp | { s: Services }): Promise<void> {
  t.s.index.start();
  await until('the index', () => t.s.index.ready());
  await t.s.index.settled();
}

/** What a fresh walk of the disk says: path -> "d:<total>" or "f:<size>", totals summed here. */
function walk(root: string): Map<string, string> {
  const out = new Map<string, string>();
  const visit = (abs: string, rel: string): number => {
    let total = 0;
    for (const n of readdirSync(abs)) {
      if (n.startsWith('.filedeck-')) continue;
      const st = lstatSync(join(abs, n));
      if (st.isSymbolicLink()) continue;
      const p = `${rel}/${n}`;
      if (st.isDirectory()) {
        const sub = visit(join(abs, n), p);
        out.set(p, `d:${sub}`);
        total += sub;
      } else {
        out.set(p, `f:${st.size}`);
        total += st.size;
      }
    }
    return total;
  };
  out.set('/', `d:${visit(root, '')}`);
  return out;
}

function indexed(s: Services): Map<string, string> {
  const rows = s.index.reader().db.query('select path, is_dir, size, total from entries').all() as { path: string; is_dir: number; size: number; total: number }[];
  return new Map(rows.map((r) => [r.path, r.is_dir ? `d:${r.total}` : `f:${r.size}`]));
}

const sorted = (m: Map<string, string>) => [...m].sort((a, b) => (a[0] < b[0] ? -1 : 1));

async function matchesDisk(t: TestApp): Promise<boolean> {
  await t.s.index.settled();
  return JSON.stringify(sorted(indexed(t.s))) === JSON.stringify(sorted(walk(t.root)));
}

async function lines(r: Response): Promise<{ dir: boolean; path: string }[]> {
  return (await r.text()).split('\n').filter(Boolean).map((l) => JSON.parse(l));
}

/** A small random tree, the same for a given seed. */
function rng(seed: number) {
  return () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
}

describe('name index', () => {
  test('equals a fresh walk after random creates, renames, moves and deletes, through the API and behind its back', async () => {
    const t = await app();
    const token = await t.adminToken();
    const rand = rng(7);
    const dirs = ['/a', '/a/b', '/c', '/c/d/e'];
    for (const d of dirs) mkdirSync(t.root + d, { recursive: true });
    for (let i = 0; i < 40; i++) writeFileSync(`${t.root}${dirs[i % dirs.length]}/f${i}.txt`, 'x'.repeat(Math.floor(rand() * 500)));
    writeFileSync(`${t.root}/a/.filedeck-abc.part`, 'temp, never indexed');
    await started(t);
    expect(await matchesDisk(t)).toBe(true);
    expect(indexed(t.s).has('/a/.filedeck-abc.part')).toBe(false);

    const pick = (list: string[]) => list[Math.floor(rand() * list.length)]!;
    const files = () => [...walk(t.root)].filter(([, v]) => v.startsWith('f')).map(([k]) => k);
    const folders = () => [...walk(t.root)].filter(([k, v]) => v.startsWith('d') && k !== '/').map(([k]) => k);
    for (let round = 0; round < 30; round++) {
      const inside = round % 2 === 0;
      const op = Math.floor(rand() * 5);
      const f = pick(files());
      const d = pick(folders());
      if (inside) {
        // Through the server: each write is in the index as soon as it is settled (no watcher needed).
        if (op === 0) expect((await t.req('POST', `/api/resources${d}/new${round}.bin`, { token, raw: new Uint8Array(100 + round) })).status).toBe(200);
        else if (op === 1) expect((await t.req('PATCH', `/api/resources${f}?action=rename&destination=${encodeURIComponent(`${d}/moved${round}.txt`)}`, { token })).status).toBe(200);
        else if (op === 2) expect([200, 204]).toContain((await t.req('DELETE', `/api/resources${f}`, { token })).status);
        else if (op === 3) expect((await t.req('POST', `/api/resources${d}/sub${round}/`, { token })).status).toBe(200);
        else if (!'/c/d/'.startsWith(`${d}/`) && !d.startsWith('/c/d')) expect((await t.req('PATCH', `/api/resources${d}?action=copy&destination=${encodeURIComponent(`/c/d/copy${round}`)}`, { token })).status).toBe(200);
        await t.s.index.settled();
        expect(await matchesDisk(t)).toBe(true);
      } else {
        if (op === 0) writeFileSync(`${t.root}${d}/out${round}.dat`, 'y'.repeat(round * 3));
        else if (op === 1) renameSync(t.root + f, `${t.root}${d}/ren${round}.txt`);
        else if (op === 2) rmSync(t.root + f);
        else if (op === 3) appendFileSync(t.root + f, 'more bytes');
        else {
          mkdirSync(`${t.root}${d}/deep${round}/x`, { recursive: true });
          writeFileSync(`${t.root}${d}/deep${round}/x/leaf.txt`, 'leaf');
        }
        await until(`the watcher after round ${round}`, () => matchesDisk(t));
      }
    }
    // A folder tree moved and then removed behind the server's back.
    renameSync(`${t.root}/c`, `${t.root}/a/b/c-moved`);
    await until('a moved tree', () => matchesDisk(t));
    rmSync(`${t.root}/a`, { recursive: true });
    await until('a removed tree', () => matchesDisk(t));
  }, 60_000);

  test('search applies each user\u2019s scope, rules and dotfile hiding, exactly like the walk', async () => {
    const t = await app();
    for (const d of ['/bob/secret', '/bob/.hidden', '/bob/docs', '/alice']) mkdirSync(t.root + d, { recursive: true });
    for (const f of ['/bob/a-needle.txt', '/bob/secret/needle-s.txt', '/bob/.hidden/needle-h.txt', '/bob/.needle-dot', '/bob/docs/Needle.md', '/alice/needle-alice.txt', '/needle-root.txt'])
      writeFileSync(t.root + f, 'n');
    const bob = await t.userToken('bob', {}, { scope: '/bob', hideDotfiles: true, rules: [{ allow: false, path: '/secret', regex: false }] });
    const admin = await t.adminToken();
    await started(t);
    const r = await t.req('GET', '/api/search/?query=needle', { token: bob });
    expect(r.headers.get('X-Search-Source')).toBe('index');
    const got = (await lines(r)).map((h) => h.path).sort();
    expect(got).toEqual(['a-needle.txt', 'docs/Needle.md']);
    // The same answer as the walk for this user.
    const bobUser = (await t.s.stores.users.byUsername('bob'))!;
    const actor = actorFor(bobUser, { root: t.root, globalRules: [], followExternalSymlinks: false });
    const walked: string[] = [];
    for await (const h of search(actor, '/', 'needle')) walked.push(h.path);
    expect(walked.sort()).toEqual(got);
    const all = (await lines(await t.req('GET', '/api/search/?query=needle', { token: admin }))).map((h) => h.path);
    expect(all).toContain('alice/needle-alice.txt');
    expect(all).toContain('bob/.hidden/needle-h.txt');
    // A search below a folder stays below it.
    expect((await lines(await t.req('GET', '/api/search/bob/docs?query=needle', { token: admin }))).map((h) => h.path)).toEqual(['Needle.md']);
  });

  test('ranking (name before path, shallower first), type: filters, quoted phrases, case:sensitive; walk before the index is ready', async () => {
    const t = await app();
    for (const d of ['/a/b', '/needle-dir/sub']) mkdirSync(t.root + d, { recursive: true });
    for (const f of ['/a/b/NEEDLE3.pdf', '/a/needle2.jpg', '/needle.txt', '/needle-dir/x.txt', '/needle-dir/sub/y.png', '/other.txt']) writeFileSync(t.root + f, 'z');
    const token = await t.adminToken();
    const before = await t.req('GET', '/api/search/?query=needle', { token });
    expect(before.headers.get('X-Search-Source')).toStartWith('walk');
    await started(t);
    const q = async (query: string) => (await lines(await t.req('GET', `/api/search/?query=${encodeURIComponent(query)}`, { token }))).map((h) => h.path);
    const ranked = await q('needle');
    expect(ranked.slice(0, 2).sort()).toEqual(['needle-dir', 'needle.txt']);
    expect(ranked.slice(2)).toEqual(['a/needle2.jpg', 'a/b/NEEDLE3.pdf', 'needle-dir/sub', 'needle-dir/sub/y.png', 'needle-dir/x.txt']);
    expect(await q('type:image needle')).toEqual(['a/needle2.jpg', 'needle-dir/sub/y.png']);
    expect(await q('type:pdf')).toEqual(['a/b/NEEDLE3.pdf']);
    expect(await q('"le2.j"')).toEqual(['a/needle2.jpg']);
    expect(await q('case:sensitive NEEDLE')).toEqual(['a/b/NEEDLE3.pdf']);
    expect(await q('ne')).toContain('a/b/NEEDLE3.pdf'); // shorter than a trigram: a scan, same rules
    expect(await q('zzz')).toEqual([]);
    // While a build runs (here: marked in the file, as `filedeck index rebuild` does), search walks and says so.
    t.s.index.reader().setMeta('state', 'building');
    const during = await t.req('GET', '/api/search/?query=needle', { token });
    expect(during.headers.get('X-Search-Source')).toMatch(/^walk; building=\d+$/);
    // The walk finds the same entries (names, and entries below matching folders), in walk order.
    expect((await lines(during)).map((h) => h.path).sort()).toEqual([...ranked].sort());
    t.s.index.reader().setMeta('state', 'ready');
    const typed = await q('type:image needle');
    t.s.index.reader().setMeta('state', 'building');
    expect((await q('type:image needle')).sort()).toEqual(typed.sort());
  });

  test('many matches: ranked depth by depth, a small depth read whole and a big one through the trigram index, the same results as the walk', async () => {
    const t = await app();
    // Depth 1 (small): a matching file, a matching folder with entries below it (path matches) and `bulk`. Depth 2
    // (over 20,000 entries: read through the trigram index): 2,100 matching names among 20,100. Depth 3: one.
    mkdirSync(`${t.root}/hits`);
    mkdirSync(`${t.root}/bulk/sub`, { recursive: true });
    for (const f of ['/hit-a.txt', '/hits/x.txt', '/hits/y.pdf', '/bulk/sub/hit-deep.txt']) writeFileSync(t.root + f, 'z');
    for (let i = 0; i < 20_100; i++) closeSync(openSync(`${t.root}/bulk/${i % 20 < 2 || i >= 20_000 ? 'hit' : 'f'}-${String(i).padStart(5, '0')}.${i % 2 ? 'pdf' : 'txt'}`, 'w'));
    await started(t);
    const token = await t.adminToken();
    const q = async (query: string) => (await lines(await t.req('GET', `/api/search/?query=${encodeURIComponent(query)}`, { token }))).map((h) => h.path);
    const depth = (p: string) => p.split('/').length;
    const all = await q('hit');
    expect(all.length).toBe(2 + 2_100 + 1 + 2);
    // The first chunk is a screenful (up to 16 KB and a line), sent without waiting for 64 KB of results.
    const first = await (await t.req('GET', '/api/search/?query=hit', { token })).body!.getReader().read();
    expect(first.value!.length).toBeLessThan(16_384 + 100);
    expect(new TextDecoder().decode(first.value!).split('\n').filter(Boolean).length).toBeGreaterThan(0);
    expect(all.slice(0, 2).sort()).toEqual(['hit-a.txt', 'hits']);
    expect(all.slice(2, 2_102).every((p) => depth(p) === 2 && p.startsWith('bulk/hit-'))).toBe(true);
    expect(all[2_102]).toBe('bulk/sub/hit-deep.txt');
    expect(all.slice(2_103).sort()).toEqual(['hits/x.txt', 'hits/y.pdf']);
    const pdfs = await q('type:pdf hit');
    expect(pdfs.length).toBe(1_050 + 1);
    expect(pdfs.slice(0, 1_050).every((p) => depth(p) === 2 && p.endsWith('.pdf'))).toBe(true);
    expect(pdfs[1_050]).toBe('hits/y.pdf');
    // The same entries as a walk of the disk finds.
    const actor = actorFor((await t.s.stores.users.byUsername('admin'))!, { root: t.root, globalRules: [], followExternalSymlinks: false });
    for (const [query, got] of [['hit', all], ['type:pdf hit', pdfs]] as const) {
      const walked: string[] = [];
      for await (const h of search(actor, '/', query)) walked.push(h.path);
      expect([...got].sort()).toEqual(walked.sort());
    }
    // 20,100 files made, indexed and walked twice: ~2.5 s alone, over 6 s beside the rest of the suite.
  }, 30_000);

  test('a user with 3 files under a big root: search reads that user\u2019s entries only, and every search holds a slot of the gate', async () => {
    const t = await app();
    // 6,000 files whose names all match, outside the user's scope; 3 inside it (one in a matching folder).
    mkdirSync(`${t.root}/big`);
    for (let i = 0; i < 6_000; i++) closeSync(openSync(`${t.root}/big/report-${i}.txt`, 'w'));
    mkdirSync(`${t.root}/carol/report-dir`, { recursive: true });
    for (const f of ['/carol/report-a.txt', '/carol/notes.txt', '/carol/report-dir/inside.txt']) writeFileSync(t.root + f, 'c');
    const carol = await t.userToken('carol', {}, { scope: '/carol' });
    const admin = await t.adminToken();
    await started(t);
    // Trigram queries made (each reads every match of the query in the whole index, then keeps those in range).
    const reader = t.s.index.reader();
    const candidates = reader.candidates.bind(reader);
    let trigramQueries = 0;
    reader.candidates = (q) => (trigramQueries++, candidates(q));
    const before = searchCounters().rowsRead;
    const r = await t.req('GET', '/api/search/?query=report', { token: carol });
    expect(r.headers.get('X-Search-Source')).toBe('index');
    expect((await lines(r)).map((h) => h.path)).toEqual(['report-a.txt', 'report-dir', 'report-dir/inside.txt']);
    // The four entries of carol's folder (a range of the path index), and no query over the whole index's names.
    expect(searchCounters().rowsRead - before).toBe(4);
    expect(trigramQueries).toBe(0);
    // The admin's search of the whole root does read them (the count counts).
    const whole = searchCounters().rowsRead;
    const all = await lines(await t.req('GET', '/api/search/?query=report', { token: admin }));
    expect(all.length).toBe(6_000 + 3);
    expect(searchCounters().rowsRead - whole).toBeGreaterThan(6_000);
    expect(trigramQueries).toBeGreaterThan(0);
    // The gate: a search holds its slot until it ends or its client leaves. Two of the admin's, left unread, hold
    // the admin's two slots; a third waits; carol's runs at once (slots are per user); when one leaves the third runs.
    const slots = searchGate(t.s.index);
    const held = [await t.req('GET', '/api/search/?query=report', { token: admin }), await t.req('GET', '/api/search/?query=report', { token: admin })];
    expect(slots.stats()).toMatchObject({ running: 2, waiting: 0 });
    const third = t.req('GET', '/api/search/?query=report', { token: admin });
    await until('the third search to wait', () => slots.stats().waiting === 1);
    expect((await lines(await t.req('GET', '/api/search/?query=report', { token: carol }))).length).toBe(3);
    await held[0]!.body!.cancel();
    expect((await lines(await third)).length).toBe(6_003);
    await held[1]!.body!.cancel();
    await until('every slot back', () => slots.stats().running === 0 && slots.stats().waiting === 0);
  }, 30_000);

  test('catches up after a restart without rebuilding', async () => {
    const t = await app();
    mkdirSync(`${t.root}/keep/inner`, { recursive: true });
    writeFileSync(`${t.root}/keep/one.txt`, '1');
    writeFileSync(`${t.root}/keep/inner/two.txt`, '22');
    await started(t);
    const generation = t.s.index.reader().meta('generation');
    t.s.index.close();
    // Changes while no server runs.
    rmSync(`${t.root}/keep/one.txt`);
    appendFileSync(`${t.root}/keep/inner/two.txt`, '333');
    mkdirSync(`${t.root}/new/deeper`, { recursive: true });
    writeFileSync(`${t.root}/new/deeper/three.txt`, 'three');
    const s2 = await createServices(t.s.config, silentLogger);
    try {
      await started({ s: s2 });
      expect(s2.index.reader().meta('generation')).toBe(generation);
      expect(JSON.stringify(sorted(indexed(s2)))).toBe(JSON.stringify(sorted(walk(t.root))));
    } finally {
      await s2.close();
    }
  });

  test('past the watch limit it says so and reconciles periodically instead', async () => {
    const t = await app({ indexWatchLimit: 2 });
    for (const d of ['/x/y', '/z']) mkdirSync(t.root + d, { recursive: true });
    await started(t);
    await until('the fallback', () => t.s.index.status().watching === 'polling');
    const t0 = Date.now();
    writeFileSync(`${t.root}/x/y/late-needle.txt`, 'late');
    const token = await t.adminToken();
    await until('a file made by another process', async () => (await lines(await t.req('GET', '/api/search/?query=late-needle', { token }))).length === 1, 3000);
    expect(Date.now() - t0).toBeLessThan(2000);
  });

  test('folder sizes in listings and the folder itself, after uploads, deletes, moves and outside changes', async () => {
    const t = await app();
    mkdirSync(`${t.root}/p/q`, { recursive: true });
    writeFileSync(`${t.root}/p/q/a.bin`, Buffer.alloc(1000));
    writeFileSync(`${t.root}/p/b.bin`, Buffer.alloc(24));
    const token = await t.adminToken();
    await started(t);
    const sizes = async () => {
      const root = (await (await t.req('GET', '/api/resources/', { token })).json()) as { folderSize?: number; items: { name: string; folderSize?: number; size: number }[] };
      const p = root.items.find((i) => i.name === 'p')!;
      const info = (await (await t.req('GET', '/api/resources/p/q', { token })).json()) as { folderSize?: number };
      return { root: root.folderSize, p: p.folderSize, inode: p.size, q: info.folderSize };
    };
    const first = await sizes();
    expect(first).toMatchObject({ root: 1024, p: 1024, q: 1000 });
    expect(first.inode).toBeGreaterThan(0); // `size` stays the folder's own size for the reference's clients
    await t.req('POST', '/api/resources/p/q/up.bin', { token, raw: new Uint8Array(500) });
    await t.s.index.settled();
    expect(await sizes()).toMatchObject({ p: 1524, q: 1500 });
    await t.req('DELETE', '/api/resources/p/q/a.bin', { token });
    await t.s.index.settled();
    expect(await sizes()).toMatchObject({ p: 524, q: 500 });
    await t.req('PATCH', `/api/resources/p/q/up.bin?action=rename&destination=${encodeURIComponent('/up.bin')}`, { token });
    await t.s.index.settled();
    expect(await sizes()).toMatchObject({ root: 524, p: 24, q: 0 });
    writeFileSync(`${t.root}/p/q/outside.bin`, Buffer.alloc(76));
    await until('an outside change', async () => (await sizes()).q === 76, 3000);
    expect((await sizes()).p).toBe(100);
  });

  test('filedeck index rebuild | status (--json), and one clear line for a wrong verb', async () => {
    const t = await app();
    mkdirSync(`${t.root}/cli/x`, { recursive: true });
    writeFileSync(`${t.root}/cli/x/one.txt`, '1');
    const base = ['-d', t.database, '-r', t.root, '--json'];
    const env = { FILEDECK_CACHE_DIR: join(t.dir, 'db', 'cache'), FILEDECK_INDEX_DIR: join(t.dir, 'db', 'cache') };
    const rebuilt = await cli(['index', 'rebuild', ...base], { env });
    expect(rebuilt.code).toBe(0);
    expect(JSON.parse(rebuilt.stdout)).toMatchObject({ state: 'ready', entries: 3, folders: 2 });
    const status = JSON.parse((await cli(['index', 'status', ...base], { env })).stdout);
    expect(status).toMatchObject({ state: 'ready', percent: 100, entries: 3 });
    expect(t.s.index.ready()).toBe(true); // the same file the server reads
    const bad = await cli(['index', 'frobnicate', ...base], { env });
    expect(bad.code).toBe(1);
  }, 30_000);
});
