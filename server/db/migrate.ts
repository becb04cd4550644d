import type { Database } from 'bun:sqlite';
import { AppError } from '../core/errors';
import { MIGRATIONS } from './migrations';

/** Applies every migration newer than the database's user_version, each in its own transaction. */
export function migrate(db: Database): number {
  const current = (db.query('PRAGMA user_version').get() as { user_version: number }).user_version;
  const latest = MIGRATIONS.at(-1)!.version;
  if (current > latest)
    throw new AppError('INVALID', `database schema version ${current} is newer than this Filedeck (${latest}); upgrade Filedeck`);
  for (const m of MIGRATIONS) {
    if (m.version <= current) continue;
    db.transaction(() => {
      db.exec(m.sql);
      db.exec(`PRAGMA user_version = ${m.version}`);
    }).immediate();
  }
  return latest;
}

export function schemaVersion(db: Database): number {
  return (db.query('PRAGMA user_version').get() as { user_version: number }).user_version;
}
