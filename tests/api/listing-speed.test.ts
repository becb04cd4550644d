import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { closeSync, lstatSync, mkdirSync, openSync, readdirSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Resource } from '../../server/contract/resource';
import { DirReader } from '../../server/fs/entry-stats';
import { describe as describeEntry, sortItems } from '../../server/services/files/describe';
import { naturalKey } from '../../server/services/files/natural-key';
import { makeTestApp, type TestApp } from '../helpers/test-app';
import { settled } from '../helpers/settle';
import { openFdsUnder } from '../helpers/open-fds';

// The fast paths of big listings (issue 15 item 4) give the same answers as the plain ones: statx through a held
// folder descriptor = lstat, the one-pass natural key = the regex one, the Latin-1 index keys = the reference order.
let t: TestApp;
let token: string;

/** The natural key as first written (regex, zero-padded digit runs): the oracle for the one-pass version. */
function regexKey(name: string): string {
  const pad = (run: string) => {
    const digits = run.replace(/^0+(?=\d)/, '');
    return digits.length >= 20 ? digits : '0'.repeat(20 - digits.length) + digits;
  };
  return name.toLowerCase().replace(/\d+/g, pad);
}

beforeAll(async () => {
  t = await makeTestApp();
  token = await t.adminToken();
});
afterAll(() => t.close());

const fdCount = () => openFdsUnder(t.dir);

describe('natural key', () => {
  test('equals the regex key on edge cases and 20,000 random names', () => {
    const fixed = ['', '0', '000', 'a0', 'a00', 'a000b', 'x12y0034z', 'A10b', '१२३', 'é9É10', '9'.repeat(25), `v${'0'.repeat(30)}7`, 'file-000123.txt', '12345678901234567890x', 'ab12'];
    const alphabet = ['0', '0', '0', '1', '5', '9', 'a', 'B', '-', '.', 'é', 'ß', '字', ' '];
    let seed = 7;
    const rnd = (n: number) => ((seed = (seed * 1103515245 + 12345) >>> 0) % n);
    const random = Array.from({ length: 20_000 }, () => Array.from({ length: 1 + rnd(28) }, () => alphabet[rnd(alphabet.length)]).join(''));
    const wrong = [...fixed, ...random].filter((n) => naturalKey(n) !== regexKey(n));
    expect(wrong).toEqual([]);
  });
});

describe('statx through a folder descriptor', () => {
  test('mode, size and mtime equal lstat for files, folders, links, FIFOs and odd times; a vanished name is null', () => {
    const dir = join(t.root, 'kinds');
    mkdirSync(join(dir, 'sub'), { recursive: true });
    writeFileSync(join(dir, 'file.txt'), 'x'.repeat(12345));
    writeFileSync(join(dir, 'old'), '');
    utimesSync(join(dir, 'old'), new Date('1960-01-01T00:00:00.5Z'), new Date('1960-01-01T00:00:00.5Z'));
    writeFileSync(join(dir, 'frac'), '');
    utimesSync(join(dir, 'frac'), 1_577_836_800.123456, 1_577_836_800.123456);
    symlinkSync('file.txt', join(dir, 'link'));
    symlinkSync('nowhere', join(dir, 'dangling'));
    mkfifoSync(join(dir, 'fifo'));
    writeFileSync(join(dir, 'naïve – 字.txt'), 'u');
    const before = fdCount();
    const r = new DirReader(dir);
    for (const name of readdirSync(dir)) {
      const a = r.lstat(name)!;
      const b = lstatSync(join(dir, name));
      expect([name, a.mode, a.size, a.mtimeMs, a.isFile(), a.isDirectory(), a.isSymbolicLink()]).toEqual([name, b.mode, b.size, b.mtimeMs, b.isFile(), b.isDirectory(), b.isSymbolicLink()]);
      expect(describeEntry(`/kinds/${name}`, name, a, false)).toEqual(describeEntry(`/kinds/${name}`, name, b, false));
    }
    expect(r.lstat('not-there')).toBeNull();
    expect(fdCount()).toBe(before + 1);
    r.close();
    expect(fdCount()).toBe(before);
  });
});

describe('dangling links on the synchronous path', () => {
  test('in scope: listed as invalid_link; pointing outside the scope: left out (streamed listing)', async () => {
    const dir = join(t.root, 'links');
    mkdirSync(dir);
    for (let i = 0; i < 100; i++) closeSync(openSync(join(dir, `f${i}`), 'w'));
    symlinkSync('gone-inside', join(dir, 'dangling-in'));
    symlinkSync('/nonexistent-outside/x', join(dir, 'dangling-out'));
    symlinkSync('f1', join(dir, 'good'));
    const res = (await (await t.req('GET', '/api/resources/links/', { token })).json()) as Resource;
    const byName = new Map(res.items!.map((i) => [i.name, i]));
    expect(byName.get('dangling-in')?.type).toBe('invalid_link');
    expect(byName.has('dangling-out')).toBe(false);
    expect(byName.get('good')?.isSymlink).toBe(true);
    expect(res.items!.length).toBe(102);
    expect(res.numFiles).toBe(102);
  });
});

function mkfifoSync(path: string): void {
  const r = Bun.spawnSync(['mkfifo', path]);
  if (r.exitCode !== 0) throw new Error(`mkfifo failed: ${r.stderr}`);
}

describe('a 20,000-name folder (index keys over three code units), with names outside Latin-1', () => {
  const N = 20_000;
  beforeAll(async () => {
    const dir = join(t.root, 'many');
    mkdirSync(dir);
    const stems = ['Report', 'report', 'rapport-é', 'отчёт', '報告', 'x'];
    for (let i = 0; i < N; i++) closeSync(openSync(join(dir, `${stems[i % stems.length]}-${i % 997}-${i}.txt`), 'w'));
    for (let i = 0; i < 40; i++) mkdirSync(join(dir, `Folder ${i}`));
    // A first listing opens what the server opens once (database files, the index): not ours to count.
    await (await t.req('GET', '/api/resources/many/', { token })).arrayBuffer();
  }, 120_000);
  for (const asc of [false, true])
    test(`by name asc=${asc}: the reference's order (sortItems), every item once; no descriptor left open`, async () => {
      const r = await t.req('PUT', '/api/users/1', { token, body: { what: 'user', which: ['sorting'], data: { id: 1, sorting: { by: 'name', asc } } } });
      expect(r.status).toBe(200);
      const before = fdCount();
      const res = (await (await t.req('GET', '/api/resources/many/', { token })).json()) as Resource;
      expect(res.items!.length).toBe(N + 40);
      const oracle = [...res.items!];
      sortItems(oracle, 'name', asc);
      expect(res.items!.map((i) => i.name)).toEqual(oracle.map((i) => i.name));
      expect(fdCount()).toBe(before);
    });
  test('a client that stops reading mid-listing leaves no descriptor open', async () => {
    const before = fdCount();
    const r = await t.req('GET', '/api/resources/many/', { token, headers: { 'Accept-Encoding': 'identity' } });
    const reader = r.body!.getReader();
    await reader.read();
    await reader.read();
    await reader.cancel();
    // The server closes the folder when it sees the cancel, a moment after it: wait for that, not a fixed 50 ms.
    expect(await settled(fdCount, before)).toBe(before);
  });
});
