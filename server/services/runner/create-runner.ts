import { isAbsolute, join } from 'node:path';
import { TRASH_DIR, VERSIONS_DIR } from '../../fs/trash-fs';
import { statePaths, type Config } from '../../core/config';
import type { Logger } from '../../core/log';
import type { SettingsService } from '../settings/settings.service';
import type { AuditService } from '../audit/audit.service';
import { Runner } from './runner.service';
import { detectExecMode } from './sandbox';

/**
 * Server files a command must never see, even when an admin placed them inside a user's scope: the SQLite
 * database with its journal files, the config file, the preview cache, the trash and the versions (ensured at
 * start, so they exist to be masked).
 */
function hiddenPaths(config: Readonly<Config> & { configFile?: string | null }): string[] {
  // The state files as config.ts names them (the one list: fs/state-paths.ts hides the same from every scope).
  return [...statePaths(config), join(config.root, TRASH_DIR), join(config.root, VERSIONS_DIR)].filter((p) => p && isAbsolute(p));
}

/** Builds the runner after deciding, once, how commands run here (bubblewrap, unsafe, or off). */
export async function createRunner(config: Readonly<Config> & { configFile?: string | null }, settings: SettingsService, log: Logger, audit?: AuditService): Promise<Runner> {
  const { mode, bwrap } = await detectExecMode(config);
  const sandbox = bwrap ? { bwrap, network: config.execNetwork, hidden: hiddenPaths(config) } : null;
  return new Runner({ enableExec: config.enableExec, mode, sandbox, timeoutMs: config.commandTimeout, settings, log, audit });
}

/** The start-up warning that says how commands run (null when exec is disabled). */
export function execWarning(config: Readonly<Config>, runner: Runner): string | null {
  if (!config.enableExec) return null;
  if (runner.mode === 'bubblewrap')
    return `enableExec is on: users with the execute permission can run their allowed commands, and event hooks run, inside bubblewrap (scope only, ${config.execNetwork ? 'with' : 'no'} network)`;
  if (runner.mode === 'none-unsafe')
    return 'enableExec is on WITHOUT a sandbox (execUnsafeNoSandbox): bubblewrap is unusable here, so commands and hooks can read and change everything the server can, other users\' files and the database included';
  return 'enableExec is on but commands and event hooks are OFF: bubblewrap is missing or unusable here (install bubblewrap, or set execUnsafeNoSandbox to run them unconfined)';
}
