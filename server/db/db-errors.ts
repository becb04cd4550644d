import { AppError } from '../core/errors';

/** PostgreSQL SQLSTATEs for a full disk or too little memory to store more (class 53). */
const PG_FULL = new Set(['53100', '53200', '53400']);

/**
 * True for errors that mean "the database server is gone or not answering" (Bun.SQL connection codes, SQLSTATE
 * class 08 connection exceptions, 57P01-57P03 shutdown / cannot connect now), as opposed to a bad statement.
 */
export function isConnectionError(e: unknown): boolean {
  const { code, errno } = (e ?? {}) as { code?: unknown; errno?: unknown };
  if (typeof code === 'string' && (/^ERR_POSTGRES_(CONNECTION|.*TIMEOUT)/.test(code) || ['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT'].includes(code))) return true;
  return typeof errno === 'string' && (/^08/.test(errno) || /^57P0[123]$/.test(errno));
}

/**
 * Translates "the database cannot store more" once, here, for every store: SQLite's SQLITE_FULL (disk full or
 * max_page_count reached) and PostgreSQL's disk_full become NO_SPACE (507 with a message, 1 in the CLI) instead of
 * a bare 500; a lost PostgreSQL connection becomes UNAVAILABLE (503). Any other error passes through unchanged.
 */
export function fromDbError(e: unknown): unknown {
  if (e instanceof AppError) return e;
  const err = e as { code?: unknown; errno?: unknown };
  if (err?.code === 'SQLITE_FULL' || PG_FULL.has(String(err?.errno ?? '')) || PG_FULL.has(String(err?.code ?? '')))
    return new AppError('NO_SPACE', 'the database is full: no change was saved', { cause: e });
  // A lost database server is a 503 with a message; the pool reconnects by itself on a later statement.
  if (isConnectionError(e)) return new AppError('UNAVAILABLE', 'the database cannot be reached at the moment; try again shortly', { cause: e });
  return e;
}
