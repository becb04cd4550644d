import { AppError } from '../core/errors';
import { MIGRATIONS } from './migrations';
import type { Sql } from './sql';

/** The schema version: SQLite's user_version, or the schema_version row on PostgreSQL. */
export async function schemaVersion(db: Sql): Promise<number> {
  if (db.engine === 'sqlite') return (await db.get<{ user_version: number }>('PRAGMA user_version'))!.user_version;
  return (await db.get<{ version: number }>('SELECT max(version) AS version FROM schema_version'))?.version ?? 0;
}

/**
 * Applies every migration newer than the database's version, each in its own transaction. On PostgreSQL an
 * advisory lock makes instances starting together migrate one after the other.
 */
export async function migrate(db: Sql): Promise<number> {
  const latest = MIGRATIONS.at(-1)!.version;
  const pending = async (tx: Sql) => {
    const current = await schemaVersion(tx);
    if (current > latest)
      throw new AppError('INVALID', `database schema version ${current} is newer than this Filedeck (${latest}); upgrade Filedeck`);
    return MIGRATIONS.filter((m) => m.version > current);
  };
  if (db.engine === 'sqlite') {
    // One transaction per migration: a failed step never leaves half a schema.
    for (const m of await pending(db))
      await db.transaction(async (tx) => {
        await tx.exec(m.sql);
        await tx.exec(`PRAGMA user_version = ${m.version}`);
      });
  } else {
    await db.exec('CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)');
    await db.transaction(async (tx) => {
      await tx.get('SELECT pg_advisory_xact_lock(7234001)');
      for (const m of await pending(tx)) {
        await tx.exec(m.pg);
        await tx.run('INSERT INTO schema_version (version) VALUES (?)', m.version);
      }
    });
  }
  return latest;
}
