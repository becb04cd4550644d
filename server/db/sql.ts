import type { Database } from 'bun:sqlite';
import { SQL } from 'bun';
import { fromDbError } from './db-errors';
import type { WalHeader } from './wal-header';

export type Engine = 'sqlite' | 'postgres';

export interface RunResult {
  /** Rows inserted, updated or deleted. */
  changes: number;
}

/**
 * The one async SQL interface every store talks through, on the embedded SQLite (bun:sqlite: prepared statements
 * are several times faster than a driver round trip, and SQLite is the default) and on PostgreSQL (Bun.SQL).
 * Statements are written once with `?` placeholders (`?1`… where a value repeats); PostgreSQL gets `$n`.
 */
export interface Sql {
  readonly engine: Engine;
  all<T>(text: string, ...params: unknown[]): Promise<T[]>;
  get<T>(text: string, ...params: unknown[]): Promise<T | null>;
  run(text: string, ...params: unknown[]): Promise<RunResult>;
  /** Several statements as one: each runs on SQL (bun:sqlite exec / simple query protocol), no parameters. */
  exec(text: string): Promise<void>;
  /**
   * A transaction: all statements of `fn` go through `tx` and commit together, or none do. On SQLite the one
   * connection is held (others wait), so keep transactions short and free of file work.
   */
  transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T>;
  /**
   * A mark that differs whenever a change was committed in between, by this connection or any other process or
   * connection; null where the engine cannot tell that cheaply (PostgreSQL), and callers read what they need.
   * Read the mark BEFORE the data it vouches for: data read after it is at least as new as the mark says.
   */
  changeMark(): Promise<string | null>;
  /** changeMark() when it can be had without waiting (SQLite's WAL index header); undefined otherwise. */
  changeMarkNow(): string | undefined;
  /**
   * PostgreSQL only: calls `onPayload` with each NOTIFY on `channel` (one dedicated connection, re-subscribed after a
   * drop); resolves once listening, with the way to stop. Absent on SQLite (one instance, nothing to hear).
   */
  listen?(channel: string, onPayload: (payload: string) => void): Promise<{ unlisten(): Promise<void> }>;
  close(): Promise<void>;
}

/**
 * The mark asked of SQLite when the WAL index header cannot be read (wal-header.ts): data_version moves when another
 * connection commits, total_changes counts this connection's own row changes. One statement without table access.
 */
const CHANGE_MARK = 'SELECT data_version AS v, total_changes() AS c FROM pragma_data_version';

/** Runs one bun:sqlite call, with "database full" translated (db-errors.ts). */
function full<T>(fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    throw fromDbError(e);
  }
}

const pgFull = (e: unknown): never => {
  throw fromDbError(e);
};

/** `?` and `?N` placeholders to PostgreSQL's `$N` (our statements never hold a literal question mark). */
export function toPostgres(text: string): string {
  let n = 0;
  return text.replace(/\?(\d+)?/g, (_m, num: string | undefined) => `$${num ?? ++n}`);
}

/** Who holds the one SQLite connection for a transaction; statements outside it wait until it ends. */
class Gate {
  /** A transaction is open on the connection. */
  busy = false;
  private tail: Promise<void> = Promise.resolve();
  private idle: Promise<void> = Promise.resolve();

  /** Resolves when the caller holds the connection; returns the release function. */
  async acquire(): Promise<() => void> {
    let release!: () => void;
    const prev = this.tail;
    this.tail = new Promise<void>((r) => (release = r));
    await prev;
    let done!: () => void;
    this.idle = new Promise<void>((r) => (done = r));
    this.busy = true; // set in the same tick as the caller's BEGIN: no statement can slip in between
    return () => {
      this.busy = false;
      done();
      release();
    };
  }

  async wait(): Promise<void> {
    while (this.busy) await this.idle;
  }
}

/** SQLite through bun:sqlite. One connection; a transaction holds it until it ends, other statements wait. */
export class SqliteSql implements Sql {
  readonly engine = 'sqlite' as const;

  /**
   * @param wal the WAL index header of the database file (wal-header.ts), read for changeMark(); without it (an
   *   in-memory database) the mark is asked of SQLite.
   */
  constructor(readonly db: Database, private readonly inTx = false, private readonly gate = new Gate(), private readonly wal: WalHeader | null = null) {}

  /** Outside a transaction, waits while one holds the connection; the statement then runs in the same tick. */
  private async turn(): Promise<void> {
    if (!this.inTx && this.gate.busy) await this.gate.wait();
  }

  async all<T>(text: string, ...params: unknown[]): Promise<T[]> {
    await this.turn();
    return this.ran(() => this.db.query(text).all(...(params as never[])) as T[]);
  }

  async get<T>(text: string, ...params: unknown[]): Promise<T | null> {
    await this.turn();
    return this.ran(() => (this.db.query(text).get(...(params as never[])) as T | null) ?? null);
  }

  async run(text: string, ...params: unknown[]): Promise<RunResult> {
    await this.turn();
    return this.ran(() => ({ changes: this.db.query(text).run(...(params as never[])).changes }));
  }

  async exec(text: string): Promise<void> {
    await this.turn();
    this.ran(() => this.db.exec(text));
  }

  changeMarkNow(): string | undefined {
    // The header needs no turn of the connection: a transaction still open elsewhere has not changed it yet, and
    // the rows read after this mark wait for its end. Read once per task (the settings check and authentication of
    // one request share it), and again after any statement of ours (wal-header.ts heldMark).
    const header = this.wal?.heldMark();
    return header ? `w${header}` : undefined;
  }

  /** Runs one statement: a statement of ours may have committed, so the held change mark is read anew after it. */
  private ran<T>(fn: () => T): T {
    try {
      return full(fn);
    } finally {
      this.wal?.forget();
    }
  }

  changeMark(): Promise<string | null> {
    const now = this.changeMarkNow();
    if (now !== undefined) return Promise.resolve(now);
    return this.turn().then(() => {
      const r = full(() => this.db.query(CHANGE_MARK).get() as { v: number; c: number });
      return `s${r.v}:${r.c}`;
    });
  }

  async transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T> {
    if (this.inTx) return fn(this); // nested: part of the outer transaction
    const release = await this.gate.acquire();
    try {
      this.db.exec('BEGIN IMMEDIATE');
      try {
        const out = await fn(new SqliteSql(this.db, true, this.gate, this.wal));
        this.ran(() => this.db.exec('COMMIT'));
        return out;
      } catch (e) {
        if (!this.db.inTransaction) throw e; // SQLite may have rolled back by itself (SQLITE_FULL does)
        this.db.exec('ROLLBACK');
        throw e;
      }
    } finally {
      release();
    }
  }

  async close(): Promise<void> {
    await this.gate.wait();
    this.wal?.close();
    this.db.close();
  }
}

/** PostgreSQL through Bun.SQL (a pool; a transaction reserves one connection). */
export class PostgresSql implements Sql {
  readonly engine = 'postgres' as const;

  constructor(private readonly sql: SQL, private readonly inTx = false) {}

  async all<T>(text: string, ...params: unknown[]): Promise<T[]> {
    return [...((await this.sql.unsafe(toPostgres(text), params).catch(pgFull)) as T[])];
  }

  async get<T>(text: string, ...params: unknown[]): Promise<T | null> {
    return (await this.all<T>(text, ...params))[0] ?? null;
  }

  async run(text: string, ...params: unknown[]): Promise<RunResult> {
    const r = (await this.sql.unsafe(toPostgres(text), params).catch(pgFull)) as unknown as { count?: number | null };
    return { changes: Number(r.count ?? 0) };
  }

  async exec(text: string): Promise<void> {
    await this.sql.unsafe(text).simple().catch(pgFull);
  }

  /** PostgreSQL offers no cheap commit counter that covers other instances: callers read the rows themselves. */
  async changeMark(): Promise<string | null> {
    return null;
  }

  changeMarkNow(): undefined {
    return undefined;
  }

  async listen(channel: string, onPayload: (payload: string) => void): Promise<{ unlisten(): Promise<void> }> {
    return this.sql.listen(channel, onPayload);
  }

  async transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T> {
    if (this.inTx) return fn(this);
    return (this.sql.begin((tx) => fn(new PostgresSql(tx as unknown as SQL, true))) as Promise<T>).catch(pgFull);
  }

  async close(): Promise<void> {
    if (!this.inTx) await this.sql.close();
  }
}

/** `s` as literal text inside a LIKE pattern (with `ESCAPE '\\'`): its backslashes, `%` and `_` escaped. */
export const escapeLike = (s: string): string => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** True when the configured database is a PostgreSQL URL rather than a SQLite file. */
export function isPostgresUrl(database: string): boolean {
  return /^postgres(ql)?:\/\//i.test(database);
}
