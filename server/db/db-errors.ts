import { AppError } from '../core/errors';

/** PostgreSQL SQLSTATEs for a full disk or too little memory to store more (class 53). */
const PG_FULL = new Set(['53100', '53200', '53400']);

/**
 * Translates "the database cannot store more" once, here, for every store: SQLite's SQLITE_FULL (disk full or
 * max_page_count reached) and PostgreSQL's disk_full become NO_SPACE (507 with a message, 1 in the CLI) instead of
 * a bare 500. Any other error passes through unchanged.
 */
export function fromDbError(e: unknown): unknown {
  if (e instanceof AppError) return e;
  const err = e as { code?: unknown; errno?: unknown };
  if (err?.code === 'SQLITE_FULL' || PG_FULL.has(String(err?.errno ?? '')) || PG_FULL.has(String(err?.code ?? '')))
    return new AppError('NO_SPACE', 'the database is full: no change was saved', { cause: e });
  return e;
}
