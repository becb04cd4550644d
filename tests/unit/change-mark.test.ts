import { Database } from 'bun:sqlite';
import { afterEach, describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../../server/db/database';
import type { Sql } from '../../server/db/sql';

// The database's change mark (sql.ts changeMark, wal-header.ts): the trust of held sessions and settings rests on
// "every commit, by anyone, changes it; nothing else needs to". Each case commits one way and looks at the mark.
let dir = '';
let db: Sql | null = null;
afterEach(async () => {
  await db?.close();
  db = null;
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function open(): Promise<{ db: Sql; file: string }> {
  dir = mkdtempSync(join(tmpdir(), 'filedeck-mark-'));
  const file = join(dir, 'db.sqlite');
  db = await openDatabase(file);
  return { db, file };
}
const bump = "INSERT INTO revisions (name, n) VALUES ('t', 1) ON CONFLICT (name) DO UPDATE SET n = revisions.n + 1";

describe('change mark on SQLite', () => {
  test('read from the WAL index header; unchanged by reads, changed by this connection\'s commits', async () => {
    const { db } = await open();
    const a = await db.changeMark();
    expect(a).toStartWith('w'); // the header, not the fallback statement
    await db.get('SELECT count(*) AS n FROM users');
    expect(await db.changeMark()).toBe(a);
    await db.run(bump);
    const b = await db.changeMark();
    expect(b).not.toBe(a);
    await db.transaction(async (tx) => {
      await tx.run(bump);
      expect(await db.changeMark()).toBe(b); // not committed yet: nobody can read it
    });
    expect(await db.changeMark()).not.toBe(b);
  });

  test('changed by another connection and by another process', async () => {
    const { db, file } = await open();
    const a = await db.changeMark();
    const other = new Database(file);
    other.run("UPDATE revisions SET n = n + 1 WHERE name = 'settings'");
    other.run(bump);
    other.close();
    const b = await db.changeMark();
    expect(b).not.toBe(a);
    const script = `const { Database } = require('bun:sqlite'); const d = new Database(${JSON.stringify(file)}); d.run(${JSON.stringify(bump)}); d.close();`;
    const p = Bun.spawnSync([process.execPath, '-e', script]);
    expect(p.exitCode).toBe(0);
    expect(await db.changeMark()).not.toBe(b);
  });

  test('a checkpoint that restarts the WAL, then a commit of as many frames as before, still changes it', async () => {
    const { db, file } = await open();
    const other = new Database(file);
    other.run(bump);
    other.run('PRAGMA wal_checkpoint(TRUNCATE)');
    const a = await db.changeMark();
    other.run(bump);
    other.run('PRAGMA wal_checkpoint(TRUNCATE)');
    other.run(bump); // the same one-frame commit into a fresh WAL: the salts differ
    other.close();
    expect(await db.changeMark()).not.toBe(a);
  });

  test('without a readable header SQLite is asked (data_version and total_changes), and still sees every commit', async () => {
    const { db, file } = await open();
    // The reader as it is when it cannot read the header (closed: no descriptor, never reopened).
    (db as unknown as { wal: { close(): void } }).wal.close();
    const a = await db.changeMark();
    expect(a).toStartWith('s');
    await db.run(bump);
    const b = await db.changeMark();
    expect(b).not.toBe(a);
    const other = new Database(file);
    other.run(bump);
    other.close();
    expect(await db.changeMark()).not.toBe(b);
  });

  test('read once per task: held until the task ends or a statement of ours runs, then read anew', async () => {
    const { db, file } = await open();
    const a = db.changeMarkNow();
    expect(a).toStartWith('w');
    const other = new Database(file);
    other.run(bump);
    // Same synchronous run: the mark read first is answered (as if the other commit came a moment later)...
    expect(db.changeMarkNow()).toBe(a);
    await Promise.resolve();
    // ...and from the next task on the commit shows.
    const b = db.changeMarkNow();
    expect(b).not.toBe(a);
    // A statement of this connection drops the held mark at once, within the same task.
    other.run(bump);
    await db.get('SELECT 1 AS one');
    const c = db.changeMarkNow();
    expect(c).not.toBe(b);
    await db.run(bump);
    expect(db.changeMarkNow()).not.toBe(c);
    other.close();
  });

  test('an in-memory database has no header and asks SQLite', async () => {
    db = await openDatabase(':memory:');
    const a = await db.changeMark();
    expect(a).toStartWith('s');
    await db.run(bump);
    expect(await db.changeMark()).not.toBe(a);
  });
});
