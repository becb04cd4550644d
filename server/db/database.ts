import { Database } from 'bun:sqlite';
import { SQL } from 'bun';
import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import { AppError } from '../core/errors';
import { migrate } from './migrate';
import { isPostgresUrl, PostgresSql, SqliteSql, type Sql } from './sql';
import { WalHeader } from './wal-header';

export interface OpenOptions {
  /** PostgreSQL: how long to wait for a connection at start before giving up with a clear message. */
  connectTimeoutMs?: number;
  /**
   * PostgreSQL: the pool's size (default 20, for a server). Each connection is a server process that costs ~20 ms
   * to start, and a start-up's concurrent queries open as many as they may: a CLI command asks for a few.
   */
  maxConnections?: number;
}

/**
 * Opens the database named by `database` and brings its schema up to date: a PostgreSQL URL
 * (postgres://user@host:port/db), or a SQLite file (created when missing, owner-only, WAL mode).
 */
export async function openDatabase(database: string, opts: OpenOptions = {}): Promise<Sql> {
  const db = isPostgresUrl(database) ? await openPostgres(database, opts.connectTimeoutMs ?? 10_000, opts.maxConnections ?? 20) : openSqlite(database);
  try {
    await migrate(db);
  } catch (e) {
    await db.close().catch(() => {});
    throw e;
  }
  return db;
}

function openSqlite(file: string): Sql {
  if (file !== ':memory:') {
    const dir = dirname(file);
    if (!existsSync(dir)) mkdirSync(dir, { recursive: true, mode: 0o700 });
    if (!existsSync(file)) closeSync(openSync(file, 'a', 0o600));
    chmodSync(file, 0o600);
  }
  const db = new Database(file, { create: true, strict: true });
  db.exec('PRAGMA busy_timeout = 5000');
  db.exec('PRAGMA journal_mode = WAL');
  db.exec('PRAGMA synchronous = NORMAL');
  db.exec('PRAGMA foreign_keys = ON');
  return new SqliteSql(db, false, undefined, file === ':memory:' ? null : new WalHeader(file));
}

/** A URL without its password, for messages. */
export function redactUrl(url: string): string {
  return url.replace(/(\/\/[^:/@]+):[^@]*@/, '$1:***@');
}

async function openPostgres(url: string, timeoutMs: number, max: number): Promise<Sql> {
  const sql = new SQL(url, { max, connectionTimeout: Math.ceil(timeoutMs / 1000), idleTimeout: 60 });
  const db = new PostgresSql(sql);
  let timer: Timer | undefined;
  try {
    await Promise.race([
      db.get('SELECT 1'),
      new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs))),
    ]);
  } catch (e) {
    await sql.close({ timeout: 0 }).catch(() => {});
    throw new AppError('UNAVAILABLE', `cannot reach the database ${redactUrl(url)}: ${(e as Error).message}`);
  } finally {
    clearTimeout(timer);
  }
  return db;
}
