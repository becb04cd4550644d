import { afterAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DirReader } from '../../server/fs/entry-stats';
import { ScopedFs } from '../../server/fs/scoped-fs';
import { SniffCache, sniffedOf, sniffFile, type FileIdentity } from '../../server/services/files/sniff-cache';

// A real scope over a temp folder; reads are counted by wrapping its own head() (the real file is read each time).
const root = mkdtempSync(join(tmpdir(), 'filedeck-sniff-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const fs = new ScopedFs(root, false);
const counted = () => {
  const reader = { reads: 0, head: (real: string, n?: number) => (reader.reads++, fs.head(real, n)) };
  return reader;
};
/** The file's stats as a listing reads them: statx through the folder's descriptor, identity included. */
const listed = (name: string) => {
  const dir = new DirReader(root);
  try {
    return dir.own(name) as unknown as FileIdentity;
  } finally {
    dir.close();
  }
};
const TEXT = 'plain words, nothing else\n';
const BINARY = new Uint8Array(TEXT.length).fill(1);
const WHOLE = 1_700_000_000; // seconds

describe('sniff cache', () => {
  test('a file sniffed once is not read again while its identity, size and times are the same', async () => {
    const cache = new SniffCache(16);
    const r = counted();
    writeFileSync(join(root, 'same'), TEXT);
    expect(await sniffFile(r, join(root, 'same'), listed('same'), cache)).toBe('text');
    expect(await sniffFile(r, join(root, 'same'), listed('same'), cache)).toBe('text');
    // node's Stats of the file (a file's own description, previews) find the same entry.
    expect(await sniffFile(r, join(root, 'same'), statSync(join(root, 'same')), cache)).toBe('text');
    expect(r.reads).toBe(1);
    expect(cache.hits).toBe(2);
  });

  test('a file changed in place is sniffed again, even with its size and mtime put back (ctime moved)', async () => {
    const cache = new SniffCache(16);
    const r = counted();
    const p = join(root, 'changed');
    writeFileSync(p, TEXT);
    utimesSync(p, WHOLE, WHOLE); // a time utimes can set back exactly
    const before = statSync(p);
    expect(await sniffFile(r, p, listed('changed'), cache)).toBe('text');
    await Bun.sleep(5);
    writeFileSync(p, BINARY); // same inode, same size
    utimesSync(p, WHOLE, WHOLE); // and the same mtime: only ctime tells
    const after = listed('changed');
    expect([after.ino, after.size, after.mtimeMs]).toEqual([before.ino, before.size, before.mtimeMs]);
    expect(after.ctimeMs).not.toBe(before.ctimeMs);
    expect(await sniffFile(r, p, after, cache)).toBe('binary');
    expect(r.reads).toBe(2);
  });

  test('another file at the same name with the same size and mtime (another inode) is sniffed again', async () => {
    const cache = new SniffCache(16);
    const r = counted();
    const p = join(root, 'replaced');
    writeFileSync(p, TEXT);
    utimesSync(p, WHOLE, WHOLE);
    const before = statSync(p);
    expect(await sniffFile(r, p, listed('replaced'), cache)).toBe('text');
    writeFileSync(join(root, 'next'), BINARY);
    utimesSync(join(root, 'next'), WHOLE, WHOLE);
    renameSync(join(root, 'next'), p);
    const after = listed('replaced');
    expect(after.ino).not.toBe(before.ino);
    expect([after.size, after.mtimeMs]).toEqual([before.size, before.mtimeMs]);
    expect(await sniffFile(r, p, after, cache)).toBe('binary');
    expect(r.reads).toBe(2);
  });

  test('bounded: the least recently used entry goes first', () => {
    const cache = new SniffCache(3);
    const id = (ino: number): FileIdentity => ({ dev: 1, ino, size: 10, mtimeMs: 5, ctimeMs: 5 });
    for (let i = 1; i <= 3; i++) cache.set(id(i), 'text');
    expect(cache.get(id(1))).toBe('text'); // 1 used: 2 is now the oldest
    cache.set(id(4), 'binary');
    expect(cache.size).toBe(3);
    expect(cache.get(id(2))).toBeUndefined();
    expect([cache.get(id(1)), cache.get(id(3)), cache.get(id(4))]).toEqual(['text', 'text', 'binary']);
    for (let i = 5; i < 1000; i++) cache.set(id(i), 'text');
    expect(cache.size).toBe(3);
  });

  test('an entry in use survives any number of other files passing through', () => {
    const cache = new SniffCache(8);
    const id = (ino: number): FileIdentity => ({ dev: 3, ino, size: 1, mtimeMs: 1, ctimeMs: 1 });
    cache.set(id(1), 'heif');
    for (let i = 2; i < 500; i++) {
      cache.set(id(i), 'text');
      expect(cache.get(id(1))).toBe('heif');
    }
    expect(cache.size).toBe(8);
    // Large device or inode numbers are keys too (as text).
    const far: FileIdentity = { dev: 2 ** 40, ino: 2 ** 50, size: 1, mtimeMs: 1, ctimeMs: 1 };
    cache.set(far, 'binary');
    expect(cache.get(far)).toBe('binary');
    expect(cache.get({ ...far, ino: 2 ** 50 + 2 })).toBeUndefined();
  });

  test('stats without an identity (inode 0: not known) are never looked up nor remembered', () => {
    const cache = new SniffCache(3);
    cache.set({ dev: 0, ino: 0, size: 1, mtimeMs: 1, ctimeMs: 1 }, 'text');
    expect(cache.size).toBe(0);
    expect(cache.get({ size: 1, mtimeMs: 1 })).toBeUndefined();
  });

  test('what a sniff finds: a HEIF brand, text, binary', () => {
    const heif = new Uint8Array([0, 0, 0, 24, ...Buffer.from('ftypheic'), 0, 0, 0, 0]);
    expect(sniffedOf({ bytes: heif, truncated: false })).toBe('heif');
    expect(sniffedOf({ bytes: Buffer.from(TEXT), truncated: false })).toBe('text');
    expect(sniffedOf({ bytes: BINARY, truncated: false })).toBe('binary');
    // A UTF-8 sequence cut by the end of the sample is still text.
    expect(sniffedOf({ bytes: Buffer.from('déjà').subarray(0, 2), truncated: true })).toBe('text');
  });
});
