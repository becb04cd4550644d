import { HOOK_NAMES } from '../../../contract/settings';
import type { FbAuther, FbConfig, FbServer, FbSettings } from './fb-dump';
import { mapRules, mapScope, mapUserFields } from './fb-user-map';

/**
 * How filebrowser's global settings, auth method and server record (reference `filebrowser-db.md` §3.2–3.4) become
 * ours. Settings go to the database (SettingsService fields, validated by mergeSettings like any change); server
 * values are boot-time configuration (`filedeck.yaml` keys of core/config.ts), which the import prints (and writes
 * with --write-config) but never applies by itself, as flags and the environment override them anyway.
 *
 * | filebrowser            | since  | Filedeck                    | how |
 * |------------------------|--------|-----------------------------|-----|
 * | settings.key           | 2.0.0  | —                           | its JWT key: old sessions do not carry over (they expire within hours anyway) |
 * | signup                 | 2.0.0  | signup                      | as is |
 * | hideLoginButton        | 2.46.0 | —                           | reported when on |
 * | createUserDir          | 2.0.4  | createUserDir               | as is (absent → false) |
 * | userHomeBasePath       | 2.22.0 | userHomeBasePath            | "" → /users |
 * | defaults               | 2.0.0  | defaults                    | as a user's fields (fb-user-map.ts); scope as a user's scope |
 * | authMethod, auther     | 2.0.0  | authMethod, authHeader      | json, noauth, proxy (+ header) as is; hook is not supported: json, reported; reCAPTCHA is not supported: reported |
 * | logoutPage             | 2.50.0 | —                           | reported when not /login |
 * | branding               | 2.0.0  | branding                    | name, disableExternal, files (2.0), theme (2.1), color (2.18), disableUsedPercentage (2.24) |
 * | tus                    | 2.24.0 | tus                         | all 0 or absent → 10 MiB / 5; chunks under 1 MiB raised to 1 MiB |
 * | commands               | 2.0.0  | commands (event hooks)      | before_/after_ save, copy, rename, upload, delete; other events (`cmds add` takes any) reported |
 * | shell                  | 2.0.0  | shell                       | `[""]` (config init before 2.8) → [] |
 * | rules                  | 2.0.0  | rules                       | as users' rules |
 * | minimumPasswordLength  | 2.34.0 | minimumPasswordLength       | 0 or absent → 12 |
 * | fileMode, dirMode      | 2.41.0 | —                           | reported when not 0640/0750 |
 * | hideDotfiles (global)  | 2.46.0 | —                           | stored but never read by filebrowser |
 */
export interface MappedSettings {
  /** A settings patch for mergeSettings (CLI fields). */
  patch: Record<string, unknown>;
  notes: string[];
}

const str = (v: unknown) => (typeof v === 'string' ? v : '');

function mapAuth(s: FbSettings, auther: FbAuther | undefined, notes: string[]): Record<string, unknown> {
  const method = str(s.authMethod) || 'json';
  if (auther?.recaptcha && auther.recaptcha.key && auther.recaptcha.secret)
    notes.push('reCAPTCHA on the login page is not supported: sign-in attempts are rate-limited instead');
  if (method === 'proxy') return { authMethod: 'proxy', ...(str(auther?.header) ? { authHeader: str(auther?.header) } : {}) };
  if (method === 'noauth') return { authMethod: 'noauth' };
  if (method === 'hook') notes.push(`hook authentication ("${str(auther?.command)}") is not supported: password sign-in (json) instead; the hashes the hook stored still work`);
  else if (method !== 'json') notes.push(`unknown auth method "${method}": password sign-in (json) instead`);
  return { authMethod: 'json' };
}

function mapCommands(commands: FbSettings['commands'], notes: string[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [event, list] of Object.entries(commands ?? {})) {
    const lines = (list ?? []).filter((c) => typeof c === 'string' && c.trim() !== '');
    if ((HOOK_NAMES as string[]).includes(event)) {
      out[event] = lines;
      if (lines.length) notes.push(`${lines.length} ${event} command(s) imported as hooks: they run only with enableExec on, sandboxed (check them: ${lines.join(' | ').slice(0, 200)})`);
    }
    else if (lines.length) notes.push(`commands of event "${event}" not carried over (events here: ${HOOK_NAMES.join(', ')})`);
  }
  return out;
}

/** filebrowser's settings record (and auth method) as a settings patch. */
export function mapSettings(config: Pick<FbConfig, 'settings' | 'auther'>): MappedSettings {
  const s = config.settings;
  const notes: string[] = [];
  const b = s.branding ?? ({} as FbSettings['branding']);
  const theme = b.theme === 'light' || b.theme === 'dark' ? b.theme : '';
  const files = str(b.files).trim();
  if (files && !files.startsWith('/')) notes.push(`branding folder "${files}" is relative: give an absolute one (config set branding.files)`);
  const tusChunk = Number(s.tus?.chunkSize ?? 0);
  const tusRetry = Number(s.tus?.retryCount ?? 0);
  const tus = tusChunk === 0 && tusRetry === 0 ? { chunkSize: 10 * 1024 * 1024, retryCount: 5 } : { chunkSize: Math.min(Math.max(tusChunk, 1024 * 1024), 1024 * 1024 * 1024), retryCount: Math.min(tusRetry, 100) };
  if (tusChunk && tus.chunkSize !== tusChunk) notes.push(`tus chunk size ${tusChunk} is ${tus.chunkSize} here (1 MiB to 1 GiB)`);
  const shell = (s.shell ?? []).filter((x) => typeof x === 'string' && x.trim() !== '');
  if (s.hideLoginButton) notes.push('hideLoginButton is not supported: the login page shows its button');
  if (s.logoutPage && s.logoutPage !== '/login') notes.push(`logoutPage "${s.logoutPage}" is not supported: signing out returns to the login page`);
  if ((s.fileMode && s.fileMode !== 0o640) || (s.dirMode && s.dirMode !== 0o750))
    notes.push(`file and folder modes (${(s.fileMode ?? 0o640).toString(8)}/${(s.dirMode ?? 0o750).toString(8)}) are not carried over: new files follow the server's umask`);
  const d = s.defaults ?? ({} as FbSettings['defaults']);
  const defaultsNotes: string[] = [];
  const defaults = { ...mapUserFields(d, defaultsNotes), scope: mapScope(d.scope, defaultsNotes) ?? '/' };
  if (defaults.scope === '/') defaults.scope = '.';
  notes.push(...defaultsNotes.map((n) => `defaults: ${n}`));
  const minLen = Number(s.minimumPasswordLength ?? 0);
  const patch: Record<string, unknown> = {
    signup: !!s.signup,
    createUserDir: !!s.createUserDir,
    userHomeBasePath: str(s.userHomeBasePath) || '/users',
    minimumPasswordLength: minLen > 0 && minLen <= 128 ? minLen : 12,
    ...mapAuth(s, config.auther, notes),
    rules: mapRules(s.rules, notes, 'global'),
    branding: { name: str(b.name).slice(0, 256), disableExternal: !!b.disableExternal, disableUsedPercentage: !!b.disableUsedPercentage, files: files.startsWith('/') ? files : '', theme, color: str(b.color).slice(0, 256) },
    tus,
    shell,
    commands: mapCommands(s.commands, notes),
    defaults,
  };
  return { patch, notes };
}

/**
 * | filebrowser server     | since  | filedeck.yaml          | how |
 * |------------------------|--------|------------------------|-----|
 * | root                   | 2.0.0  | root                   | relative roots were relative to filebrowser's working folder: reported |
 * | baseURL                | 2.0.0  | baseURL                | trailing / removed |
 * | address, port          | 2.0.0  | address, port          | port text → number |
 * | tlsCert, tlsKey        | 2.0.0  | cert, key              | as is |
 * | log                    | 2.0.0  | log                    | as is |
 * | socket                 | 2.0.9  | —                      | unix sockets are not supported: reported |
 * | enableThumbnails, resizePreview, typeDetectionByHeader | 2.6/2.12 | same | absent → true |
 * | enableExec             | 2.8.0  | enableExec             | absent → false; commands run sandboxed here |
 * | tokenExpirationTime    | 2.26.0 | tokenExpirationTime    | Go duration, "" → 2h |
 * | followExternalSymlinks | 2.63.16| followExternalSymlinks | absent → false |
 * | imageResolutionCalculation, authHook | | —             | nothing to set |
 */
export function mapServer(server: Partial<FbServer>): { config: Record<string, unknown>; notes: string[] } {
  const notes: string[] = [];
  const config: Record<string, unknown> = {};
  const root = str(server.root);
  if (root) config.root = root;
  if (root && !root.startsWith('/')) notes.push(`filebrowser's root "${root}" is relative to the folder it ran in: give Filedeck the absolute path (--root)`);
  if (server.baseURL !== undefined) config.baseURL = str(server.baseURL).replace(/\/+$/, '');
  if (str(server.address)) config.address = str(server.address);
  const port = Number(str(server.port) || (typeof server.port === 'number' ? server.port : NaN));
  if (Number.isInteger(port) && port >= 0 && port <= 65535) config.port = port;
  if (str(server.tlsCert)) config.cert = str(server.tlsCert);
  if (str(server.tlsKey)) config.key = str(server.tlsKey);
  if (server.log !== undefined) config.log = str(server.log);
  if (str(server.socket)) notes.push(`unix socket "${server.socket}" is not supported: Filedeck listens on address and port`);
  config.enableThumbnails = server.enableThumbnails ?? true;
  config.resizePreview = server.resizePreview ?? true;
  config.typeDetectionByHeader = server.typeDetectionByHeader ?? true;
  config.enableExec = server.enableExec ?? false;
  config.followExternalSymlinks = server.followExternalSymlinks ?? false;
  config.tokenExpirationTime = str(server.tokenExpirationTime) || '2h';
  return { config, notes };
}
