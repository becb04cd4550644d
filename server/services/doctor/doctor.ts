import type { Config } from '../../core/config';
import { AppError } from '../../core/errors';
import { VERSION } from '../../core/version';
import { openDatabase, redactUrl } from '../../db/database';
import { HealthStore } from '../../db/health.store';
import { schemaVersion } from '../../db/migrate';
import { MIGRATIONS } from '../../db/migrations';
import { SettingsStore } from '../../db/settings.store';
import { RootIdentityStore } from '../../db/root-identity.store';
import { SharesStore } from '../../db/shares.store';
import { rootIdentityCheck } from './root-identity-check';
import { isPostgresUrl } from '../../db/sql';
import { failed, ok, warn, type DoctorCheck } from './doctor-check';
import { databaseFileChecks, inotifyCheck, rootChecks, spaceCheck } from './install-checks';
import { proxyChecks, sandboxCheck, thumbnailCheck, tlsCheck } from './setup-checks';
import { stateFilesCheck } from './state-files-check';
import { dirname } from 'node:path';

/** How far the database server's clock may be from ours before sessions and links expire at the wrong time. */
const CLOCK_WARN_MS = 5_000;
const CLOCK_FAIL_MS = 120_000;

/**
 * `filedeck doctor`: checks an installation and says what to fix. Reads files and the database; the only thing it
 * may change is what any CLI verb changes on open (the SQLite file's mode, pending migrations).
 */
export async function runDoctor(config: Readonly<Config> & { configFile?: string | null }): Promise<DoctorCheck[]> {
  const out: DoctorCheck[] = [ok('version', `Filedeck ${VERSION}`)];
  out.push(config.configFile ? ok('config file', config.configFile) : ok('config file', 'none found: defaults, FILEDECK_* environment and flags'));
  const postgres = isPostgresUrl(config.database);
  // Permissions first: opening the database sets the file's mode.
  const fileChecks = postgres ? [] : databaseFileChecks(config.database);
  out.push(...fileChecks);
  let authMethod: string | null = null;
  if (!fileChecks.some((c) => c.status === 'FAIL')) authMethod = await databaseChecks(config, out);
  out.push(...rootChecks(config.root));
  out.push(stateFilesCheck(config));
  out.push(spaceCheck('free space (files)', config.root));
  if (!postgres) out.push(spaceCheck('free space (database)', dirname(config.database)));
  out.push(inotifyCheck());
  out.push(await sandboxCheck(config));
  out.push(await thumbnailCheck(config));
  out.push(...proxyChecks(config, authMethod));
  const tls = tlsCheck(config);
  if (tls) out.push(tls);
  return out;
}

/** Reachability, schema version and clock; returns the login method for the proxy hints (null when unknown). */
async function databaseChecks(config: Readonly<Config>, out: DoctorCheck[]): Promise<string | null> {
  const name = isPostgresUrl(config.database) ? redactUrl(config.database) : config.database;
  let db;
  try {
    db = await openDatabase(config.database, { connectTimeoutMs: Math.min(config.databaseConnectTimeout, 5000) });
  } catch (e) {
    out.push(failed('database', `${name}: ${e instanceof AppError ? (e.detail ?? e.code) : 'cannot be opened'}`, 'check that the database server runs and the URL, user and password are right'));
    return null;
  }
  try {
    const health = new HealthStore(db);
    const started = Date.now();
    await health.ping();
    out.push(ok('database', `${name} answers (${db.engine}, ${Date.now() - started} ms)`));
    const version = await schemaVersion(db);
    const latest = MIGRATIONS.at(-1)!.version;
    out.push(version === latest ? ok('schema', `version ${version}`) : warn('schema', `version ${version}, this Filedeck expects ${latest}`, 'start the server once to migrate'));
    const theirs = await health.serverTime();
    if (theirs === null) out.push(ok('clock', 'SQLite runs in this process: one clock'));
    else {
      const skew = Math.abs(theirs - Date.now());
      const text = `database clock is ${(skew / 1000).toFixed(1)} s from this machine's`;
      if (skew > CLOCK_FAIL_MS) out.push(failed('clock', text, 'sync both machines with NTP (timedatectl set-ntp true)'));
      else if (skew > CLOCK_WARN_MS) out.push(warn('clock', text, 'sync both machines with NTP (timedatectl set-ntp true)'));
      else out.push(ok('clock', text));
    }
    // The root as this database last served it: a disk not mounted, an empty mount point or another disk FAILs.
    out.push(await rootIdentityCheck(config.root, new RootIdentityStore(db), new SharesStore(db)));
    const all = await new SettingsStore(db).getAll().catch(() => ({}) as Record<string, unknown>);
    return typeof all.authMethod === 'string' ? all.authMethod : null;
  } catch (e) {
    out.push(failed('database', `${name}: ${e instanceof AppError ? (e.detail ?? e.code) : (e as Error).message}`, 'check the database'));
    return null;
  } finally {
    await db.close().catch(() => {});
  }
}
