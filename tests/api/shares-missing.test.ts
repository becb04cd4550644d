import { afterEach, describe, expect, test } from 'bun:test';
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Share } from '../../server/contract/share';
import { authorizePath } from '../../server/services/policy/file-policy';
import { cli } from '../helpers/binary';
import { ADMIN_PASSWORD, makeTestApp, type TestApp } from '../helpers/test-app';

/**
 * Issue 32, high: nothing is destroyed because something is missing. A files root not mounted yet (missing, or an
 * empty mount point), another disk in its place, a CLI run with another --root, a narrowed scope or a new rule
 * made links disappear for good as soon as shares were listed. Now such a link answers 404/403, stays in every
 * listing with its state, and serves its own item again once it is back; a different item at its path never is.
 */
let t: TestApp;
afterEach(async () => {
  await t?.close();
});

const put = (root: string, files: Record<string, string>) => {
  for (const [p, body] of Object.entries(files)) {
    mkdirSync(join(root, p, '..'), { recursive: true });
    writeFileSync(join(root, p), body);
  }
};

/** bob (scope /bob) links a file and a folder. */
async function setup() {
  t = await makeTestApp();
  put(t.root, { 'bob/docs/a.txt': 'alpha', 'bob/docs/b.txt': 'beta', 'bob/other/c.txt': 'gamma' });
  const bob = await t.userToken('bob', {}, { scope: '/bob' });
  const admin = await t.adminToken();
  const share = async (path: string) => {
    const r = await t.req('POST', `/api/share${path}`, { token: bob, body: {} });
    expect(r.status).toBe(200);
    return ((await r.json()) as Share).hash;
  };
  return { bob, admin, file: await share('/docs/a.txt'), folder: await share('/docs') };
}

const dl = (hash: string, sub = '') => t.req('GET', `/api/public/dl/${hash}${sub}`);
/** Each listed link's state, by hash. */
async function states(token: string): Promise<Record<string, string | undefined>> {
  const r = await t.req('GET', '/api/shares', { token });
  expect(r.status).toBe(200);
  return Object.fromEntries(((await r.json()) as Share[]).map((s) => [s.hash, s.state]));
}
const rowCount = async () => (await t.s.stores.shares.all()).length;

describe('a link is never destroyed because its item is missing', () => {
  for (const how of ['an empty mount point', 'no folder at all'] as const) {
    test(`the files root taken away (${how}): 404, kept and listed as missing by admin and owner; served again when it is back`, async () => {
      const { bob, admin, file, folder } = await setup();
      const away = `${t.root}.away`;
      renameSync(t.root, away); // the disk is not mounted (yet)
      if (how === 'an empty mount point') mkdirSync(t.root);
      expect((await dl(file)).status).toBe(404);
      expect((await dl(folder, '/b.txt')).status).toBe(404);
      expect((await t.req('GET', `/api/public/share/${folder}/`)).status).toBe(404);
      expect(await states(admin)).toEqual({ [file]: 'missing', [folder]: 'missing' });
      expect(await states(bob)).toEqual({ [file]: 'missing', [folder]: 'missing' });
      expect(await rowCount()).toBe(2);
      rmSync(t.root, { recursive: true, force: true });
      renameSync(away, t.root); // the disk is back
      expect(await (await dl(file)).text()).toBe('alpha');
      expect(await (await dl(folder, '/b.txt')).text()).toBe('beta');
      expect(await states(admin)).toEqual({ [file]: 'ok', [folder]: 'ok' });
    });
  }

  test('another disk at the root, with its own files at the shared paths, is never served; the links wait for theirs', async () => {
    const { admin, file, folder } = await setup();
    const away = `${t.root}.away`;
    renameSync(t.root, away);
    put(t.root, { 'bob/docs/a.txt': 'IMPOSTOR', 'bob/docs/b.txt': 'IMPOSTOR' });
    for (const r of [await dl(file), await dl(folder, '/b.txt'), await t.req('GET', `/api/public/share/${folder}/`)]) {
      expect(r.status).toBe(404);
      expect(await r.text()).not.toContain('IMPOSTOR');
    }
    expect(await states(admin)).toEqual({ [file]: 'missing', [folder]: 'missing' });
    rmSync(t.root, { recursive: true, force: true });
    renameSync(away, t.root);
    expect(await (await dl(file)).text()).toBe('alpha');
    expect(await (await dl(folder, '/b.txt')).text()).toBe('beta');
  });

  test('a narrowed scope, a deny rule, a lost permission and the trash stop a link (404/403) without ending it', async () => {
    const { bob, admin, file, folder } = await setup();
    const bobId = (await t.s.stores.users.byUsername('bob'))!.id;
    const change = async (data: Record<string, unknown>) => {
      const which = Object.keys(data);
      const r = await t.req('PUT', `/api/users/${bobId}`, { token: admin, body: { what: 'user', which, current_password: ADMIN_PASSWORD, data: { id: bobId, ...data } } });
      expect(r.status).toBe(200);
    };
    await change({ scope: '/bob/other' });
    expect((await dl(file)).status).toBe(404);
    expect(await states(admin)).toEqual({ [file]: 'unreachable', [folder]: 'unreachable' });
    await change({ scope: '/bob' });
    expect(await (await dl(file)).text()).toBe('alpha');
    await change({ rules: [{ allow: false, regex: false, path: '/docs', regexp: null }] });
    expect((await dl(file)).status).toBe(403);
    expect((await dl(folder, '/b.txt')).status).toBe(403);
    expect(await states(admin)).toEqual({ [file]: 'unreachable', [folder]: 'unreachable' });
    await change({ rules: [] });
    const perm = (await t.s.stores.users.byId(bobId))!.perm;
    await change({ perm: { ...perm, share: false } });
    expect((await dl(file)).status).toBe(403);
    expect(await states(admin)).toEqual({ [file]: 'unreachable', [folder]: 'unreachable' });
    await change({ perm });
    const bobNow = await t.login('bob', 'bobs-long-password-4410');
    expect((await t.req('DELETE', '/api/resources/docs/a.txt', { token: bobNow })).status).toBe(204); // into the trash
    expect((await dl(file)).status).toBe(404);
    expect(await states(admin)).toEqual({ [file]: 'trashed', [folder]: 'ok' });
    expect(await rowCount()).toBe(2);
    void bob;
  });

  test('`filedeck shares ls` with another --root lists every link (missing there) and deletes none', async () => {
    const { file, folder } = await setup();
    const other = join(t.dir, 'another-root');
    mkdirSync(other);
    const ls = await cli(['-d', t.database, '-r', other, 'shares', 'ls', '--json'], { cwd: t.dir });
    expect(ls.stderr).toBe('');
    expect(ls.code).toBe(0);
    const listed = JSON.parse(ls.stdout) as Share[];
    expect(Object.fromEntries(listed.map((s) => [s.hash, s.state]))).toEqual({ [file]: 'missing', [folder]: 'missing' });
    expect(await rowCount()).toBe(2);
    expect(await (await dl(file)).text()).toBe('alpha');
    // With the right root, a link added by the CLI is listed at once.
    const add = await cli(['-d', t.database, '-r', t.root, 'shares', 'add', '/other/c.txt', '--user', 'bob', '--json'], { cwd: t.dir });
    expect(add.code).toBe(0);
    const added = (JSON.parse(add.stdout) as Share).hash;
    const again = await cli(['-d', t.database, '-r', t.root, 'shares', 'ls', '--json'], { cwd: t.dir });
    expect((JSON.parse(again.stdout) as Share[]).map((s) => [s.hash, s.state]).sort()).toEqual([[added, 'ok'], [file, 'ok'], [folder, 'ok']].sort());
  });
});

describe('who may reach a public share is decided by SharesService.open alone', () => {
  const creds = { password: null, token: null, address: '127.0.0.1' };

  test('a file link: the visitor may download that one file, nothing else, whatever path is asked', async () => {
    const { file } = await setup();
    const ps = await t.s.shares.open(file, '/../b.txt', creds);
    expect({ path: ps.path, shown: ps.shown, isDir: ps.isDir, selectable: ps.selectable }).toEqual({ path: '/docs/a.txt', shown: '/', isDir: false, selectable: false });
    expect(ps.actor.can('download')).toBe(true);
    for (const p of ['modify', 'delete', 'create', 'rename', 'share', 'admin', 'execute'] as const) expect(ps.actor.can(p)).toBe(false);
    expect(ps.actor.allows('/docs/a.txt')).toBe(true);
    for (const p of ['/docs/b.txt', '/docs', '/other/c.txt', '/']) expect(() => authorizePath(ps.actor, 'download', p)).toThrow();
    // Through HTTP, a selection asked of a file link still gets the file, never a sibling.
    const r = await dl(file, '/?files=b.txt');
    expect(await r.text()).toBe('alpha');
  });

  test('a folder link: download only, inside the shared folder', async () => {
    const { folder } = await setup();
    const ps = await t.s.shares.open(folder, '/b.txt', creds);
    expect({ path: ps.path, shown: ps.shown, isDir: ps.isDir, selectable: ps.selectable }).toEqual({ path: '/b.txt', shown: '/b.txt', isDir: true, selectable: true });
    for (const p of ['modify', 'delete', 'create', 'rename', 'share', 'admin', 'execute'] as const) expect(ps.actor.can(p)).toBe(false);
    expect(() => authorizePath(ps.actor, 'delete', '/b.txt')).toThrow();
    expect((await ps.actor.fs.stat('/b.txt')).real).toBe(join(t.root, 'bob/docs/b.txt'));
    await expect(ps.actor.fs.stat('/../other/c.txt')).rejects.toThrow();
  });
});
