import type { Command } from 'commander';
import { existsSync } from 'node:fs';
import { AppError } from '../../server/core/errors';
import { copyDatabase } from '../../server/db/copy';
import { openDatabase } from '../../server/db/database';
import { isPostgresUrl, type Sql } from '../../server/db/sql';
import { fail } from '../context';

/** `filedeck db copy --from <sqlite path|postgres url> --to <…> [--force]`: moves everything between engines. */
export function registerDb(program: Command): void {
  const db = program.command('db').description('database maintenance');
  db.command('copy')
    .description('copy every table from one database to another (SQLite file or postgres:// URL, either way)')
    .requiredOption('--from <database>', 'source: a SQLite file or a postgres:// URL')
    .requiredOption('--to <database>', 'target: a SQLite file (created when missing) or a postgres:// URL')
    .option('--force', 'replace the contents of a non-empty target')
    .option('--connect-timeout <ms>', 'PostgreSQL connect timeout', '10000')
    .action(async (o: { from: string; to: string; force?: boolean; connectTimeout: string }, cmd: Command) => {
      let from: Sql | null = null;
      let to: Sql | null = null;
      try {
        if (!isPostgresUrl(o.from) && !existsSync(o.from)) throw new AppError('NOT_FOUND', `source database ${o.from} does not exist`);
        if (o.from === o.to) throw new AppError('INVALID', 'source and target are the same database');
        const opts = { connectTimeoutMs: Number(o.connectTimeout) || 10_000 };
        from = await openDatabase(o.from, opts);
        to = await openDatabase(o.to, opts);
        const report = await copyDatabase(from, to, { force: !!o.force });
        if (cmd.optsWithGlobals().json) process.stdout.write(`${JSON.stringify(report)}\n`);
        else for (const r of report) process.stdout.write(`${r.table.padEnd(16)} ${r.rows} rows\n`);
      } catch (e) {
        await from?.close().catch(() => {});
        await to?.close().catch(() => {});
        fail(e);
      }
      await from.close();
      await to.close();
    });
}
