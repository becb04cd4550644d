import { describe, expect, test } from 'bun:test';
import { mkdtempSync, openSync, closeSync, writeSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hasLibc, startWriteback } from '../../server/fs/libc';
import { Writeback, WRITEBACK_WINDOW } from '../../server/fs/writeback';

describe('writeback of uploads (sync_file_range)', () => {
  test('the C library call is bound with the right signature: it succeeds on a written file and fails on a bad descriptor', () => {
    expect(hasLibc).toBe(true);
    const dir = mkdtempSync(join(tmpdir(), 'fd-wb-'));
    try {
      const fd = openSync(join(dir, 'f'), 'w');
      writeSync(fd, Buffer.alloc(1 << 20, 1));
      expect(startWriteback(fd, 0, 1 << 20)).toBe(true);
      // A 64-bit offset past 4 GiB is passed whole (a 32-bit binding would wrap it into a negative, EINVAL).
      expect(startWriteback(fd, 5 * 2 ** 30, 1 << 20)).toBe(true);
      closeSync(fd);
      expect(startWriteback(fd, 0, 1)).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('writing through it changes nothing in what lands, across window edges and odd sizes', () => {
    const dir = mkdtempSync(join(tmpdir(), 'fd-wb-'));
    try {
      const path = join(dir, 'f');
      const fd = openSync(path, 'w');
      const flow = new Writeback(fd);
      const want: Buffer[] = [];
      for (let i = 0, left = WRITEBACK_WINDOW * 2 + 12345; left > 0; i++) {
        const n = Math.min(left, 1 + ((i * 7919) % (3 * 1024 * 1024)));
        const chunk = Buffer.alloc(n, i % 251);
        writeSync(fd, chunk);
        flow.wrote(n);
        want.push(chunk);
        left -= n;
      }
      closeSync(fd);
      expect(readFileSync(path).equals(Buffer.concat(want))).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
