import type { Command } from 'commander';
import { redactUrl } from '../../server/db/database';
import { schemaVersion } from '../../server/db/migrate';
import { MIGRATIONS } from '../../server/db/migrations';
import { VERSION } from '../../server/core/version';
import { fail, print, withServices, type GlobalOpts } from '../context';

/**
 * `filedeck health`: is the database reachable, at which schema version, how many users. A quick check that
 * works offline and beside running servers; `filedeck doctor` is the deep one. Unreachable: one line, exit 1.
 */
export function registerHealth(program: Command): void {
  program.command('health').description('database reachable, schema version and user count').action(async (_o, cmd: Command) => {
    const o = cmd.optsWithGlobals() as GlobalOpts;
    await withServices(o, async (s) => {
      const started = performance.now();
      const schema = await schemaVersion(s.db);
      const users = (await s.users.list()).length;
      const report = {
        status: 'ok',
        version: VERSION,
        database: { engine: s.db.engine, location: redactUrl(s.config.database), reachable: true, latencyMs: Math.round((performance.now() - started) * 10) / 10 },
        schema: { version: schema, latest: MIGRATIONS.at(-1)!.version },
        users,
      };
      print(o, report, () => [
        `status    ok (Filedeck ${VERSION})`,
        `database  ${report.database.engine} ${report.database.location}, reachable (${report.database.latencyMs} ms)`,
        `schema    version ${schema} (latest ${report.schema.latest})`,
        `users     ${users}`,
      ].join('\n'));
    }).catch(fail);
  });
}
