/**
 * A small folder listed through one descriptor (server/fs/folder-read.ts, ScopedFs.readFolder): the same answers
 * and the same refusals as the realpath + lstat + readdir path it replaces. A big folder is resolved that usual way
 * and its names read by getdents64 in slices (readNamesSliced): the same names and kinds as readdir.
 */
import { afterEach, describe, expect, test } from 'bun:test';
import { lstatSync, mkdirSync, readdirSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readNamesSliced } from '../../server/fs/folder-read';
import { makeTestApp, type TestApp } from '../helpers/test-app';

let t: TestApp;
afterEach(() => t?.close());

type Listing = { isDir: boolean; isSymlink: boolean; path: string; items: { name: string; isDir: boolean; size: number; isSymlink: boolean; type?: string }[]; numDirs: number; numFiles: number };
const list = async (path: string, token: string) => {
  const r = await t.req('GET', `/api/resources${path}`, { token });
  return { status: r.status, body: r.status === 200 ? ((await r.json()) as Listing) : null };
};

describe('a small folder read through one descriptor', () => {
  test('names as readdir gives them (unicode, spaces, newlines, a name ending in " (deleted)"), sizes and kinds', async () => {
    t = await makeTestApp();
    const dir = join(t.root, 'mixed');
    mkdirSync(join(dir, 'sub folder'), { recursive: true });
    for (const name of ['日本語.txt', 'line\nbreak.txt', 'émoji 🎉.md', 'old (deleted)', '.hidden', 'plain']) writeFileSync(join(dir, name), name);
    mkdirSync(join(t.root, 'gone (deleted)'));
    const token = await t.adminToken();
    const { status, body } = await list('/mixed/', token);
    expect(status).toBe(200);
    expect(body!.items.map((i) => i.name).sort()).toEqual(readdirSync(dir).sort());
    expect(body!.items.find((i) => i.name === '日本語.txt')!.size).toBe(Buffer.byteLength('日本語.txt'));
    expect(body!.items.find((i) => i.name === 'sub folder')!.isDir).toBe(true);
    expect([body!.numDirs, body!.numFiles]).toEqual([1, 6]);
    // A folder really named "… (deleted)" (what /proc shows for a removed folder) still lists.
    expect((await list('/gone (deleted)/', token)).status).toBe(200);
  });

  test('a folder reached through a link in the scope lists as its target and says it is a link; its target does not', async () => {
    t = await makeTestApp();
    mkdirSync(join(t.root, 'docs/inner'), { recursive: true });
    writeFileSync(join(t.root, 'docs/a.txt'), 'a');
    symlinkSync(join(t.root, 'docs'), join(t.root, 'docs-link'));
    symlinkSync('docs', join(t.root, 'docs-rel'));
    const token = await t.adminToken();
    const target = await list('/docs/', token);
    expect(target.body!.isSymlink).toBe(false);
    // Without the trailing slash the path is tried as a file first (no descriptor read), and the folder still lists.
    expect((await list('/docs', token)).body).toEqual(target.body);
    expect((await list('/docs-link', token)).body!.isSymlink).toBe(true);
    for (const p of ['/docs-link/', '/docs-rel/']) {
      const via = await list(p, token);
      expect(via.status).toBe(200);
      expect(via.body!.isSymlink).toBe(true);
      expect(via.body!.items.map((i) => i.name)).toEqual(target.body!.items.map((i) => i.name));
    }
    // Inside the linked folder, the sub-folder itself is no link.
    expect((await list('/docs-link/inner/', token)).body!.isSymlink).toBe(false);
  });

  test('a scope root that is itself a link: folders below it are not links', async () => {
    t = await makeTestApp();
    mkdirSync(join(t.root, 'store/real-files/photos'), { recursive: true });
    writeFileSync(join(t.root, 'store/real-files/photos/p.jpg'), 'x');
    symlinkSync(join(t.root, 'store/real-files'), join(t.root, 'linked-home'));
    const bob = await t.userToken('bob', {}, { scope: '/linked-home' });
    const root = await list('/', bob);
    expect(root.status).toBe(200);
    expect(root.body!.isSymlink).toBe(true); // the scope root itself is the link (as stat() says)
    expect(root.body!.items.map((i) => i.name)).toEqual(['photos']);
    expect((await list('/', await t.adminToken())).body!.isSymlink).toBe(false);
    const photos = await list('/photos/', bob);
    expect(photos.body!.isSymlink).toBe(false);
    expect(photos.body!.items.map((i) => i.name)).toEqual(['p.jpg']);
  });

  test('refused as before: a link out of the scope (403), into the trash (404), to what the rules deny (403)', async () => {
    t = await makeTestApp();
    mkdirSync(join(t.dir, 'outside'), { recursive: true });
    writeFileSync(join(t.dir, 'outside/secret.txt'), 's');
    mkdirSync(join(t.root, '.filedeck-trash/1/x'), { recursive: true });
    mkdirSync(join(t.root, 'private'), { recursive: true });
    mkdirSync(join(t.root, 'bob'), { recursive: true });
    symlinkSync(join(t.dir, 'outside'), join(t.root, 'bob/out'));
    symlinkSync(join(t.root, '.filedeck-trash/1'), join(t.root, 'bob/bin'));
    symlinkSync(join(t.root, 'private'), join(t.root, 'bob/priv'));
    const bob = await t.userToken('bob', {}, { scope: '/bob' });
    const admin = await t.adminToken();
    expect((await list('/out/', bob)).status).toBe(403);
    expect((await list('/bin/', bob)).status).toBe(404);
    expect((await list('/bob/bin/', admin)).status).toBe(404);
    expect((await list('/private/', admin)).status).toBe(200);
    expect((await list('/priv/', bob)).status).toBe(403); // /private lies outside bob's scope /bob
    // Inside a scope, a link to a folder its owner's rules deny is refused at the target.
    mkdirSync(join(t.root, 'bob/hidden'));
    symlinkSync(join(t.root, 'bob/hidden'), join(t.root, 'bob/to-hidden'));
    const carol = await t.userToken('carol', {}, { scope: '/bob', rules: [{ allow: false, regex: false, path: '/hidden', regexp: null }] });
    expect((await list('/hidden/', carol)).status).toBe(403);
    expect((await list('/to-hidden/', carol)).status).toBe(403);
  });

  test('entries stat-ed with the names: sizes, times and kinds as lstat gives them, links by themselves, any sort', async () => {
    t = await makeTestApp();
    const dir = join(t.root, 'stats');
    mkdirSync(join(dir, 'sub'), { recursive: true });
    // 70 entries: the first 64 names come with their stats, the rest are stat-ed by the listing's reader.
    for (let i = 0; i < 68; i++) writeFileSync(join(dir, `f${i}.bin`), Buffer.alloc((i * 37) % 101));
    utimesSync(join(dir, 'f3.bin'), new Date('2001-02-03T04:05:06Z'), new Date('2001-02-03T04:05:06Z'));
    symlinkSync('f5.bin', join(dir, 'to-f5'));
    const token = await t.adminToken();
    type Item = { name: string; size: number; modified: string; isDir: boolean; isSymlink: boolean };
    for (const sorting of [{ by: 'name', asc: false }, { by: 'size', asc: true }, { by: 'modified', asc: false }] as const) {
      await t.s.stores.users.update({ ...(await t.s.stores.users.byUsername('admin'))!, sorting });
      const { body } = await list('/stats/', token);
      const items = body!.items as unknown as Item[];
      expect(items.length).toBe(70);
      for (const i of items) {
        const st = i.isSymlink ? statSync(join(dir, i.name)) : lstatSync(join(dir, i.name));
        expect({ name: i.name, size: i.isDir ? 0 : i.size, modified: Date.parse(i.modified), isDir: i.isDir }).toEqual({ name: i.name, size: st.isDirectory() ? 0 : st.size, modified: Math.trunc(st.mtimeMs), isDir: st.isDirectory() });
      }
      expect(items.find((i) => i.name === 'to-f5')).toMatchObject({ isSymlink: true, size: (5 * 37) % 101 });
      if (sorting.by === 'size') {
        const files = items.filter((i) => !i.isDir).map((i) => i.size);
        expect(files).toEqual([...files].sort((a, b) => a - b));
      }
      if (sorting.by === 'modified') expect(items.filter((i) => !i.isDir).at(-1)!.name).toBe('f3.bin');
    }
  });

  test('a file, a FIFO and a missing path take the usual route: described, never opened, 404', async () => {
    t = await makeTestApp();
    writeFileSync(join(t.root, 'note.txt'), 'hello');
    Bun.spawnSync(['mkfifo', join(t.root, 'pipe')]);
    const token = await t.adminToken();
    const file = await t.req('GET', '/api/resources/note.txt', { token });
    expect(file.status).toBe(200);
    expect(((await file.json()) as { content: string }).content).toBe('hello');
    const fifo = await Promise.race([t.req('GET', '/api/resources/pipe', { token }), Bun.sleep(3000).then(() => null)]);
    expect(fifo?.status).toBe(200);
    expect(((await fifo!.json()) as { type: string }).type).toBe('blob');
    expect((await list('/nothing/', token)).status).toBe(404);
  });
});

describe('a big folder read in slices (readNamesSliced)', () => {
  test('every name as readdir gives it, kinds right, temps and the trash left out, other requests served meanwhile', async () => {
    t = await makeTestApp();
    const dir = join(t.root, 'big');
    mkdirSync(dir);
    // Past 16 KB of directory: read by getdents64 in slices, not in one go.
    const odd = ['日本語 ファイル.txt', 'line\nbreak.txt', 'émoji 🎉.md', 'old (deleted)', '.hidden', 'x'.repeat(255)];
    for (const name of odd) writeFileSync(join(dir, name), name);
    for (let i = 0; i < 3000; i++) writeFileSync(join(dir, `file ${String(i).padStart(4, '0')}.txt`), '');
    for (let i = 0; i < 40; i++) mkdirSync(join(dir, `folder ${i}`));
    symlinkSync('folder 1', join(dir, 'link to folder'));
    symlinkSync('file 0001.txt', join(dir, 'link to file'));
    symlinkSync('no such file.txt', join(dir, 'dangling'));
    symlinkSync('/nowhere/at/all', join(dir, 'dangling out'));
    writeFileSync(join(dir, '.filedeck-abc123.part'), 'an upload in progress');
    mkdirSync(join(dir, '.filedeck-trash'));
    expect(statSync(dir).size).toBeGreaterThan(16 * 1024);
    // The reader itself: readdir's names and kinds (0 file, 1 folder, 2 link), without the hidden ones.
    const read = (await readNamesSliced(dir, (n) => n.startsWith('.filedeck-')))!;
    expect(read).not.toBeNull();
    const kinds = new Map(readdirSync(dir, { withFileTypes: true }).map((d) => [d.name, d.isDirectory() ? 1 : d.isSymbolicLink() ? 2 : 0]));
    kinds.delete('.filedeck-abc123.part');
    kinds.delete('.filedeck-trash');
    expect(new Map(read.names.map((n, i) => [n, read.kinds[i]]))).toEqual(kinds);
    expect(read.names.length).toBe(kinds.size);
    // Never through a link (a real location has none: one there now was swapped in since the check), and not a file.
    await expect(readNamesSliced(join(dir, 'link to folder'), () => false)).rejects.toMatchObject({ code: 'ENOTDIR' });
    await expect(readNamesSliced(join(dir, 'file 0001.txt'), () => false)).rejects.toMatchObject({ code: 'ENOTDIR' });
    await expect(readNamesSliced(join(dir, 'gone'), () => false)).rejects.toMatchObject({ code: 'ENOENT' });
    const token = await t.adminToken();
    const [{ status, body }, health] = await Promise.all([list('/big/', token), t.req('GET', '/health')]);
    expect(status).toBe(200);
    expect(health.status).toBe(200);
    // A dangling link that would point out of the scope is not listed, as in any folder.
    const hidden = new Set(['.filedeck-abc123.part', '.filedeck-trash', 'dangling out']);
    const expected = readdirSync(dir).filter((n) => !hidden.has(n));
    const names = body!.items.map((i) => i.name);
    expect(names.length).toBe(expected.length);
    expect(new Set(names)).toEqual(new Set(expected));
    // Folders first (a link to a folder sorts as one), then the files; the dangling link is listed, as a file.
    const dirs = body!.items.filter((i) => i.isDir).map((i) => i.name);
    expect(new Set(dirs)).toEqual(new Set([...Array.from({ length: 40 }, (_, i) => `folder ${i}`), 'link to folder']));
    expect(names.slice(0, dirs.length)).toEqual(dirs);
    expect([body!.numDirs, body!.numFiles]).toEqual([41, expected.length - 41]);
    expect(body!.items.find((i) => i.name === 'link to file')).toMatchObject({ isSymlink: true, isDir: false });
    expect(body!.items.find((i) => i.name === 'dangling')).toMatchObject({ isSymlink: true, type: 'invalid_link' });
    // Pages of the same folder come out of the same scan: one after the other, the whole folder once.
    const pages: string[] = [];
    for (let offset = 0; offset < names.length; offset += 1000) {
      const r = await t.req('GET', `/api/resources/big/?offset=${offset}&limit=1000`, { token });
      pages.push(...((await r.json()) as Listing).items.map((i) => i.name));
    }
    expect(pages).toEqual(names);
  }, 60_000); // a big folder built and read whole: seconds on a loaded 2-core machine

  test('a big folder reached through a link lists as its target; a link out of the scope is refused as before', async () => {
    t = await makeTestApp();
    const dir = join(t.root, 'real big');
    mkdirSync(dir);
    for (let i = 0; i < 1500; i++) writeFileSync(join(dir, `some longer file name number ${i}.txt`), '');
    symlinkSync('real big', join(t.root, 'link big'));
    const outside = join(t.root, '..', `outside-${Date.now()}`);
    mkdirSync(outside);
    for (let i = 0; i < 1500; i++) writeFileSync(join(outside, `secret file name number ${i}.txt`), '');
    symlinkSync(outside, join(t.root, 'escape'));
    const token = await t.adminToken();
    const viaLink = await list('/link big/', token);
    expect(viaLink.status).toBe(200);
    expect(viaLink.body!.isSymlink).toBe(true);
    expect(viaLink.body!.items.length).toBe(1500);
    expect((await list('/escape/', token)).status).toBe(403);
  }, 60_000); // a big folder built and read whole: seconds on a loaded 2-core machine
});
