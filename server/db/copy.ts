import { AppError } from '../core/errors';
import type { Sql } from './sql';

/** Our tables on either engine (migration bookkeeping excluded: each engine keeps its own). */
export async function tablesOf(db: Sql): Promise<string[]> {
  const rows =
    db.engine === 'sqlite'
      ? await db.all<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
      : await db.all<{ name: string }>('SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema()');
  // users first: every foreign key so far points at users.id.
  return rows.map((r) => r.name).filter((n) => n !== 'schema_version').sort((a, b) => (a === 'users' ? -1 : b === 'users' ? 1 : a.localeCompare(b)));
}

async function columnsOf(db: Sql, table: string): Promise<string[]> {
  if (db.engine === 'sqlite') return (await db.all<{ name: string }>(`SELECT name FROM pragma_table_info('${table}')`)).map((r) => r.name);
  return (await db.all<{ name: string }>('SELECT column_name AS name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = ? ORDER BY ordinal_position', table)).map((r) => r.name);
}

export const countRows = async (db: Sql, table: string) => Number((await db.get<{ n: number }>(`SELECT count(*) AS n FROM ${table}`))!.n);

export interface CopyReport {
  table: string;
  rows: number;
}

/**
 * Copies every row of every table from one database to another (SQLite and PostgreSQL in any direction), both
 * already migrated to the same schema. Refuses a target holding any row unless `force` (then its rows are
 * deleted first). One transaction on the target: a failure leaves it as it was. Row counts are compared after.
 */
export async function copyDatabase(from: Sql, to: Sql, opts: { force?: boolean } = {}): Promise<CopyReport[]> {
  const tables = await tablesOf(from);
  const targetTables = new Set(await tablesOf(to));
  const missing = tables.filter((t) => !targetTables.has(t));
  if (missing.length) throw new AppError('INVALID', `the target has no table ${missing.join(', ')}: its schema differs from the source`);
  if (!opts.force)
    for (const t of tables) if ((await countRows(to, t)) > 0) throw new AppError('EXISTS', `the target is not empty (table ${t} has rows); add --force to replace its contents`);
  await to.transaction(async (tx) => {
    for (const t of [...tables].reverse()) await tx.run(`DELETE FROM ${t}`);
    for (const t of tables) {
      const cols = await columnsOf(from, t);
      const list = cols.map((c) => `"${c}"`).join(', ');
      const insert = `INSERT INTO ${t} (${list}) VALUES (${cols.map(() => '?').join(', ')})`;
      for (const row of await from.all<Record<string, unknown>>(`SELECT ${list} FROM ${t}`)) await tx.run(insert, ...cols.map((c) => row[c]));
    }
    // PostgreSQL's identity counter does not move on explicit ids: set it past the copied ones.
    if (to.engine === 'postgres')
      for (const t of ['users', 'audit'].filter((n) => tables.includes(n)))
        await tx.get(`SELECT setval(pg_get_serial_sequence('${t}', 'id'), greatest((SELECT max(id) FROM ${t}), 1))`);
  });
  const report: CopyReport[] = [];
  for (const t of tables) {
    const [a, b] = [await countRows(from, t), await countRows(to, t)];
    if (a !== b) throw new AppError('INTERNAL', `table ${t}: ${a} rows in the source but ${b} in the target`);
    report.push({ table: t, rows: b });
  }
  return report;
}
