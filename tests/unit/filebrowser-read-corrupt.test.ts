import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppError } from '../../server/core/errors';
import { fnv1a64 } from '../../server/services/import/bolt/bolt-meta';
import type { FilebrowserDump } from '../../server/services/import/filebrowser/fb-dump';
import { readFilebrowserDb } from '../../server/services/import/filebrowser/read-db';
import { type BoltBucket, stormId, writeBoltFile } from '../helpers/bolt-writer';
import { copyFbFixture, fbExpected, fbFixtureHashes } from '../helpers/fb-fixtures';

// Damaged, hostile and foreign files given to the filebrowser reader (server/services/import/filebrowser/read-db.ts):
// each gives an INVALID AppError that says what is wrong (never a crash, a hang or a partial dump), a damaged meta
// page falls back to the other one as bbolt does, and the fixtures are left byte for byte as they were.

let dir: string;
let hashes: Record<string, string>;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'fd-fbread-'));
  hashes = fbFixtureHashes();
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  expect(fbFixtureHashes()).toEqual(hashes);
});

/** Reads `path` and returns the AppError it must give. */
async function failure(path: string): Promise<AppError> {
  const e = await readFilebrowserDb(path).then(
    () => null,
    (x: unknown) => x,
  );
  if (!(e instanceof AppError)) throw new Error(`expected an AppError, got ${e === null ? 'a dump' : String(e)}`);
  return e;
}

const le = (b: Uint8Array) => new DataView(b.buffer, b.byteOffset, b.byteLength);
const flip = (b: Uint8Array, at: number, mask: number) => void b.set([b[at]! ^ mask], at);
const u64 = (b: Uint8Array, at: number) => Number(le(b).getBigUint64(at, true));

/** A copy of `name` changed by `damage`, written to the temp dir. */
function damaged(name: string, damage: (bytes: Uint8Array, pageSize: number) => void, as = `${name}-${Math.random()}`): string {
  const path = copyFbFixture(name, dir, as);
  const bytes = new Uint8Array(readFileSync(path));
  damage(bytes, le(bytes).getUint32(24, true));
  writeFileSync(path, bytes);
  return path;
}

/** The file offset of page `id`'s leaf element whose key is `key`. */
function leafElement(bytes: Uint8Array, ps: number, id: number, key: string): number {
  const page = id * ps;
  for (let i = 0; i < le(bytes).getUint16(page + 10, true); i++) {
    const at = page + 16 + 16 * i;
    const k = bytes.subarray(at + le(bytes).getUint32(at + 4, true), at + le(bytes).getUint32(at + 4, true) + le(bytes).getUint32(at + 8, true));
    if (new TextDecoder().decode(k) === key) return at;
  }
  throw new Error(`no ${key} on page ${id}`);
}

/** Root page of the newest meta, and the root page of a top-level bucket. */
const rootOf = (b: Uint8Array, ps: number) => u64(b, (u64(b, 64) > u64(b, ps + 64) ? 0 : ps) + 32);
function bucketRoot(b: Uint8Array, ps: number, name: string): { elem: number; page: number } {
  const elem = leafElement(b, ps, rootOf(b, ps), name);
  const value = elem + le(b).getUint32(elem + 4, true) + le(b).getUint32(elem + 8, true);
  return { elem: value, page: u64(b, value) };
}

describe('filebrowser reader: leaves the file alone', () => {
  test('reads while another process holds an exclusive lock (as a running filebrowser does), and changes nothing', async () => {
    const path = copyFbFixture('basic.db', dir, 'locked.db');
    const before = statSync(path);
    const holder = Bun.spawn(['flock', '-x', path, 'sleep', '30']);
    try {
      // wait until the lock is held: a non-blocking shared lock then fails
      for (let i = 0; i < 100 && Bun.spawnSync(['flock', '-n', '-s', path, 'true']).exitCode === 0; i++) await Bun.sleep(50);
      expect(Bun.spawnSync(['flock', '-n', '-s', path, 'true']).exitCode).not.toBe(0);
      expect((await readFilebrowserDb(path)).users).toHaveLength(3);
    } finally {
      holder.kill();
      await holder.exited;
    }
    const after = statSync(path);
    expect([after.mtimeMs, after.ctimeMs, after.size]).toEqual([before.mtimeMs, before.ctimeMs, before.size]);
  }, 20_000);
});

describe('filebrowser reader: meta pages', () => {
  test.each(['basic.db', 'basic-16k.db'])('%s with meta page 0 damaged reads from page 1, its page size found by probing', async (name) => {
    const path = damaged(name, (b) => flip(b, 40, 0xff));
    const { config, users, shares, storm, stormMeta } = fbExpected('expected-basic.json') as unknown as FilebrowserDump;
    expect(await readFilebrowserDb(path)).toEqual({ config, users, shares, storm, stormMeta });
  });

  test('basic.db with meta page 1 (the newest, txid 29) damaged falls back to page 0 (txid 28): one share fewer', async () => {
    const path = damaged('basic.db', (b, ps) => flip(b, ps + 72, 0x01));
    const dump = await readFilebrowserDb(path);
    const all = (fbExpected('expected-basic.json') as unknown as FilebrowserDump).shares;
    expect(dump.users).toHaveLength(3);
    expect(dump.shares).toHaveLength(2);
    for (const s of dump.shares) expect(all).toContainEqual(s);
  });

  test('both meta pages damaged: a clear error naming each', async () => {
    const e = await failure(damaged('basic.db', (b, ps) => (flip(b, 40, 1), flip(b, ps + 40, 1))));
    expect(e.code).toBe('INVALID');
    expect(e.detail).toContain('both meta pages are damaged (page 0: checksum mismatch; page 1: checksum mismatch)');
  });

  test('a format version other than 2 is refused', async () => {
    const e = await failure(
      damaged('basic.db', (b, ps) => {
        for (const at of [0, ps]) {
          le(b).setUint32(at + 20, 3, true);
          le(b).setBigUint64(at + 72, fnv1a64(b.subarray(at + 16, at + 72)), true);
        }
      }),
    );
    expect(e.detail).toContain('format version 3, not 2');
  });

  test('a page size that is not a power of two is refused even with a good checksum', async () => {
    const e = await failure(
      damaged('basic.db', (b, ps) => {
        for (const at of [0, ps]) {
          le(b).setUint32(at + 24, 5000, true);
          le(b).setBigUint64(at + 72, fnv1a64(b.subarray(at + 16, at + 72)), true);
        }
      }),
    );
    expect(e.detail).toContain('page size 5000 is not a power of two');
  });
});

describe('filebrowser reader: truncated, empty, random and foreign files', () => {
  test('truncated at several lengths: each a clear error; cut to exactly its pages (a compacted copy) it reads', async () => {
    const cases: Array<[number, string]> = [
      [10, 'not a bbolt database'],
      [50, 'truncated: the file is only 50 bytes'],
      [100, 'corrupt or truncated: the database has 15 pages'],
      [4100, 'corrupt or truncated'],
      [8192, 'corrupt or truncated'],
      [30000, 'corrupt or truncated'],
      [61439, 'corrupt or truncated'],
    ];
    for (const [length, message] of cases) {
      const path = copyFbFixture('basic.db', dir, `cut-${length}.db`);
      truncateSync(path, length);
      const e = await failure(path);
      expect(e.code).toBe('INVALID');
      expect(e.detail).toContain(message);
      expect(e.detail).toContain(path);
    }
    const exact = copyFbFixture('basic.db', dir, 'cut-61440.db');
    truncateSync(exact, 61440);
    expect((await readFilebrowserDb(exact)).shares).toHaveLength(3);
  });

  test('an empty file: filebrowser never initialised it', async () => {
    const path = join(dir, 'empty.db');
    writeFileSync(path, '');
    expect((await failure(path)).detail).toContain('the file is empty (0 bytes): filebrowser never initialised it');
  });

  test('random bytes, an SQLite file, a folder, a missing file', async () => {
    const random = join(dir, 'random.db');
    writeFileSync(random, crypto.getRandomValues(new Uint8Array(65536)));
    expect((await failure(random)).detail).toContain('not a bbolt database');
    const sqlite = join(dir, 'sqlite.db');
    writeFileSync(sqlite, Buffer.concat([Buffer.from('SQLite format 3\0'), Buffer.alloc(4080)]));
    expect((await failure(sqlite)).detail).toContain('it is an SQLite database');
    const folder = join(dir, 'folder.db');
    mkdirSync(folder);
    expect((await failure(folder)).detail).toContain('not a regular file');
    const missing = await failure(join(dir, 'nope.db'));
    expect([missing.code, missing.detail]).toEqual(['NOT_FOUND', `filebrowser database ${join(dir, 'nope.db')}: no such file`]);
  });
});

/** A minimal filebrowser 2 database content for the bbolt writer. */
const META = { codec: 'json' };
const fb2 = (): BoltBucket => ({
  __storm_db: { version: '"2.0.0"', __storm_metadata: META },
  config: {
    settings: '{"key":"","signup":false,"authMethod":"json","rules":[]}',
    server: '{"root":"/srv","port":"8080"}',
    auther: '{"recaptcha":null}',
    version: '2',
    __storm_metadata: META,
  },
  User: {
    [stormId(1)]: '{"id":1,"username":"admin","password":"$2a$10$x","scope":".","perm":{"admin":true}}',
    __storm_metadata: { ...META, IDcounter: new Uint8Array([0, 0, 0, 0, 0, 0, 0, 1]) },
  },
  Link: { abcDEF12: '{"hash":"abcDEF12","path":"/a","userID":1,"expire":0}', __storm_metadata: META },
});

describe('filebrowser reader: other bbolt files', () => {
  const write = (name: string, content: BoltBucket, options?: Parameters<typeof writeBoltFile>[1]) => {
    const path = join(dir, name);
    writeFileSync(path, writeBoltFile(content, options));
    return path;
  };

  test('a file written by a big-endian host (s390x) reads the same', async () => {
    const little = await readFilebrowserDb(write('le.db', fb2()));
    const big = await readFilebrowserDb(write('be.db', fb2(), { littleEndian: false }));
    expect(big).toEqual(little);
    expect(big.users[0]!.value.username).toBe('admin');
    expect(big.stormMeta['User/__storm_metadata/IDcounter']).toBe(1);
  });

  test('a filebrowser 1.x database is refused, pointing to filebrowser 2\'s own migration', async () => {
    const v1: BoltBucket = {
      config: { key: '"c2VjcmV0"', commands: '{"before_save":[]}', __storm_metadata: META },
      User: { [stormId(1)]: '{"ID":1,"admin":true,"allowEdit":true,"allowNew":true,"filesystem":"/srv","username":"admin"}', __storm_metadata: META },
    };
    const e = await failure(write('v1.db', v1));
    expect(e.detail).toContain('this is a filebrowser 1.x database');
    expect(e.detail).toContain('filebrowser upgrade');
  });

  test('a bbolt file of another program: no filebrowser buckets', async () => {
    const e = await failure(write('other.db', { widgets: { a: '1' }, sessions: { b: '2' } }));
    expect(e.detail).toContain('no filebrowser buckets: this bbolt file is not a filebrowser database (its buckets: "sessions", "widgets")');
  });

  test('a storm codec other than json, a missing settings record, a record that is not JSON', async () => {
    const gob = fb2();
    (gob.User as BoltBucket).__storm_metadata = { codec: 'gob' };
    expect((await failure(write('gob.db', gob))).detail).toContain('storm codec "gob"');
    const bare = fb2();
    delete (bare.config as BoltBucket).settings;
    expect((await failure(write('bare.db', bare))).detail).toContain('no config/settings record');
    const garbled = fb2();
    (garbled.User as BoltBucket)[stormId(1)] = '{"id":1,';
    expect((await failure(write('garbled.db', garbled))).detail).toContain('corrupt: user 0000000000000001 is not valid JSON');
  });
});

describe('filebrowser reader: damaged pages', () => {
  const cases: Array<[string, string, (b: Uint8Array, ps: number) => void, string]> = [
    ['a bucket whose root is its ancestor (a cycle)', 'basic.db', (b, ps) => le(b).setBigUint64(bucketRoot(b, ps, 'User').elem, BigInt(rootOf(b, ps)), true), 'is reached twice'],
    [
      'a branch page whose child is itself (a cycle)',
      'large.db',
      (b, ps) => {
        const { page } = bucketRoot(b, ps, 'Link');
        expect(le(b).getUint16(page * ps + 8, true)).toBe(0x01); // the shares' root is a branch page
        le(b).setBigUint64(page * ps + 16 + 16 + 8, BigInt(page), true);
      },
      'is reached twice',
    ],
    ['a count that runs past the page', 'basic.db', (b, ps) => le(b).setUint16(rootOf(b, ps) * ps + 10, 0x0fff, true), '4095 elements run past the end of the page'],
    ['an element whose value runs past the page', 'basic.db', (b, ps) => le(b).setUint32(bucketRoot(b, ps, 'User').page * ps + 16 + 12, 0x7fffffff, true), 'runs past the end of the page'],
    ['a page carrying another id', 'basic.db', (b, ps) => le(b).setBigUint64(bucketRoot(b, ps, 'User').page * ps, 9999n, true), 'carries the id 9999'],
    ['a bucket root past the last page', 'basic.db', (b, ps) => le(b).setBigUint64(bucketRoot(b, ps, 'Link').elem, 1n << 40n, true), 'past the last page'],
    ['a bucket root on a meta page', 'basic.db', (b, ps) => le(b).setBigUint64(bucketRoot(b, ps, 'Link').elem, 1n, true), 'outside the data pages'],
    ['overflow pages past the end', 'basic.db', (b, ps) => le(b).setUint32(bucketRoot(b, ps, 'User').page * ps + 12, 100000, true), 'overflow pages run past the last page'],
    ['a freelist page where a leaf belongs', 'basic.db', (b, ps) => le(b).setUint16(bucketRoot(b, ps, 'User').page * ps + 8, 0x10, true), 'flags 0x10, where a branch or leaf page was expected'],
  ];
  test.each(cases)('%s', async (_what, name, damage, message) => {
    const e = await failure(damaged(name, damage));
    expect(e.code).toBe('INVALID');
    expect(e.detail).toContain(message);
  });

  test('a chain of branch pages deeper than any real tree stops at the depth bound', async () => {
    const ps = 4096;
    const levels = 70;
    const base = writeBoltFile(fb2());
    const file = new Uint8Array(base.length + levels * ps);
    file.set(base);
    const first = base.length / ps;
    for (let i = 0; i < levels; i++) {
      const at = (first + i) * ps;
      le(file).setBigUint64(at, BigInt(first + i), true);
      le(file).setUint16(at + 8, 0x01, true);
      le(file).setUint16(at + 10, 1, true);
      le(file).setBigUint64(at + 24, BigInt(i === levels - 1 ? 3 : first + i + 1), true);
    }
    for (const m of [0, ps]) {
      le(file).setBigUint64(m + 32, BigInt(first), true);
      le(file).setBigUint64(m + 56, BigInt(first + levels), true);
      le(file).setBigUint64(m + 72, fnv1a64(file.subarray(m + 16, m + 72)), true);
    }
    const path = join(dir, 'deep.db');
    writeFileSync(path, file);
    expect((await failure(path)).detail).toContain('deeper than 64 levels');
  });

  test('hundreds of random byte flips and cuts: every outcome is a dump or an INVALID AppError', async () => {
    const original = new Uint8Array(readFileSync(copyFbFixture('basic.db', dir, 'fuzz-src.db')));
    let seed = 38;
    const next = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    const path = join(dir, 'fuzz.db');
    let errors = 0;
    for (let round = 0; round < 300; round++) {
      const bytes = original.slice(0, round % 10 === 9 ? next(original.length) : original.length);
      for (let i = 0, flips = 1 + next(8); i < flips && bytes.length > 0; i++) {
        // half the flips land in a page's header and element table, where the numbers the walk trusts are
        const at = next(2) ? next(15) * 4096 + next(96) : next(61440);
        if (at < bytes.length) bytes[at] = next(256);
      }
      writeFileSync(path, bytes);
      try {
        await readFilebrowserDb(path);
      } catch (e) {
        if (!(e instanceof AppError) || e.code !== 'INVALID') throw new Error(`round ${round}: ${String(e)}`);
        errors++;
      }
    }
    expect(errors).toBeGreaterThan(30); // 63 with this seed
  }, 60_000);
});
