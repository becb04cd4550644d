import { invalid } from '../../../core/errors';
import type { FbAuther, FbServer, FbSettings, FbUser, FilebrowserDump } from './fb-dump';

const isObj = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/**
 * What filebrowser's own CLI writes, as the dump a database would give, for users who kept those files and not
 * the database (reference `filebrowser-server.md` §11.2, §12):
 * - `filebrowser users export <file>`: a list of full user records, bcrypt hashes included (the §3.5 shape);
 * - `filebrowser config export <file>`: `{ settings, server, auther }` (the §3.2–3.4 shapes; `key` in base64).
 * Exports hold no share links. Without a config export the settings are left as they are here (`settings: false`).
 */
export function dumpFromExports(users: unknown, config: unknown | null): { dump: FilebrowserDump; settings: boolean } {
  if (!Array.isArray(users)) throw invalid('the users export must be a list of users (what "filebrowser users export" writes)');
  const list: FbUser[] = users.map((u, i) => {
    if (!isObj(u) || typeof u.username !== 'string') throw invalid(`users export: entry ${i + 1} is not a user record`);
    return u as FbUser;
  });
  let settings = {} as FbSettings;
  let server = {} as FbServer;
  let auther: FbAuther = {};
  if (config !== null) {
    if (!isObj(config) || !isObj(config.settings)) throw invalid('the config export must hold "settings" (what "filebrowser config export" writes)');
    if (!isObj(config.server)) throw invalid('the config export must hold "server"');
    settings = config.settings as FbSettings;
    server = config.server as FbServer;
    auther = isObj(config.auther) ? (config.auther as FbAuther) : {};
  }
  const dump: FilebrowserDump = {
    config: { settings, server, auther, version: 2 },
    users: list.map((value) => ({ keyHex: Number(value.id ?? 0).toString(16).padStart(16, '0'), value })),
    shares: [],
    storm: { '__storm_db/version': '2.0.0', codec: 'json' },
    stormMeta: { 'User/__storm_metadata/IDcounter': Math.max(0, ...list.map((u) => Number(u.id) || 0)) },
  };
  return { dump, settings: config !== null };
}
