import { describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import type { FilebrowserDump } from '../../server/services/import/filebrowser/fb-dump';
import { readFilebrowserDb } from '../../server/services/import/filebrowser/read-db';
import { FB_FIXTURES, fbExpected as expected } from '../helpers/fb-fixtures';

// The read-only filebrowser reader (server/services/import/filebrowser/read-db.ts) against the real fixtures, written
// by bbolt + storm the way filebrowser writes them: the whole logical content of the basic (4 KiB and 16 KiB pages)
// and v2.0-era files, and the counts, gaps and samples of the large one (branch and overflow pages, deletions).

/** The part of an expected-*.json file that is the dump itself (the rest: plaintext passwords, notes). */
function dumpOf(e: Record<string, unknown>): FilebrowserDump {
  const { config, users, shares, storm, stormMeta } = e as unknown as FilebrowserDump;
  return { config, users, shares, storm, stormMeta };
}

/** What expected-large-summary.json holds (counts and samples: the file would be 4 MB as a full dump). */
interface LargeSummary {
  users: number;
  shares: number;
  userIDCounter: number;
  deletedUserIDs: number[];
  sampleUsers: FilebrowserDump['users'];
  sampleShares: Array<FilebrowserDump['shares'][number] & { password: string }>;
  orphanShares: number;
  'expiredSharesAsOf2026-07-01': number;
  expiringShares: number;
  passwordShares: number;
  globalRules: number;
}

describe('filebrowser database reader: fixtures', () => {
  test.each([
    ['basic.db', 'expected-basic.json'],
    ['basic-16k.db', 'expected-basic.json'],
    ['older.db', 'expected-older.json'],
  ])('%s reads back exactly as %s', async (db, json) => {
    const dump = await readFilebrowserDb(join(FB_FIXTURES, db));
    expect(dump).toEqual(dumpOf(expected(json)));
    // toEqual ignores key order and undefined; the order of users and shares is part of the contract
    expect(dump.users.map((u) => u.value.id)).toEqual([1, 2, 3]);
  });

  test('older.db keeps the v2.0 shapes: 11-key users, no tus, the [""] shell, shares without password keys', async () => {
    const dump = await readFilebrowserDb(join(FB_FIXTURES, 'older.db'));
    for (const u of dump.users) expect(Object.keys(u.value)).toHaveLength(11);
    expect('tus' in dump.config.settings).toBe(false);
    expect(dump.config.settings.shell).toEqual(['']);
    expect(dump.users.find((u) => u.value.username === 'carol')?.value.scope).toBe('/srv/data/carol');
    for (const s of dump.shares) expect('password_hash' in s.value || 'token' in s.value).toBe(false);
  });

  test('large.db: counts, deleted ids, samples, the largest user, orphans and expiry', async () => {
    const summary = expected('expected-large-summary.json') as unknown as LargeSummary;
    const started = performance.now();
    const dump = await readFilebrowserDb(join(FB_FIXTURES, 'large.db'));
    const ms = performance.now() - started;
    expect(dump.users).toHaveLength(summary.users);
    expect(dump.shares).toHaveLength(summary.shares);
    expect(dump.stormMeta['User/__storm_metadata/IDcounter']).toBe(summary.userIDCounter);
    expect(dump.storm).toEqual({ '__storm_db/version': '2.0.0', codec: 'json' });

    const ids = new Set(dump.users.map((u) => u.value.id));
    const missing = Array.from({ length: summary.userIDCounter }, (_, i) => i + 1).filter((id) => !ids.has(id));
    expect(missing).toEqual(summary.deletedUserIDs);
    expect(dump.users.map((u) => u.value.id)).toEqual([...ids].sort((a, b) => a - b));
    for (const u of dump.users) expect(u.keyHex).toBe(u.value.id.toString(16).padStart(16, '0'));

    for (const sample of summary.sampleUsers) expect(dump.users.find((u) => u.keyHex === sample.keyHex)).toEqual(sample);
    for (const sample of summary.sampleShares) expect(dump.shares.find((s) => s.keyHex === sample.keyHex)?.value).toEqual(sample.value);
    const bySize = [...dump.users].sort((a, b) => JSON.stringify(b.value).length - JSON.stringify(a.value).length);
    expect(bySize[0]!.value.id).toBe(0x1b1); // the 19,213-byte record, spread over overflow pages
    expect(bySize[0]).toEqual(summary.sampleUsers.find((u) => u.keyHex === '00000000000001b1'));

    const asOf = Date.UTC(2026, 6, 1) / 1000;
    expect(dump.shares.filter((s) => !ids.has(s.value.userID))).toHaveLength(summary.orphanShares);
    expect(dump.shares.filter((s) => s.value.expire !== 0 && s.value.expire <= asOf)).toHaveLength(summary['expiredSharesAsOf2026-07-01']);
    expect(dump.shares.filter((s) => s.value.expire > asOf)).toHaveLength(summary.expiringShares);
    expect(dump.shares.filter((s) => s.value.password_hash)).toHaveLength(summary.passwordShares);
    expect(dump.config.settings.rules).toHaveLength(summary.globalRules);
    const hashes = dump.shares.map((s) => s.key);
    expect(hashes).toEqual([...hashes].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b))));
    for (const s of dump.shares) expect(s.key).toBe(s.value.hash);
    expect(ms).toBeLessThan(2000); // ~50 ms alone; generous for eight helpers on two cores
  });
});
