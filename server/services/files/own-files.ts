import { statePaths, type Config } from '../../core/config';
import type { SettingsStore } from '../../db/settings.store';
import { protectStatePaths } from '../../fs/state-paths';
import { useTempKey } from '../../fs/temp-file';

/**
 * What the server keeps for itself, set up once at start (createServices): its state files are protected from
 * every scope (fs/state-paths.ts), and its temp names carry a proof under the files root's own secret (made once,
 * by whichever instance comes first, kept in the database), so the sweep of any instance on that root removes
 * only temps a server made (fs/temp-file.ts).
 */
export async function protectOwnFiles(config: Readonly<Config> & { configFile?: string | null }, settings: SettingsStore): Promise<void> {
  protectStatePaths(statePaths(config));
  useTempKey(config.root, await settings.ensureSecret('temps', () => crypto.getRandomValues(new Uint8Array(32))));
}
