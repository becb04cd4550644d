import { expect } from 'bun:test';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, TEXT, dest, fastUserToken, png, put, registerUpload, sha256, tarNames, userId, zipNames } from '../helpers/files-fixture';
import { runScenarios, type Scenario } from '../helpers/scenario';
import type { TestApp } from '../helpers/test-app';

// Every file endpoint x every kind of caller. A refused call (401/403) must leave the disk exactly as it was.
type Perm = 'create' | 'rename' | 'modify' | 'delete' | 'share' | 'download';
interface Ctx { t: TestApp; res: Response; body: Uint8Array; text: string; perms: Set<Perm> }
interface Op {
  name: string;
  method: string;
  url: string;
  body?: string;
  headers?: Record<string, string>;
  needs: Perm[];
  ok: number;
  /** Success changes the disk (otherwise the disk must stay as it was, whatever the answer). */
  mutates?: boolean;
  /** Registers a tus upload for the caller before the request. */
  upload?: boolean;
  check?: (c: Ctx) => void | Promise<void>;
}

const ALL: Perm[] = ['create', 'rename', 'modify', 'delete', 'share', 'download'];
// share requires download (the server refuses the combination), so the no-download user also lacks share.
const ROLES: { name: string; perm?: Partial<Record<Perm, boolean>> }[] = [
  { name: 'admin' },
  { name: 'user', perm: {} },
  ...ALL.map((p) => ({ name: `no-${p}`, perm: p === 'download' ? { download: false, share: false } : { [p]: false } })),
  { name: 'anon' },
];

const file = (t: TestApp, rel: string) => readFileSync(join(t.root, rel), 'utf8');
const has = (t: TestApp, rel: string) => existsSync(join(t.root, rel));
const json = (c: Ctx) => JSON.parse(c.text);
const TUS = { 'Tus-Resumable': '1.0.0' };
const OFFSET = { ...TUS, 'Content-Type': 'application/offset+octet-stream', 'Upload-Offset': '0' };

const fixture = async (t: TestApp) =>
  put(t.root, { 'docs/note.txt': TEXT, 'docs/data.bin': BIN, 'docs/pic.png': await png(), 'docs/sub/deep.txt': 'deep\n', 'empty/': '' });

const OPS: Op[] = [
  { name: 'GET text file', method: 'GET', url: '/api/resources/docs/note.txt', needs: [], ok: 200,
    check: (c) => {
      const r = json(c);
      expect(r.type).toBe(c.perms.has('modify') ? 'text' : 'textImmutable');
      if (c.perms.has('download')) expect(r.content).toBe(TEXT);
      else expect('content' in r).toBe(false);
    } },
  { name: 'GET listing', method: 'GET', url: '/api/resources/docs/', needs: [], ok: 200,
    check: (c) => expect(json(c).items.map((i: { name: string }) => i.name)).toEqual(['sub', 'data.bin', 'note.txt', 'pic.png']) },
  { name: 'GET checksum', method: 'GET', url: '/api/resources/docs/data.bin?checksum=sha256', needs: ['download'], ok: 200,
    check: (c) => expect(json(c)).toMatchObject({ checksums: { sha256: sha256(BIN) } }) },
  { name: 'POST new file', method: 'POST', url: '/api/resources/docs/new.txt', body: 'new body', needs: ['create'], ok: 200, mutates: true,
    check: (c) => expect(file(c.t, 'docs/new.txt')).toBe('new body') },
  { name: 'POST new folder', method: 'POST', url: '/api/resources/newdir/', needs: ['create'], ok: 200, mutates: true,
    check: (c) => expect(statSync(join(c.t.root, 'newdir')).isDirectory()).toBe(true) },
  { name: 'POST over a file without override', method: 'POST', url: '/api/resources/docs/note.txt', body: 'x', needs: ['create'], ok: 409 },
  { name: 'POST override', method: 'POST', url: '/api/resources/docs/note.txt?override=true', body: 'replaced', needs: ['create', 'modify'], ok: 200, mutates: true,
    check: (c) => expect(file(c.t, 'docs/note.txt')).toBe('replaced') },
  { name: 'PUT save', method: 'PUT', url: '/api/resources/docs/note.txt', body: 'saved', needs: ['modify'], ok: 200, mutates: true,
    check: (c) => expect(file(c.t, 'docs/note.txt')).toBe('saved') },
  { name: 'PUT missing file', method: 'PUT', url: '/api/resources/docs/nope.txt', body: 'x', needs: ['modify'], ok: 404 },
  { name: 'DELETE file', method: 'DELETE', url: '/api/resources/docs/data.bin', needs: ['delete'], ok: 204, mutates: true,
    check: (c) => expect([has(c.t, 'docs/data.bin'), has(c.t, 'docs/note.txt')]).toEqual([false, true]) },
  { name: 'DELETE folder', method: 'DELETE', url: '/api/resources/docs/sub', needs: ['delete'], ok: 204, mutates: true,
    check: (c) => expect([has(c.t, 'docs/sub'), has(c.t, 'docs')]).toEqual([false, true]) },
  { name: 'PATCH copy', method: 'PATCH', url: `/api/resources/docs/note.txt?action=copy&destination=${dest('/copy of note.txt')}`, needs: ['create'], ok: 200, mutates: true,
    check: (c) => expect([file(c.t, 'copy of note.txt'), file(c.t, 'docs/note.txt')]).toEqual([TEXT, TEXT]) },
  { name: 'PATCH copy keep both', method: 'PATCH', url: `/api/resources/docs/note.txt?action=copy&destination=${dest('/docs/note.txt')}&rename=true`, needs: ['create'], ok: 200, mutates: true,
    check: (c) => expect(file(c.t, 'docs/note(1).txt')).toBe(TEXT) },
  { name: 'PATCH copy conflict', method: 'PATCH', url: `/api/resources/docs/note.txt?action=copy&destination=${dest('/docs/sub/deep.txt')}`, needs: ['create'], ok: 409 },
  { name: 'PATCH copy override', method: 'PATCH', url: `/api/resources/docs/note.txt?action=copy&destination=${dest('/docs/sub/deep.txt')}&override=true`, needs: ['create', 'modify'], ok: 200, mutates: true,
    check: (c) => expect([file(c.t, 'docs/sub/deep.txt'), file(c.t, 'docs/note.txt')]).toEqual([TEXT, TEXT]) },
  { name: 'PATCH rename', method: 'PATCH', url: `/api/resources/docs/note.txt?action=rename&destination=${dest('/empty/mo ved.txt')}`, needs: ['rename'], ok: 200, mutates: true,
    check: (c) => expect([file(c.t, 'empty/mo ved.txt'), has(c.t, 'docs/note.txt')]).toEqual([TEXT, false]) },
  { name: 'PATCH rename override', method: 'PATCH', url: `/api/resources/docs/note.txt?action=rename&destination=${dest('/docs/sub/deep.txt')}&override=true`, needs: ['rename', 'modify'], ok: 200, mutates: true,
    check: (c) => expect([file(c.t, 'docs/sub/deep.txt'), has(c.t, 'docs/note.txt')]).toEqual([TEXT, false]) },
  { name: 'PATCH unknown action', method: 'PATCH', url: `/api/resources/docs/note.txt?action=chmod&destination=${dest('/x')}`, needs: [], ok: 400 },
  { name: 'GET recursive', method: 'GET', url: '/api/resources/recursive/docs', needs: [], ok: 200,
    check: (c) => expect(json(c).map((e: { path: string }) => e.path).sort()).toEqual(['/docs/data.bin', '/docs/note.txt', '/docs/pic.png', '/docs/sub', '/docs/sub/deep.txt']) },
  { name: 'GET usage', method: 'GET', url: '/api/usage/docs', needs: [], ok: 200, check: (c) => expect(json(c).total).toBeGreaterThan(0) },
  { name: 'GET raw file', method: 'GET', url: '/api/raw/docs/data.bin', needs: ['download'], ok: 200, check: (c) => expect(c.body).toEqual(BIN) },
  { name: 'GET raw folder zip', method: 'GET', url: '/api/raw/docs?algo=zip', needs: ['download'], ok: 200,
    check: async (c) => expect(await zipNames(c.body)).toEqual(['data.bin', 'note.txt', 'pic.png', 'sub/', 'sub/deep.txt']) },
  { name: 'GET raw files= tar', method: 'GET', url: `/api/raw/?files=${encodeURIComponent('/docs/note.txt,/docs/sub')}&algo=tar`, needs: ['download'], ok: 200,
    check: async (c) => expect(await tarNames(c.body)).toEqual(['note.txt', 'sub/', 'sub/deep.txt']) },
  { name: 'GET preview thumb', method: 'GET', url: '/api/preview/thumb/docs/pic.png', needs: ['download'], ok: 200,
    check: (c) => expect([...c.body.slice(0, 3)]).toEqual([0xff, 0xd8, 0xff]) },
  { name: 'GET preview big', method: 'GET', url: '/api/preview/big/docs/pic.png', needs: ['download'], ok: 200,
    check: async (c) => expect(c.body).toEqual(await png()) },
  { name: 'GET search', method: 'GET', url: '/api/search/docs?query=deep', needs: [], ok: 200, check: (c) => expect(c.text).toBe('{"dir":false,"path":"sub/deep.txt"}\n') },
  { name: 'tus POST', method: 'POST', url: '/api/tus/docs/up.bin', headers: { ...TUS, 'Upload-Length': '5' }, needs: ['create'], ok: 201, mutates: true,
    check: (c) => {
      expect(c.res.headers.get('location')).toBe('/api/tus/docs/up.bin');
      expect(has(c.t, 'docs/up.bin')).toBe(false);
      expect(readdirSync(join(c.t.root, 'docs')).filter((n) => n.endsWith('.part')).length).toBe(1);
    } },
  { name: 'tus POST override', method: 'POST', url: '/api/tus/docs/note.txt?override=true', headers: { ...TUS, 'Upload-Length': '3' }, needs: ['create', 'modify'], ok: 201, mutates: true,
    check: (c) => expect(file(c.t, 'docs/note.txt')).toBe(TEXT) }, // untouched until the upload completes
  { name: 'tus HEAD', method: 'HEAD', url: '/api/tus/docs/up.bin', upload: true, needs: ['create'], ok: 200,
    check: (c) => expect([c.res.headers.get('upload-offset'), c.res.headers.get('upload-length')]).toEqual(['0', '5']) },
  { name: 'tus PATCH', method: 'PATCH', url: '/api/tus/docs/up.bin', upload: true, headers: OFFSET, body: '12345', needs: ['create'], ok: 204, mutates: true,
    check: (c) => expect(file(c.t, 'docs/up.bin')).toBe('12345') },
  { name: 'tus DELETE', method: 'DELETE', url: '/api/tus/docs/up.bin', upload: true, headers: TUS, needs: ['create'], ok: 204, mutates: true,
    check: (c) => expect(readdirSync(join(c.t.root, 'docs')).filter((n) => n.endsWith('.part') || n === 'up.bin')).toEqual([]) },
];

/** The caller of a matrix row: admin and anon as they are, any other role a user created for that row alone. */
const caller = (role: (typeof ROLES)[number]): Scenario['as'] =>
  role.name === 'admin' || role.name === 'anon' ? role.name : async (t) => ({ 'X-Auth': await fastUserToken(t, role.name, role.perm) });

const MATRIX: Scenario[] = OPS.flatMap((op) =>
  ROLES.map((role): Scenario => {
    const perms = new Set<Perm>(role.name === 'admin' ? ALL : ALL.filter((p) => role.perm?.[p] !== false));
    const expected = role.name === 'anon' ? 401 : op.needs.some((p) => !perms.has(p)) ? 403 : op.ok;
    const owner = role.name === 'anon' ? 'admin' : role.name;
    return {
      name: `${op.name} as ${role.name} -> ${expected}`,
      as: caller(role),
      method: op.method,
      url: op.url,
      raw: op.body,
      headers: op.headers,
      before: op.upload ? async (t) => void (await registerUpload(t, await userId(t, owner), '/docs/up.bin', 5, join(t.root, 'docs'))) : undefined,
      status: expected,
      disk: expected >= 400 || !op.mutates ? { under: '', after: 'same' } : undefined,
      after: async (t, res, text, body) => {
        if (expected === 403 && op.method !== 'HEAD') expect(text).toStartWith('403 Forbidden');
        if (op.upload && expected >= 400) expect((await t.s.stores.uploads.get(await userId(t, owner), '/docs/up.bin'))).not.toBeNull();
        if (expected < 300) await op.check?.({ t, res, body, text, perms });
      },
    };
  }),
);

runScenarios('file API permission matrix', async (t) => (await fixture(t), {}), MATRIX);

// Rules: global deny /private, /priv and \.secret$; the user re-allows /private/open (but not its inbox/locked)
// and hides dotfiles.
const SECRET = 'TOP-SECRET-rules-4821';
const rulesFixture = async (t: TestApp) =>
  put(t.root, {
    'private/secret.txt': SECRET, 'private/p.png': await png(), 'private/open/ok.txt': 'open\n', 'private-notes/n.txt': 'notes\n', 'priv/p.txt': SECRET,
    'docs/visible.txt': 'visible\n', 'docs/a.secret': SECRET, 'docs/.hidden': SECRET, 'docs/.dotdir/inner.txt': 'inner\n',
    'mixed/ok.txt': 'ok\n', 'mixed/deep/x.secret': SECRET, 'drop/locked/f.txt': 'drop\n',
  });
const GLOBAL_RULES = [{ allow: false, path: '/private' }, { allow: false, path: '/priv' }, { allow: false, regex: true, regexp: { raw: '\\.secret$' } }];
const USER_RULES = [{ allow: true, path: '/private/open' }, { allow: false, path: '/private/open/inbox/locked' }];

interface RuleRow { name: string; method?: string; url: string; body?: string; headers?: Record<string, string>; status: number; check?: (c: Ctx) => void | Promise<void> }
const names = (c: Ctx) => json(c).items.map((i: { name: string }) => i.name);
const lines = (c: Ctx) => c.text.split('\n').filter(Boolean).map((l) => JSON.parse(l).path).sort();
const exists = (rel: string, want = true) => (c: Ctx) => expect(has(c.t, rel)).toBe(want);
const patch = (src: string, action: string, to: string) => `/api/resources${src}?action=${action}&destination=${dest(to)}`;

const RULE_ROWS: RuleRow[] = [
  { name: 'root listing drops denied and boundary-matched siblings survive', url: '/api/resources/', status: 200, check: (c) => expect(names(c)).toEqual(['docs', 'drop', 'mixed', 'private-notes']) },
  { name: 'listing drops regex-denied and dotfiles', url: '/api/resources/docs/', status: 200, check: (c) => expect(names(c)).toEqual(['visible.txt']) },
  { name: 'user allow overrides global deny', url: '/api/resources/private/open/', status: 200, check: (c) => expect(names(c)).toEqual(['ok.txt']) },
  { name: 'file under the user allow', url: '/api/resources/private/open/ok.txt', status: 200, check: (c) => expect(json(c).content).toBe('open\n') },
  { name: '/priv rule does not match /private-notes', url: '/api/resources/private-notes/n.txt', status: 200 },
  { name: 'file inside a dot-folder is not itself hidden', url: '/api/resources/docs/.dotdir/inner.txt', status: 200 },
  ...['/private', '/private/secret.txt', '/priv/p.txt', '/docs/a.secret', '/docs/.hidden', '/docs/.dotdir'].map((p) => ({ name: `GET ${p} denied`, url: `/api/resources${p}`, status: 403 })),
  { name: 'raw denied file', url: '/api/raw/private/secret.txt', status: 403 },
  { name: 'raw regex-denied file', url: '/api/raw/docs/a.secret', status: 403 },
  { name: 'raw hidden dotfile', url: '/api/raw/docs/.hidden', status: 403 },
  { name: 'raw files= with a denied entry', url: `/api/raw/?files=${encodeURIComponent('/docs/visible.txt,/docs/a.secret')}&algo=zip`, status: 403 },
  { name: 'preview denied image', url: '/api/preview/thumb/private/p.png', status: 403 },
  { name: 'checksum of a denied file', url: '/api/resources/docs/a.secret?checksum=md5', status: 403 },
  { name: 'usage of a denied folder', url: '/api/usage/private', status: 403 },
  { name: 'recursive of a denied folder', url: '/api/resources/recursive/private', status: 403 },
  { name: 'search in a denied folder', url: '/api/search/private?query=', status: 403 },
  { name: 'POST into a denied folder', method: 'POST', url: '/api/resources/private/new.txt', body: 'x', status: 403 },
  { name: 'POST a regex-denied name', method: 'POST', url: '/api/resources/docs/new.secret', body: 'x', status: 403 },
  { name: 'POST a dotfile', method: 'POST', url: '/api/resources/docs/.newdot', body: 'x', status: 403 },
  { name: 'POST a folder under /priv', method: 'POST', url: '/api/resources/priv/x/', status: 403 },
  { name: 'POST under the user allow', method: 'POST', url: '/api/resources/private/open/new.txt', body: 'x', status: 200, check: exists('private/open/new.txt') },
  { name: 'POST next to a prefix-matching rule', method: 'POST', url: '/api/resources/private-notes/m.txt', body: 'x', status: 200, check: exists('private-notes/m.txt') },
  { name: 'PUT a denied file', method: 'PUT', url: '/api/resources/private/secret.txt', body: 'x', status: 403 },
  { name: 'PUT a regex-denied file', method: 'PUT', url: '/api/resources/docs/a.secret', body: 'x', status: 403 },
  { name: 'PUT a hidden dotfile', method: 'PUT', url: '/api/resources/docs/.hidden', body: 'x', status: 403 },
  { name: 'DELETE a denied file', method: 'DELETE', url: '/api/resources/private/secret.txt', status: 403 },
  { name: 'DELETE a regex-denied file', method: 'DELETE', url: '/api/resources/docs/a.secret', status: 403 },
  { name: 'DELETE a hidden dotfile', method: 'DELETE', url: '/api/resources/docs/.hidden', status: 403 },
  { name: 'DELETE a folder with a denied descendant', method: 'DELETE', url: '/api/resources/mixed', status: 403 },
  { name: 'DELETE an allowed folder', method: 'DELETE', url: '/api/resources/private-notes', status: 204, check: exists('private-notes', false) },
  ...[['/private/v.txt', 'denied folder'], ['/priv/v.txt', '/priv'], ['/docs/v.secret', 'regex'], ['/docs/.v', 'dotfile']].map(([to, why]) => ({
    name: `copy to a ${why} destination`, method: 'PATCH', url: patch('/docs/visible.txt', 'copy', to!), status: 403 })),
  { name: 'move to a denied destination', method: 'PATCH', url: patch('/docs/visible.txt', 'rename', '/private/v.txt'), status: 403 },
  { name: 'copy next to a prefix-matching rule', method: 'PATCH', url: patch('/docs/visible.txt', 'copy', '/private-notes/v.txt'), status: 200, check: exists('private-notes/v.txt') },
  { name: 'copy under the user allow', method: 'PATCH', url: patch('/docs/visible.txt', 'copy', '/private/open/v.txt'), status: 200, check: exists('private/open/v.txt') },
  { name: 'move a denied source', method: 'PATCH', url: patch('/private/secret.txt', 'rename', '/docs/s.txt'), status: 403 },
  { name: 'copy a regex-denied source', method: 'PATCH', url: patch('/docs/a.secret', 'copy', '/docs/a.txt'), status: 403 },
  { name: 'move a hidden source', method: 'PATCH', url: patch('/docs/.hidden', 'rename', '/docs/h.txt'), status: 403 },
  { name: 'copy a folder with a denied descendant', method: 'PATCH', url: patch('/mixed', 'copy', '/mixed2'), status: 403 },
  { name: 'move a folder with a denied descendant', method: 'PATCH', url: patch('/mixed', 'rename', '/mixed2'), status: 403 },
  { name: 'copy a folder whose descendant would land on a denied path', method: 'PATCH', url: patch('/drop', 'copy', '/private/open/inbox'), status: 403 },
  { name: 'move a folder whose descendant would land on a denied path', method: 'PATCH', url: patch('/drop', 'rename', '/private/open/inbox'), status: 403 },
  { name: 'zip of a folder skips denied and hidden entries', url: '/api/raw/docs?algo=zip', status: 200, check: async (c) => expect(await zipNames(c.body)).toEqual(['visible.txt']) },
  { name: 'tar of the root skips denied subtrees', url: '/api/raw/?algo=tar', status: 200,
    check: async (c) => {
      expect(await tarNames(c.body)).toEqual(['docs/', 'docs/visible.txt', 'drop/', 'drop/locked/', 'drop/locked/f.txt', 'mixed/', 'mixed/deep/', 'mixed/ok.txt', 'private-notes/', 'private-notes/n.txt']);
      expect(Buffer.from(c.body).includes(SECRET)).toBe(false);
    } },
  { name: 'search never reports denied or hidden entries', url: '/api/search/?query=', status: 200,
    check: (c) => expect(lines(c)).toEqual(['docs', 'docs/visible.txt', 'drop', 'drop/locked', 'drop/locked/f.txt', 'mixed', 'mixed/deep', 'mixed/ok.txt', 'private-notes', 'private-notes/n.txt', 'private/open', 'private/open/ok.txt']) },
  { name: 'search for "secret" finds nothing', url: '/api/search/?query=secret', status: 200, check: (c) => expect(c.text).toBe('') },
  { name: 'recursive listing skips denied and hidden entries', url: '/api/resources/recursive/', status: 200,
    check: (c) => expect(json(c).map((e: { path: string }) => e.path).sort()).toEqual(['/docs', '/docs/visible.txt', '/drop', '/drop/locked', '/drop/locked/f.txt', '/mixed', '/mixed/deep', '/mixed/ok.txt', '/private-notes', '/private-notes/n.txt']) },
  { name: 'tus into a denied folder', method: 'POST', url: '/api/tus/private/x.bin', headers: { ...TUS, 'Upload-Length': '1' }, status: 403 },
  { name: 'tus a hidden name', method: 'POST', url: '/api/tus/docs/.x', headers: { ...TUS, 'Upload-Length': '1' }, status: 403 },
  { name: 'tus under the user allow', method: 'POST', url: '/api/tus/private/open/x.bin', headers: { ...TUS, 'Upload-Length': '0' }, status: 201, check: exists('private/open/x.bin') },
];

runScenarios(
  'rules and hidden dotfiles',
  async (t) => {
    await rulesFixture(t);
    return { rita: await fastUserToken(t, 'rita', {}, { rules: USER_RULES, hideDotfiles: true }) };
  },
  RULE_ROWS.map((row): Scenario => ({
    name: `${row.name} -> ${row.status}`,
    as: 'rita',
    method: row.method ?? 'GET',
    url: row.url,
    raw: row.body,
    headers: row.headers,
    status: row.status,
    disk: row.status >= 400 || (row.method ?? 'GET') === 'GET' ? { under: '', after: 'same' } : undefined,
    after: async (t, res, text, body) => {
      if (row.status < 400) expect(text).not.toContain(SECRET);
      await row.check?.({ t, res, body, text, perms: new Set(ALL) });
    },
  })),
  { settings: { rules: GLOBAL_RULES } },
);
