import { describe, expect, test } from 'bun:test';
import { readFileSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { containsBytes, dest, diskState, fastUserToken, put, raw, tarNames, unsafeEntry, zipNames } from '../helpers/files-fixture';
import { makeTestApp, type TestApp } from '../helpers/test-app';
import { runScenarios, type Scenario } from '../helpers/scenario';

// peers.md §4.1 against every route that takes a path. The caller is u1 with scope /u1 and every permission;
// /u2 (a sibling scope) and <tmp>/outside (outside the files root) hold secrets. Requests are built from raw
// strings; note that the URL parser resolves literal "." / ".." / "%2e%2e" segments (and turns "\" into "/")
// before any handler sees the path, exactly as Bun.serve does for a real request, so those rows mostly land
// on other (or no) routes: what matters is that nothing outside /u1 is read or changed.
const SECRET = 'OUTSIDE-SECRET-93c1';

function build(t: TestApp) {
  for (const d of [join(t.root, 'u1'), join(t.root, 'u2'), join(t.dir, 'outside')]) rmSync(d, { recursive: true, force: true });
  put(t.root, {
    'u1/docs/f.txt': 'mine\n', 'u1/sub/': '', 'u1/pub/ok.txt': 'pub\n', 'u1/pub-private/s.txt': 'not for u1\n', 'u1/box/ok.txt': 'box\n',
    'u2/secret.txt': `${SECRET} u2`, 'u2/sub/s2.txt': SECRET,
  });
  put(t.dir, { 'outside/top.txt': `${SECRET} outside`, 'outside/dir/x.txt': SECRET });
  const u1 = join(t.root, 'u1');
  const out = join(t.dir, 'outside');
  const links: [string, string][] = [
    ['link-file', join(t.root, 'u2/secret.txt')], ['link-dir', join(t.root, 'u2')], ['link-out', join(out, 'top.txt')], ['link-outdir', out],
    ['dangle', join(out, 'new.txt')], ['dangle-dir', join(out, 'newdir')], ['rel', '../u2/secret.txt'],
    ['box/inner-link', join(out, 'top.txt')], ['box/inner-dir', out], ['box/inner-dangle', join(out, 'gone.txt')], ['box/inner-rel', '../../u2/secret.txt'],
  ];
  for (const [name, target] of links) symlinkSync(target, join(u1, name));
}

const clearUploads = async (t: TestApp) => {
  for (const r of (await t.s.stores.uploads.expired(Number.MAX_SAFE_INTEGER))) (await t.s.stores.uploads.delete(r.userId, r.path));
};
/** Keys added, removed or changed between two disk states (our random temp-file names normalised). */
const diff = (a: Record<string, string>, b: Record<string, string>) =>
  [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((k) => a[k] !== b[k]).map((k) => k.replace(/\.filedeck-[\w-]+\.part$/, '.filedeck-*.part')).sort();

interface Attack {
  name: string;
  /** Raw path tail after each route prefix. */
  tail: string;
  /** Raw value of PATCH `destination`. */
  dest: string;
  /** Raw value of raw's `files=`. */
  files: string;
  /** Source for the destination rows (default /docs/f.txt). */
  from?: string;
  user?: Record<string, unknown>;
  status: number;
  except?: Record<string, number>;
  /** Disk changes (relative to the temp dir) a route is expected to make; everything else must stay. */
  changes?: Record<string, string[]>;
}

const TUS = { 'Tus-Resumable': '1.0.0' };
type Route = [key: string, method: string, url: (a: Attack) => string, init?: { headers?: Record<string, string>; body?: string }];
const ROUTES: Route[] = [
  ['GET', 'GET', (a) => `/api/resources${a.tail}`],
  ['checksum', 'GET', (a) => `/api/resources${a.tail}?checksum=sha256`],
  ['POST', 'POST', (a) => `/api/resources${a.tail}`, { body: 'PWNED' }],
  ['POST override', 'POST', (a) => `/api/resources${a.tail}?override=true`, { body: 'PWNED' }],
  ['PUT', 'PUT', (a) => `/api/resources${a.tail}`, { body: 'PWNED' }],
  ['DELETE', 'DELETE', (a) => `/api/resources${a.tail}`],
  ['copy src', 'PATCH', (a) => `/api/resources${a.tail}?action=copy&destination=${dest('/copied.txt')}`],
  ['move src', 'PATCH', (a) => `/api/resources${a.tail}?action=rename&destination=${dest('/moved.txt')}`],
  ['copy dst', 'PATCH', (a) => `/api/resources${a.from ?? '/docs/f.txt'}?action=copy&override=true&destination=${a.dest}`],
  ['move dst', 'PATCH', (a) => `/api/resources${a.from ?? '/docs/f.txt'}?action=rename&override=true&destination=${a.dest}`],
  ['recursive', 'GET', (a) => `/api/resources/recursive${a.tail}`],
  ['tree', 'GET', (a) => `/api/tree${a.tail}`],
  ['usage', 'GET', (a) => `/api/usage${a.tail}`],
  ['raw', 'GET', (a) => `/api/raw${a.tail}`],
  ['raw tar', 'GET', (a) => `/api/raw${a.tail}?algo=tar`],
  ['raw files=', 'GET', (a) => `/api/raw/?files=${a.files}&algo=zip`],
  ['thumb', 'GET', (a) => `/api/preview/thumb${a.tail}`],
  ['big', 'GET', (a) => `/api/preview/big${a.tail}`],
  ['search', 'GET', (a) => `/api/search${a.tail}?query=s`],
  ['tus POST', 'POST', (a) => `/api/tus${a.tail}`, { headers: { ...TUS, 'Upload-Length': '5' } }],
  ['tus HEAD', 'HEAD', (a) => `/api/tus${a.tail}`, { headers: TUS }],
  ['tus PATCH', 'PATCH', (a) => `/api/tus${a.tail}`, { headers: { ...TUS, 'Content-Type': 'application/offset+octet-stream', 'Upload-Offset': '0' }, body: 'PWNED' }],
  ['tus DELETE', 'DELETE', (a) => `/api/tus${a.tail}`, { headers: TUS }],
];
const enc = encodeURIComponent;
const TUS_404 = { 'tus HEAD': 404, 'tus PATCH': 404, 'tus DELETE': 404 }; // the path passes the checks; no upload is registered there
const link = (name: string, tail: string, target: string): Attack => ({ name, tail, dest: dest(target), files: enc(target), status: 403, except: TUS_404 });
const LIT = 'files/u1/%2e%2e%2fu2%2fsecret.txt';
const LIT_DST = 'files/u1/%2e%2e%2fu2%2fpwn.txt';

const ATTACKS: Attack[] = [
  { name: 'literal ..', tail: '/sub/../../u2/secret.txt', dest: dest('/../u2/pwn.txt'), files: '../u2/secret.txt', status: 404,
    except: { 'copy dst': 400, 'move dst': 400, 'raw files=': 400, thumb: 400, big: 400 } },
  { name: '%2e%2e segments', tail: '/sub/%2e%2e/%2e%2e/u2/secret.txt', dest: '%2e%2e%2fu2%2fpwn.txt', files: '%2e%2e%2fu2%2fsecret.txt', status: 404,
    except: { 'copy dst': 400, 'move dst': 400, 'raw files=': 400, thumb: 400, big: 400 } },
  { name: '%2f-encoded slashes', tail: '/..%2f..%2fu2%2fsecret.txt', dest: '..%252f..%252fu2%252fpwn.txt', files: '..%252fu2%252fsecret.txt', status: 400 },
  { name: '%2e%2e%2f in one segment', tail: '/%2e%2e%2f%2e%2e%2fu2%2fsecret.txt', dest: '%252e%252e%252fu2%252fpwn.txt', files: '%252e%252e%252fu2%252fsecret.txt', status: 400 },
  { name: 'double encoding stays a literal name', tail: '/%252e%252e%252fu2%252fsecret.txt', dest: '%25252e%25252e%25252fu2%25252fpwn.txt', files: '%25252e%25252e%25252fu2%25252fsecret.txt',
    status: 404, except: { POST: 200, 'POST override': 200, 'copy dst': 200, 'move dst': 200, 'tus POST': 201 },
    changes: { POST: [LIT], 'POST override': [LIT], 'copy dst': [LIT_DST], 'move dst': [LIT_DST, 'files/u1/docs/f.txt'], 'tus POST': ['files/u1/.filedeck-*.part'] } },
  { name: 'backslashes', tail: '/..%5C..%5Cu2%5Csecret.txt', dest: '..%255C..%255Cu2%255Cpwn.txt', files: '..%255Cu2%255Csecret.txt', status: 400 },
  { name: 'NUL byte', tail: '/docs/f.txt%00.png', dest: '%252Fdocs%252Fpwn%2500.txt', files: 'docs%252Ff.txt%2500', status: 400 },
  { name: 'control character', tail: '/docs/f.txt%0A', dest: '%252Fdocs%252Fpwn%250A', files: 'docs%252Ff.txt%250A', status: 400 },
  { name: 'overlong UTF-8 dots', tail: '/%c0%ae%c0%ae/u2/secret.txt', dest: '%25c0%25ae%25c0%25ae%252Fu2%252Fpwn.txt', files: '%25c0%25ae%25c0%25ae%252Fu2%252Fsecret.txt', status: 400 },
  { name: '// prefix', tail: '//u2/secret.txt', dest: '%252F%252Fu2%252Fpwn.txt', files: '%252F%252Fu2%252Fsecret.txt', status: 400 },
  { name: 'encoded leading slash', tail: '/%2Fu2%2Fsecret.txt', dest: '%2F%252Fu2%252Fpwn.txt', files: '%252F%252Fsecret.txt', status: 400 },
  { name: 'empty segment', tail: '/docs//f.txt', dest: dest('/docs//pwn.txt'), files: enc('/docs//f.txt'), status: 400 },
  link('symlink to an outside file', '/link-out', '/link-out'),
  link('symlink to a file of another scope', '/link-file', '/link-file'),
  link('relative symlink to another scope', '/rel', '/rel'),
  link('symlink to an outside folder', '/link-outdir', '/link-outdir'),
  link('file inside a symlinked folder', '/link-dir/secret.txt', '/link-dir/secret.txt'),
  link('new file inside a symlinked folder', '/link-outdir/pwn.txt', '/link-outdir/pwn.txt'),
  link('dangling symlink', '/dangle', '/dangle'),
  link('new file under a dangling folder link', '/dangle-dir/pwn.txt', '/dangle-dir/pwn.txt'),
  { name: 'allow rule without a directory boundary', tail: '/pub-private/s.txt', dest: dest('/pub-private/pwn.txt'), files: enc('/pub-private/s.txt'), from: '/pub/ok.txt',
    user: { rules: [{ allow: false, path: '/' }, { allow: true, path: '/pub' }] }, status: 403 },
];

/** A fresh app with u1 (scope /u1) and the fixture. */
async function setup(user: Record<string, unknown> = {}) {
  const t = await makeTestApp();
  build(t);
  const token = await fastUserToken(t, 'u1', {}, { scope: '/u1', ...user });
  return { t, token };
}

describe('path attacks on every route (peers.md §4.1)', () => {
  for (const a of ATTACKS)
    test(a.name, async () => {
      const { t, token } = await setup(a.user);
      try {
        const pristine = diskState(t);
        const got: { route: string; status: number; changed: string[]; leak?: boolean }[] = [];
        const want: typeof got = [];
        for (const [key, method, url, init] of ROUTES) {
          const res = await raw(t, method, url(a), { token, ...init });
          const body = new Uint8Array(await res.arrayBuffer());
          const row: (typeof got)[number] = { route: key, status: res.status, changed: diff(pristine, diskState(t)) };
          if (containsBytes(body, SECRET)) row.leak = true;
          got.push(row);
          want.push({ route: key, status: a.except?.[key] ?? a.status, changed: (a.changes?.[key] ?? []).slice().sort() });
          build(t); // every route starts from the same disk and no registered uploads
          await clearUploads(t);
        }
        expect(got).toEqual(want);
      } finally {
        await t.close();
      }
    }, 30_000); // 23 requests, each followed by a rebuild of the fixture: past bun's 5 s on a loaded machine
});

const listNames = async (t: TestApp, token: string, url: string) => (await (await raw(t, 'GET', url, { token })).json()).items.map((i: { name: string }) => i.name);
const outsideState = (t: TestApp) => Object.fromEntries(Object.entries(diskState(t)).filter(([k]) => !k.startsWith('files/u1/')));
/** No regular file under /u1 holds outside bytes. */
const noSecretInScope = (t: TestApp) =>
  expect(Object.entries(diskState(t)).filter(([k, v]) => k.startsWith('files/u1/') && v.startsWith('f:') && readFileSync(join(t.dir, k), 'utf8').includes(SECRET)).map(([k]) => k)).toEqual([]);

describe('symlinks inside folders', () => {
  const u1 = async (t: TestApp) => {
    build(t);
    return { u1: await fastUserToken(t, 'u1', {}, { scope: '/u1' }) };
  };
  // Reads only: one app for the four archives.
  runScenarios(
    'archives never follow links leaving the scope',
    u1,
    ([
      ['zip of a folder', '/api/raw/box?algo=zip', zipNames, ['ok.txt']],
      ['tar of a folder', '/api/raw/box?algo=tar', tarNames, ['ok.txt']],
      ['zip of a files= selection', `/api/raw/?files=${enc('/box,/docs/f.txt')}&algo=zip`, zipNames, ['box/', 'box/ok.txt', 'docs/f.txt']],
      ['tar of the whole scope', '/api/raw/?algo=tar', tarNames, ['box/', 'box/ok.txt', 'docs/', 'docs/f.txt', 'pub-private/', 'pub-private/s.txt', 'pub/', 'pub/ok.txt', 'sub/']],
    ] as const).map(([name, url, names, expected]): Scenario => ({
      name: `${name} never follows links leaving the scope`, as: 'u1', method: 'GET', url, status: 200,
      after: async (_t, _res, _text, body) => {
        expect(await names(body)).toEqual([...expected]);
        expect(containsBytes(body, SECRET)).toBe(false);
      },
    })),
    { shared: true },
  );

  test('listing, recursive listing and search omit links leaving the scope', async () => {
    const { t, token } = await setup();
    try {
      expect(await listNames(t, token, '/api/resources/')).toEqual(['box', 'docs', 'pub', 'pub-private', 'sub']);
      expect(await listNames(t, token, '/api/resources/box')).toEqual(['ok.txt']);
      const rec = await (await raw(t, 'GET', '/api/resources/recursive/', { token })).json();
      expect(rec.map((e: { path: string }) => e.path).sort()).toEqual(['/box', '/box/ok.txt', '/docs', '/docs/f.txt', '/pub', '/pub-private', '/pub-private/s.txt', '/pub/ok.txt', '/sub']);
      const found = await (await raw(t, 'GET', '/api/search/?query=', { token })).text();
      expect(found.split('\n').filter(Boolean).map((l) => JSON.parse(l).path).sort()).toEqual(['box', 'box/ok.txt', 'docs', 'docs/f.txt', 'pub', 'pub-private', 'pub-private/s.txt', 'pub/ok.txt', 'sub']);
    } finally {
      await t.close();
    }
  });

  // Each row changes the scope, so each gets its own app; nothing outside /u1 may change, no outside bytes land in it.
  const treeOp = (name: string, method: string, url: string, status: number, check: (t: TestApp, token: string) => Promise<void>): Scenario => {
    let outside: Record<string, string> = {};
    return {
      name: `${name} of a folder holding outside links touches nothing outside`, as: 'u1', method, url, status,
      before: (t) => void (outside = outsideState(t)),
      after: async (t, _res, _text, _bytes, v) => {
        expect(outsideState(t)).toEqual(outside);
        noSecretInScope(t);
        await check(t, v.u1!);
      },
    };
  };
  runScenarios('tree operations', u1, [
    treeOp('copy', 'PATCH', `/api/resources/box?action=copy&destination=${dest('/box2')}`, 200, async (t) => {
      const s = diskState(t);
      expect(Object.keys(s).filter((k) => k.startsWith('files/u1/box2'))).toEqual(['files/u1/box2', 'files/u1/box2/ok.txt']);
    }),
    treeOp('move', 'PATCH', `/api/resources/box?action=rename&destination=${dest('/box3')}`, 200, async (t, token) => {
      for (const p of ['/api/resources/box3/inner-link', '/api/raw/box3/inner-link', '/api/resources/box3/inner-dir', '/api/resources/box3/inner-rel'])
        expect({ p, status: (await raw(t, 'GET', p, { token })).status }).toEqual({ p, status: 403 });
    }),
    // For good: a delete into the trash moves the links as links (tests/api/trash.test.ts), this one removes them.
    treeOp('delete', 'DELETE', '/api/resources/box?permanent=true', 204, async (t) => expect(diskState(t)['files/u1/box']).toBeUndefined()),
  ]);

  test('a destination inside the source through an in-scope link is refused and creates nothing', async () => {
    const { t, token } = await setup();
    try {
      const got: { action: string; status: number; created: number; first: string[] }[] = [];
      for (const action of ['copy', 'rename']) {
        build(t);
        symlinkSync(join(t.root, 'u1/docs'), join(t.root, 'u1/docs-link')); // /docs-link/inner is really /docs/inner
        const before = diskState(t);
        const res = await raw(t, 'PATCH', `/api/resources/docs?action=${action}&destination=${dest('/docs-link/inner')}`, { token });
        const d = diff(before, diskState(t));
        got.push({ action, status: res.status, created: d.length, first: d.slice(0, 2) });
      }
      expect(got).toEqual(['copy', 'rename'].map((action) => ({ action, status: 400, created: 0, first: [] })));
    } finally {
      await t.close();
    }
  }, 30_000); // while the bug lasts, the copy recurses ~700 levels before failing
});

describe('tus and a folder swapped for an outside link', () => {
  test('an upload whose folder becomes a link to outside never lands outside', async () => {
    const { t, token } = await setup();
    try {
      const created = await raw(t, 'POST', '/api/tus/docs/up.bin', { token, headers: { ...TUS, 'Upload-Length': '5' } });
      expect(created.status).toBe(201);
      renameSync(join(t.root, 'u1/docs'), join(t.root, 'u1/docs-old'));
      symlinkSync(join(t.dir, 'outside'), join(t.root, 'u1/docs'));
      const before = outsideState(t);
      const res = await raw(t, 'PATCH', '/api/tus/docs/up.bin', { token, headers: { ...TUS, 'Content-Type': 'application/offset+octet-stream', 'Upload-Offset': '0' }, body: 'PWNED' });
      expect([403, 404]).toContain(res.status);
      expect(outsideState(t)).toEqual(before);
    } finally {
      await t.close();
    }
  });
});

describe('zip-slip: names with backslashes', () => {
  const tree = { 'zs/a\\..\\..\\evil.txt': 'e1', 'zs/..\\..\\evil2.txt': 'e2', 'zs/b\\c.txt': 'e3', 'zs/d\\e/f.txt': 'e4', 'zs/ok.txt': 'ok' };
  for (const [algo, names] of [['zip', zipNames], ['tar', tarNames]] as const)
    test(`${algo} entry names carry no backslash and no .. segment`, async () => {
      const { t, token } = await setup();
      try {
        put(join(t.root, 'u1'), tree);
        for (const url of [`/api/raw/zs?algo=${algo}`, `/api/raw/?files=${enc('/zs')}&algo=${algo}`]) {
          const res = await raw(t, 'GET', url, { token });
          expect(res.status).toBe(200);
          const entries = await names(new Uint8Array(await res.arrayBuffer()));
          expect({ url, unsafe: entries.filter(unsafeEntry) }).toEqual({ url, unsafe: [] });
          expect(entries.filter((n) => !n.endsWith('/')).length).toBe(5);
        }
        // Such names cannot be addressed (a backslash in a path is refused), so they cannot be created either.
        expect((await raw(t, 'POST', '/api/resources/a%5C..%5C..%5Cevil.txt', { token, body: 'x' })).status).toBe(400);
      } finally {
        await t.close();
      }
    });
});
