import { afterEach, describe, expect, test } from 'bun:test';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeTestApp, type TestApp } from '../helpers/test-app';

/**
 * State files are never in a scope (fs/state-paths.ts, checked by ScopePaths.checkResolved and the listings): the
 * SQLite database with its journals, the config file and the cache folder, laid out inside the files root or
 * inside a user's scope, are hidden from every user path like the trash (listing, read, download, archive, search,
 * share, copy, write, delete).
 */
let t: TestApp | null = null;
let home: string | null = null;
afterEach(async () => {
  await t?.close();
  if (home) rmSync(home, { recursive: true, force: true });
  t = home = null;
});

/** A server whose files root holds its own database (at `db`, relative to the root) and cache. */
async function layout(db: string, cache: string) {
  home = mkdtempSync(join(tmpdir(), 'filedeck-state-'));
  const root = join(home, 'files');
  mkdirSync(join(root, db, '..'), { recursive: true });
  const config = join(home, 'files', 'conf', 'filedeck.yaml');
  mkdirSync(join(config, '..'), { recursive: true });
  writeFileSync(config, `root: ${root}\n`);
  t = await makeTestApp({ root, database: join(root, db), cacheDir: join(root, cache) });
  // The config file as a running server would know it (loadConfig found it), registered like createServices does.
  const { protectStatePaths } = await import('../../server/fs/state-paths');
  protectStatePaths([config]);
  return { root, config };
}

const names = async (path: string, token: string) => {
  const r = await t!.req('GET', `/api/resources${path}`, { token });
  expect(r.status).toBe(200);
  const j = (await r.json()) as { items: { name: string }[]; numDirs: number; numFiles: number };
  return { names: j.items.map((i) => i.name).sort(), count: j.numDirs + j.numFiles };
};

/** Every user path to a state file answers 404 (never its bytes, never a change). */
async function unreachable(token: string, path: string, disk: string) {
  const before = readFileSync(disk);
  const tries: [string, string, Record<string, unknown>][] = [
    ['GET', `/api/resources${path}`, {}],
    ['GET', `/api/resources${path}?checksum=sha256`, {}],
    ['GET', `/api/raw${path}`, {}],
    ['POST', `/api/share${path}`, { body: {} }],
    ['PATCH', `/api/resources${path}?action=copy&destination=${encodeURIComponent(`${path}.stolen`)}`, {}],
    ['PATCH', `/api/resources${path}?action=rename&destination=${encodeURIComponent(`${path}.moved`)}`, {}],
    ['POST', `/api/resources${path}?override=true`, { raw: 'overwritten' }],
    ['PUT', `/api/resources${path}`, { raw: 'overwritten' }],
    ['DELETE', `/api/resources${path}`, {}],
  ];
  for (const [method, url, init] of tries) {
    const r = await t!.req(method, url, { token, ...init });
    expect([method, url, r.status]).toEqual([method, url, 404]);
  }
  expect(readFileSync(disk)).toEqual(before);
  expect(existsSync(`${disk}.stolen`) || existsSync(`${disk}.moved`)).toBe(false);
}

describe('state files inside the files root', () => {
  test('the database, its journals, the config and the cache are hidden from the whole root, by every path', async () => {
    const { root, config } = await layout('filedeck.db', 'cache');
    writeFileSync(join(root, 'mine.txt'), 'a user file');
    const admin = await t!.adminToken();
    const carol = await t!.userToken('carol', { share: true, download: true, create: true, rename: true, modify: true, delete: true }, { scope: '/' });
    await t!.s.db.run('CREATE TABLE IF NOT EXISTS probe (x INTEGER)'); // the journals exist now
    for (const token of [admin, carol]) {
      const listed = await names('/', token);
      expect(listed.names).toEqual(['conf', 'mine.txt']);
      expect(listed.count).toBe(2); // counts never reveal a hidden name
      expect((await names('/conf', token)).names).toEqual([]);
      await unreachable(token, '/filedeck.db', join(root, 'filedeck.db'));
      await unreachable(token, '/conf/filedeck.yaml', config);
      expect((await t!.req('GET', '/api/resources/cache', { token })).status).toBe(404);
      // Search (the walk) and archives of the whole root never name them.
      const found = await (await t!.req('GET', '/api/search/?query=filedeck', { token })).text();
      expect(found).not.toContain('filedeck.db');
      expect(found).not.toContain('filedeck.yaml');
      const zip = await t!.req('GET', '/api/raw/?algo=zip', { token });
      expect(zip.status).toBe(200);
      const file = join(home!, 'all.zip');
      writeFileSync(file, new Uint8Array(await zip.arrayBuffer()));
      const inZip = spawnSync('unzip', ['-Z1', file], { encoding: 'utf8' }).stdout.split('\n').filter(Boolean).sort();
      expect(inZip).toEqual(['conf/', 'mine.txt']);
    }
    // A link to the database inside the scope leads nowhere either.
    spawnSync('ln', ['-s', join(root, 'filedeck.db'), join(root, 'db-link')]);
    expect((await t!.req('GET', '/api/raw/db-link', { token: carol })).status).toBe(404);
    expect((await names('/', carol)).names).toEqual(['conf', 'mine.txt']);
  });

  test('search through the name index never names them', async () => {
    const { root } = await layout('filedeck.db', 'cache');
    writeFileSync(join(root, 'filedeck-notes.txt'), 'a user file that matches too');
    const admin = await t!.adminToken();
    t!.s.index.start();
    for (const end = Date.now() + 10_000; !t!.s.index.ready(); await Bun.sleep(50)) if (Date.now() > end) throw new Error('index not ready');
    await t!.s.index.settled();
    const found = await (await t!.req('GET', '/api/search/?query=filedeck', { token: admin })).text();
    expect(found).toContain('filedeck-notes.txt'); // the index answered
    expect(found).not.toContain('filedeck.db');
    const cached = await (await t!.req('GET', '/api/search/?query=name-index', { token: admin })).text();
    expect(cached).not.toContain('name-index');
  });

  test('a database inside one user\'s scope: hidden from that user too', async () => {
    const { root } = await layout('bob/state/filedeck.db', 'bob/state/cache');
    writeFileSync(join(root, 'bob/state/notes.txt'), 'bob\'s own notes');
    const bob = await t!.userToken('bob', { download: true, share: true, create: true, rename: true, modify: true, delete: true }, { scope: '/bob' });
    expect((await names('/state', bob)).names).toEqual(['notes.txt']);
    await unreachable(bob, '/state/filedeck.db', join(root, 'bob/state/filedeck.db'));
    expect((await t!.req('GET', '/api/resources/state/cache', { token: bob })).status).toBe(404);
    // Deleting the folder that holds it is refused as a whole rather than taking the database along.
    expect((await t!.req('DELETE', '/api/resources/state', { token: bob })).status).not.toBe(204);
    expect(existsSync(join(root, 'bob/state/filedeck.db'))).toBe(true);
  });
});
