/**
 * Small folders remembered between listings (server/fs/folder-cache.ts, used by readFolderAt): a listing must be
 * exactly what a fresh read gives, right after any change made by another process (the very next request), for
 * every user under their own scope, rules and hidden names; the watches stay bounded.
 */
import { afterEach, describe, expect, test } from 'bun:test';
import { appendFileSync, chmodSync, linkSync, lstatSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, symlinkSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FOLDER_CACHE_TTL_MS, folderCacheCounts, onFolderEvent, useFolderCache } from '../../server/fs/folder-cache';
import { IN_Q_OVERFLOW, parseEvents, watchCount } from '../../server/fs/inotify';
import { makeTestApp, type TestApp } from '../helpers/test-app';

let t: TestApp;
afterEach(() => t?.close());

type Item = { name: string; size: number; modified: string; mode: number; isDir: boolean; isSymlink: boolean };
const list = async (path: string, token: string) => {
  const r = await t.req('GET', `/api/resources${path}`, { token });
  return { status: r.status, items: r.status === 200 ? ((await r.json()) as { items: Item[] }).items : null };
};
/** What a listing shows of each entry, from the listing or from lstat/stat of the folder now. */
const view = (items: Item[]) =>
  items.map((i) => ({ name: i.name, size: i.isDir ? 0 : i.size, modified: Date.parse(i.modified), perm: i.mode & 0o777, isDir: i.isDir, isSymlink: i.isSymlink })).sort((a, b) => (a.name < b.name ? -1 : 1));
const truth = (dir: string) =>
  readdirSync(dir)
    .filter((n) => !n.startsWith('.filedeck-'))
    .map((name) => {
      const l = lstatSync(join(dir, name));
      const st = l.isSymbolicLink() ? statSync(join(dir, name)) : l;
      return { name, size: st.isDirectory() ? 0 : st.size, modified: Math.trunc(st.mtimeMs), perm: st.mode & 0o777, isDir: st.isDirectory(), isSymlink: l.isSymbolicLink() };
    })
    .sort((a, b) => (a.name < b.name ? -1 : 1));

describe('small folders remembered between listings', () => {
  test('every change made by another process shows in the very next listing', async () => {
    t = await makeTestApp();
    const dir = join(t.root, 'c');
    const other = join(t.root, 'other');
    mkdirSync(join(dir, 'sub'), { recursive: true });
    mkdirSync(other);
    for (let i = 0; i < 6; i++) writeFileSync(join(dir, `f${i}.txt`), 'x'.repeat(i));
    writeFileSync(join(other, 'incoming.txt'), 'in');
    writeFileSync(join(dir, 'linked.txt'), 'one');
    linkSync(join(dir, 'linked.txt'), join(other, 'linked-too.txt'));
    const old = new Date('2003-04-05T06:07:08Z');
    utimesSync(join(dir, 'sub'), old, old);
    const token = await t.adminToken();
    const same = async (what: string) => {
      const { items } = await list('/c/', token);
      expect({ what, items: view(items!) }).toEqual({ what, items: truth(dir) });
    };
    await same('first listing');
    const hits = folderCacheCounts.hits;
    await same('unchanged');
    expect(folderCacheCounts.hits).toBe(hits + 1); // the second listing was answered from what was remembered
    const changes: [string, () => void][] = [
      ['a file created', () => writeFileSync(join(dir, 'new.txt'), 'new')],
      ['a file deleted', () => rmSync(join(dir, 'f1.txt'))],
      ['a file renamed in the folder', () => renameSync(join(dir, 'f2.txt'), join(dir, 'f2-renamed.txt'))],
      ['a file moved in', () => renameSync(join(other, 'incoming.txt'), join(dir, 'incoming.txt'))],
      ['a file moved out', () => renameSync(join(dir, 'f3.txt'), join(other, 'f3.txt'))],
      ['a file appended to', () => appendFileSync(join(dir, 'f4.txt'), 'more bytes')],
      ['a file truncated', () => truncateSync(join(dir, 'f5.txt'), 1)],
      ['a file rewritten with the same size', () => writeFileSync(join(dir, 'f0.txt'), '')],
      ['a file\'s times set', () => utimesSync(join(dir, 'f4.txt'), old, old)],
      ['a file\'s mode changed', () => chmodSync(join(dir, 'f5.txt'), 0o600)],
      ['a file written through a link in another folder', () => appendFileSync(join(other, 'linked-too.txt'), ' two three')],
      ['a file made inside a subfolder (its time changes, no event in this folder)', () => writeFileSync(join(dir, 'sub/inner.txt'), 'i')],
      ['a subfolder made', () => mkdirSync(join(dir, 'sub2'))],
      ['a link made', () => symlinkSync('new.txt', join(dir, 'to-new'))],
      ['a link\'s target grown', () => appendFileSync(join(dir, 'new.txt'), 'longer')],
      ['the folder\'s own mode changed', () => chmodSync(dir, 0o750)],
    ];
    for (const [what, change] of changes) {
      change();
      await same(what);
      await same(`${what}, listed again`);
    }
  });

  test('the same path leading to another folder lists that folder; a swap to outside the scope is refused', async () => {
    t = await makeTestApp();
    mkdirSync(join(t.root, 'bob/a/c'), { recursive: true });
    writeFileSync(join(t.root, 'bob/a/c/first.txt'), '1');
    mkdirSync(join(t.dir, 'outside/c'), { recursive: true });
    writeFileSync(join(t.dir, 'outside/c/secret.txt'), 's');
    const bob = await t.userToken('bob', {}, { scope: '/bob' });
    expect((await list('/a/c/', bob)).items!.map((i) => i.name)).toEqual(['first.txt']);
    expect((await list('/a/c/', bob)).items!.map((i) => i.name)).toEqual(['first.txt']);
    // The folder removed and made again, with other content: another inode.
    rmSync(join(t.root, 'bob/a/c'), { recursive: true });
    mkdirSync(join(t.root, 'bob/a/c'));
    writeFileSync(join(t.root, 'bob/a/c/second.txt'), '2');
    expect((await list('/a/c/', bob)).items!.map((i) => i.name)).toEqual(['second.txt']);
    // A parent folder renamed and the path made again: the remembered folder, now elsewhere, had no event of its own.
    expect((await list('/a/c/', bob)).items!.map((i) => i.name)).toEqual(['second.txt']);
    renameSync(join(t.root, 'bob/a'), join(t.root, 'bob/a-was'));
    mkdirSync(join(t.root, 'bob/a/c'), { recursive: true });
    writeFileSync(join(t.root, 'bob/a/c/third.txt'), '3');
    expect((await list('/a/c/', bob)).items!.map((i) => i.name)).toEqual(['third.txt']);
    // A parent folder moved away and replaced by a link out of the scope: refused, as a fresh read is.
    expect((await list('/a/c/', bob)).status).toBe(200);
    renameSync(join(t.root, 'bob/a'), join(t.root, 'bob/a-old'));
    symlinkSync(join(t.dir, 'outside'), join(t.root, 'bob/a'));
    expect((await list('/a/c/', bob)).status).toBe(403);
    // …and by a link to the very folder that was listed (now elsewhere in the scope): listed as a link's target is.
    rmSync(join(t.root, 'bob/a'));
    symlinkSync(join(t.root, 'bob/a-old'), join(t.root, 'bob/a'));
    const via = await list('/a/c/', bob);
    expect(via.items!.map((i) => i.name)).toEqual(['third.txt']);
  });

  test('one folder, several users: each gets their own rules and hidden names applied', async () => {
    t = await makeTestApp();
    const dir = join(t.root, 'shared');
    mkdirSync(dir, { recursive: true });
    for (const n of ['open.txt', 'secret.txt', '.dotfile']) writeFileSync(join(dir, n), n);
    const admin = await t.adminToken();
    const bob = await t.userToken('bob', {}, { hideDotfiles: true, rules: [{ regex: false, allow: false, path: '/shared/secret.txt' }] });
    const carol = await t.userToken('carol', {}, { scope: '/shared' });
    const names = async (path: string, token: string) => (await list(path, token)).items!.map((i) => i.name).sort();
    for (let round = 0; round < 2; round++) {
      expect(await names('/shared/', admin)).toEqual(['.dotfile', 'open.txt', 'secret.txt']);
      expect(await names('/shared/', bob)).toEqual(['open.txt']);
      expect(await names('/', carol)).toEqual(['.dotfile', 'open.txt', 'secret.txt']);
    }
    // The server's own temps and the trash are never listed, remembered or not.
    writeFileSync(join(dir, '.filedeck-0123456789abcdef.part'), 't');
    for (let round = 0; round < 2; round++) expect(await names('/shared/', admin)).toEqual(['.dotfile', 'open.txt', 'secret.txt']);
  });

  test('the order of a remembered folder: A to Z and Z to A, again and again, and after a change', async () => {
    t = await makeTestApp();
    const dir = join(t.root, 'o');
    mkdirSync(join(dir, 'b-folder'), { recursive: true });
    for (const n of ['file10.txt', 'file2.txt', 'File1.txt', 'a.txt']) writeFileSync(join(dir, n), n);
    const token = await t.adminToken();
    const order = async () => (await list('/o/', token)).items!.map((i) => i.name);
    const admin = async (asc: boolean) => t.s.stores.users.update({ ...(await t.s.stores.users.byUsername('admin'))!, sorting: { by: 'name', asc } });
    const aToZ = ['b-folder', 'a.txt', 'File1.txt', 'file2.txt', 'file10.txt'];
    for (let i = 0; i < 3; i++) expect(await order()).toEqual(aToZ);
    await admin(true);
    for (let i = 0; i < 3; i++) expect(await order()).toEqual(['b-folder', 'file10.txt', 'file2.txt', 'File1.txt', 'a.txt']);
    await admin(false);
    expect(await order()).toEqual(aToZ);
    writeFileSync(join(dir, '0-first.txt'), '');
    mkdirSync(join(dir, 'a-folder'));
    for (let i = 0; i < 2; i++) expect(await order()).toEqual(['a-folder', 'b-folder', '0-first.txt', ...aToZ.slice(1)]);
  });

  test('forgotten when the event queue overflowed and after its time; its watches stay bounded', async () => {
    t = await makeTestApp();
    mkdirSync(join(t.root, 'q'));
    writeFileSync(join(t.root, 'q/a.txt'), 'a');
    const token = await t.adminToken();
    await list('/q/', token);
    await list('/q/', token);
    const fills = folderCacheCounts.fills;
    onFolderEvent(-1, IN_Q_OVERFLOW); // events were lost: nothing remembered is trusted
    await list('/q/', token);
    expect(folderCacheCounts.fills).toBe(fills + 1);
    await Bun.sleep(FOLDER_CACHE_TTL_MS + 50);
    await list('/q/', token);
    expect(folderCacheCounts.fills).toBe(fills + 2);
    // 700 folders listed: at most 512 are remembered, each with one watch.
    for (let i = 0; i < 700; i++) mkdirSync(join(t.root, `many/${i}`), { recursive: true });
    for (let i = 0; i < 700; i++) expect((await list(`/many/${i}/`, token)).status).toBe(200);
    expect(watchCount()).toBe(512);
  });

  test('folderCache false: every listing read from disk, nothing watched', async () => {
    t = await makeTestApp({ folderCache: false });
    try {
      mkdirSync(join(t.root, 'off'));
      writeFileSync(join(t.root, 'off/a.txt'), 'a');
      const token = await t.adminToken();
      const before = { ...folderCacheCounts };
      for (let i = 0; i < 3; i++) expect((await list('/off/', token)).items!.map((i) => i.name)).toEqual(['a.txt']);
      expect(folderCacheCounts).toEqual(before);
    } finally {
      useFolderCache(true);
    }
  });

  test('inotify records are read whole, names of any length', () => {
    const buf = new Uint8Array(16 * 3 + 16 + 32);
    const v = new DataView(buf.buffer);
    const put = (at: number, wd: number, mask: number, len: number) => {
      v.setInt32(at, wd, true);
      v.setUint32(at + 4, mask, true);
      v.setUint32(at + 12, len, true);
      return at + 16 + len;
    };
    let at = put(0, 7, 0x100, 16);
    at = put(at, 9, 0x2, 32);
    at = put(at, -1, IN_Q_OVERFLOW, 0);
    const seen: [number, number][] = [];
    parseEvents(buf, at, (wd, mask) => seen.push([wd, mask]));
    expect(seen).toEqual([[7, 0x100], [9, 0x2], [-1, IN_Q_OVERFLOW]]);
  });
});
