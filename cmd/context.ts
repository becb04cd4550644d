import { existsSync } from 'node:fs';
import { createServices, type Services } from '../server/app';
import { loadConfig, type Config } from '../server/core/config';
import { AppError } from '../server/core/errors';
import { isPostgresUrl } from '../server/db/sql';
import { silentLogger } from '../server/core/log';
import { terminalJson, terminalText } from './table';

export interface GlobalOpts {
  config?: string;
  database?: string;
  root?: string;
  json?: boolean;
}

/** PostgreSQL connections a CLI command may open (a transaction holds one while other statements may need another). */
const CLI_CONNECTIONS = 3;

/** Loads the configuration the same way the server does (file < env < flags). */
export function configFrom(opts: GlobalOpts, flags: Partial<Record<keyof Config, unknown>> = {}) {
  return loadConfig({ configFile: opts.config, flags: { database: opts.database, root: opts.root, ...flags } });
}

/**
 * Runs a CLI command against the same services the server uses (so the same validations apply), then closes
 * the database. Works while a server runs on the same file (SQLite WAL). `create` allows a missing database.
 */
export async function withServices<T>(opts: GlobalOpts, fn: (s: Services) => Promise<T> | T, create = false): Promise<T> {
  const config = configFrom(opts);
  if (!create && !isPostgresUrl(config.database) && !existsSync(config.database))
    throw new AppError('NOT_FOUND', `database ${config.database} does not exist; run "filedeck config init" or start the server once`);
  // A command runs its queries one after another: a few connections are plenty (each costs a server process).
  const s = await createServices(config, silentLogger, { maxConnections: CLI_CONNECTIONS });
  try {
    return await fn(s);
  } finally {
    await s.close();
  }
}

/** The CLI's one error exit: a message and status 1, never a stack trace for expected errors. */
export function fail(e: unknown): never {
  if (e instanceof AppError) process.stderr.write(`filedeck: ${terminalText(e.detail ?? e.code.toLowerCase().replace('_', ' '))}\n`);
  else process.stderr.write(`filedeck: ${terminalText((e as Error)?.message ?? String(e))}\n`);
  process.exit(1);
}

export function print(opts: GlobalOpts, data: unknown, human: () => string): void {
  // Terminal-safe either way (table.ts): escaped control and bidi characters, never raw.
  process.stdout.write(opts.json ? terminalJson(data) + '\n' : terminalText(human()) + '\n');
}
