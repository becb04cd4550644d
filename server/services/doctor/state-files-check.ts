import { realpathSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { statePaths, type Config } from '../../core/config';
import { failed, ok, type DoctorCheck } from './doctor-check';

/** A path's real location, its missing tail kept (the database's -wal file may not exist yet). */
function realOf(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    const parent = dirname(p);
    return parent === p ? p : join(realOf(parent), basename(p));
  }
}

const within = (p: string, root: string) => p === root || p.startsWith(root.endsWith('/') ? root : `${root}/`);

/**
 * The server's state files (database and journals, config file, cache folder, TLS key, log) must live outside the
 * files root: inside it, a user whose scope holds them could be one step from the signing key and every session.
 * The server hides them from every scope (fs/state-paths.ts), but a layout that depends on that is a FAIL here,
 * with the way out.
 */
export function stateFilesCheck(config: Readonly<Config> & { configFile?: string | null }): DoctorCheck {
  const root = realOf(resolve(config.root));
  // The database's journals lie beside it: named once, with the database.
  const journals = new Set(['-wal', '-shm', '-journal'].map((s) => config.database + s));
  const inside = [...new Set(statePaths(config))].filter((p) => !journals.has(p) && within(realOf(p), root));
  if (!inside.length) return ok('state files', `the database, config and cache are outside the files root ${config.root}`);
  const named = inside.map((p) => `${p} (/${relative(root, realOf(p))} in the root)`).join(', ');
  return failed(
    'state files',
    `inside the files root: ${named}. Filedeck hides them from every user, but a user whose scope holds them is one mistake away from the signing key and every session`,
    'stop Filedeck, move them out of the root (e.g. database: /var/lib/filedeck/filedeck.db with its -wal/-shm files, cacheDir: /var/cache/filedeck, the config under /etc/filedeck), update the configuration, start again',
  );
}
