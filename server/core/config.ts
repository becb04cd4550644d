import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parseYaml } from './yaml';
import { AppError } from './errors';
import { parseDuration } from './duration';
import { parseCidr } from './net';

/**
 * Boot-time configuration. Read once by loadConfig(): built-in default < config file < FILEDECK_* env < flags.
 * Product settings that admins change at run time live in SQLite (services/settings), not here.
 */
export interface Config {
  address: string;
  port: number;
  root: string;
  database: string;
  baseURL: string;
  log: string;
  cert: string;
  key: string;
  tokenExpirationTime: number; // milliseconds
  cacheDir: string;
  indexDir: string;
  enableThumbnails: boolean;
  resizePreview: boolean;
  enableExec: boolean;
  typeDetectionByHeader: boolean;
  followExternalSymlinks: boolean;
  folderCache: boolean;
  trustedProxies: string[];
  imageProcessors: number;
  commandTimeout: number; // milliseconds
  execNetwork: boolean;
  execUnsafeNoSandbox: boolean;
  bwrapPath: string;
  databaseConnectTimeout: number; // milliseconds
  /** Passkeys: the relying party ID ('' = the host the request reached, decision 0045). */
  webauthnRpId: string;
  /** Passkeys: the exact origin pages are served from ('' = the request's, decision 0045). */
  webauthnOrigin: string;
  shutdownTimeout: number; // milliseconds
  tokenRenewGrace: number; // milliseconds
  indexWatchLimit: number;
  indexReconcile: number; // milliseconds
  indexPoll: number; // milliseconds
  jobQueuePerUser: number;
  jobQueue: number;
  jobItemsPerUser: number;
  jobItems: number;
  logFormat: 'text' | 'json';
  metricsToken: string;
  metricsAllow: string[];
}

type Kind = 'string' | 'int' | 'bool' | 'duration' | 'list';
interface KeySpec {
  kind: Kind;
  default: string;
  help: string;
  check?: (v: unknown) => string | null; // returns an error message or null
}

/** Every boot-time key with its default (as text, parsed like any other source) and its meaning. */
export const CONFIG_KEYS: Record<keyof Config, KeySpec> = {
  address: { kind: 'string', default: '127.0.0.1', help: 'address to listen on', check: (v) => (v ? null : 'must not be empty') },
  port: { kind: 'int', default: '8080', help: 'TCP port (0 picks a free one)', check: (v) => ((v as number) >= 0 && (v as number) <= 65535 ? null : 'must be between 0 and 65535') },
  root: { kind: 'string', default: './data/files', help: 'folder holding every user scope', check: (v) => (v ? null : 'must not be empty') },
  database: { kind: 'string', default: './data/filedeck.db', help: 'SQLite database file, or a PostgreSQL URL (postgres://user:password@host:port/db) shared by several instances', check: (v) => (v ? null : 'must not be empty') },
  baseURL: { kind: 'string', default: '', help: 'URL prefix when served under a sub-path, e.g. /files', check: checkBaseURL },
  log: { kind: 'string', default: 'stdout', help: 'stdout, stderr, a file path, or empty to discard' },
  logFormat: { kind: 'string', default: 'text', help: 'text, or json: one JSON object a line, with one line per request', check: (v) => (v === 'text' || v === 'json' ? null : 'must be text or json') },
  metricsToken: { kind: 'string', default: '', help: 'Bearer token that may read /metrics (metrics are off while this and metricsAllow are both empty)', check: (v) => (v === '' || (v as string).length >= 16 ? null : 'must be at least 16 characters') },
  metricsAllow: { kind: 'list', default: '', help: 'addresses or CIDRs that may read /metrics (with metricsToken set too, both must match)', check: checkProxies },
  cert: { kind: 'string', default: '', help: 'TLS certificate file (with key)' },
  key: { kind: 'string', default: '', help: 'TLS private key file (with cert)' },
  tokenExpirationTime: { kind: 'duration', default: '2h', help: 'login token lifetime', check: (v) => ((v as number) >= 60_000 ? null : 'must be at least 1m') },
  cacheDir: { kind: 'string', default: '', help: 'preview cache folder (default: "cache" next to the database)' },
  indexDir: { kind: 'string', default: '', help: 'name index folder, one per instance on a local disk (default: the cache folder with SQLite; a local folder per files root with PostgreSQL)' },
  enableThumbnails: { kind: 'bool', default: 'true', help: 'serve image thumbnails' },
  resizePreview: { kind: 'bool', default: 'true', help: 'resize big image previews' },
  enableExec: { kind: 'bool', default: 'false', help: 'allow the command runner and event hooks' },
  typeDetectionByHeader: { kind: 'bool', default: 'true', help: 'sniff file contents to detect types' },
  followExternalSymlinks: { kind: 'bool', default: 'false', help: 'follow symlinks that leave a scope (unsafe)' },
  folderCache: { kind: 'bool', default: 'true', help: 'remember small folders between listings while inotify reports no change in them (local filesystems only); false reads every listing from disk' },
  trustedProxies: { kind: 'list', default: '', help: 'addresses or CIDRs whose X-Forwarded-For and auth header are trusted', check: checkProxies },
  imageProcessors: { kind: 'int', default: '4', help: 'concurrent image resizes', check: (v) => ((v as number) >= 1 && (v as number) <= 64 ? null : 'must be between 1 and 64') },
  commandTimeout: { kind: 'duration', default: '60s', help: 'time limit of runner commands and hooks', check: (v) => ((v as number) >= 1000 ? null : 'must be at least 1s') },
  execNetwork: { kind: 'bool', default: 'false', help: 'let sandboxed commands and hooks use the network' },
  execUnsafeNoSandbox: { kind: 'bool', default: 'false', help: 'run commands and hooks unconfined where bubblewrap is unusable (unsafe)' },
  bwrapPath: { kind: 'string', default: '', help: 'bubblewrap executable (default: /usr/bin/bwrap, else PATH)' },
  tokenRenewGrace: { kind: 'duration', default: '10s', help: 'after a token is renewed, how long it still works and renews to the same successor (clients renew in parallel)', check: (v) => ((v as number) >= 0 && (v as number) <= 300_000 ? null : 'must be between 0s and 5m') },
  shutdownTimeout: { kind: 'duration', default: '30s', help: 'on SIGTERM, SIGINT or SIGHUP: how long in-flight requests may finish before they are cut', check: (v) => ((v as number) >= 0 ? null : 'must not be negative') },
  indexWatchLimit: { kind: 'int', default: '0', help: 'name index: most folders watched for changes (0: as many as the kernel allows); past it, periodic reconciles (indexPoll)', check: (v) => ((v as number) >= 0 ? null : 'must not be negative') },
  indexReconcile: { kind: 'duration', default: '1h', help: 'name index: full reconcile with the disk while watching (catches missed events)', check: (v) => ((v as number) >= 1000 ? null : 'must be at least 1s') },
  indexPoll: { kind: 'duration', default: '30s', help: 'name index: reconcile period when folders are not watched (watch limit reached)', check: (v) => ((v as number) >= 200 ? null : 'must be at least 200ms') },
  jobQueuePerUser: { kind: 'int', default: '20', help: 'background jobs one user may have queued or running at once (past it: 429)', check: (v) => ((v as number) >= 1 ? null : 'must be at least 1') },
  jobQueue: { kind: 'int', default: '200', help: 'background jobs queued or running at once, all users together (past it: 429)', check: (v) => ((v as number) >= 1 ? null : 'must be at least 1') },
  jobItemsPerUser: { kind: 'int', default: '20000', help: 'selected items in one user\'s queued and running jobs together (past it: 429)', check: (v) => ((v as number) >= 1 ? null : 'must be at least 1') },
  jobItems: { kind: 'int', default: '100000', help: 'selected items in all queued and running jobs together (past it: 429)', check: (v) => ((v as number) >= 1 ? null : 'must be at least 1') },
  databaseConnectTimeout: { kind: 'duration', default: '10s', help: 'PostgreSQL: how long to wait for the database at start before giving up', check: (v) => ((v as number) >= 100 ? null : 'must be at least 100ms') },
  webauthnRpId: { kind: 'string', default: '', help: 'passkeys: relying party ID, a host name such as files.example.com (default: the host the page was reached at)', check: (v) => (v === '' || /^[a-z0-9.-]+$/i.test(v as string) ? null : 'must be a host name') },
  webauthnOrigin: { kind: 'string', default: '', help: 'passkeys: the exact origin of the pages, such as https://files.example.com (default: the origin the page was reached at)', check: (v) => (v === '' || /^https?:\/\/[^/?#]+$/.test(v as string) ? null : 'must be scheme://host[:port] with no path') },
};

function checkBaseURL(v: unknown): string | null {
  const s = v as string;
  if (s === '') return null;
  if (!/^\/[A-Za-z0-9._~\-/]*$/.test(s) || s.includes('//') || /(^|\/)\.\.?(\/|$)/.test(s)) return 'must look like /path (letters, digits, . _ ~ - and /)';
  return null;
}

function checkProxies(v: unknown): string | null {
  for (const p of v as string[]) if (!parseCidr(p)) return `"${p}" is not an IP address or CIDR range`;
  return null;
}

/** Converts camelCase to the env name: baseURL -> FILEDECK_BASE_URL. */
export function envName(key: string): string {
  return 'FILEDECK_' + key.replace(/([a-z0-9])([A-Z])/g, '$1_$2').replace(/([A-Z])([A-Z][a-z])/g, '$1_$2').toUpperCase();
}

function parseValue(key: string, spec: KeySpec, raw: unknown, source: string): unknown {
  const fail = (why: string) => new AppError('INVALID', `config key "${key}" (${source}): ${why}`);
  let value: unknown;
  switch (spec.kind) {
    case 'string':
      if (typeof raw === 'number' || typeof raw === 'boolean') value = String(raw);
      else if (typeof raw === 'string') value = raw;
      else if (raw === null || raw === undefined) value = '';
      else throw fail('must be a string');
      break;
    case 'int': {
      const n = typeof raw === 'number' ? raw : typeof raw === 'string' && /^\s*-?\d+\s*$/.test(raw) ? Number(raw) : NaN;
      if (!Number.isSafeInteger(n)) throw fail(`"${String(raw)}" is not a whole number`);
      value = n;
      break;
    }
    case 'bool':
      if (typeof raw === 'boolean') value = raw;
      else if (typeof raw === 'string' && /^(true|1|yes|on)$/i.test(raw.trim())) value = true;
      else if (typeof raw === 'string' && /^(false|0|no|off)$/i.test(raw.trim())) value = false;
      else throw fail(`"${String(raw)}" is not true or false`);
      break;
    case 'duration': {
      const ms = typeof raw === 'number' ? raw * 1000 : typeof raw === 'string' ? parseDuration(raw) : null;
      if (ms === null || !Number.isFinite(ms)) throw fail(`"${String(raw)}" is not a duration like 2h, 30m or 90s`);
      value = ms;
      break;
    }
    case 'list':
      if (Array.isArray(raw)) value = raw.map((x) => String(x).trim()).filter(Boolean);
      else if (typeof raw === 'string') value = raw.split(',').map((x) => x.trim()).filter(Boolean);
      else if (raw === null || raw === undefined) value = [];
      else throw fail('must be a list');
      break;
  }
  const why = spec.check?.(value);
  if (why) throw fail(why);
  return value;
}

/** The config file's sign-in sections: settings fields (contract/accounts.ts OidcSettings, LdapSettings) to apply at start. */
const SSO_SECTIONS = ['oidc', 'ldap'] as const;
export type SsoSections = Partial<Record<(typeof SSO_SECTIONS)[number], Record<string, unknown>>>;

export interface ConfigSources {
  /** Explicit --config path; when absent ./filedeck.yaml then /etc/filedeck/config.yaml are tried. */
  configFile?: string;
  env?: Record<string, string | undefined>;
  /** Flag values as given on the command line (strings or typed values). */
  flags?: Partial<Record<keyof Config, unknown>>;
  /** Working directory for relative paths (defaults to process.cwd()). */
  cwd?: string;
  /** Skip the default config file search (tests). */
  noDefaultFiles?: boolean;
}

/** Finds the config file to read, or null. An explicit path that does not exist is an error. */
export function findConfigFile(src: ConfigSources): string | null {
  const cwd = src.cwd ?? process.cwd();
  const explicit = src.configFile ?? src.env?.FILEDECK_CONFIG;
  if (explicit) {
    const p = resolve(cwd, explicit);
    if (!existsSync(p)) throw new AppError('INVALID', `config file ${p} does not exist`);
    return p;
  }
  if (src.noDefaultFiles) return null;
  for (const p of [join(cwd, 'filedeck.yaml'), '/etc/filedeck/config.yaml']) if (existsSync(p)) return p;
  return null;
}

/** Reads and validates the configuration; throws AppError('INVALID') naming the bad key. */
export function loadConfig(src: ConfigSources = {}): Readonly<Config> & { configFile: string | null; sso?: SsoSections } {
  const cwd = src.cwd ?? process.cwd();
  const env = src.env ?? process.env;
  const file = findConfigFile({ ...src, env });
  let fileValues: Record<string, unknown> = {};
  const sso: SsoSections = {};
  if (file) {
    let doc: unknown;
    try {
      doc = parseYaml(readFileSync(file, 'utf8'));
    } catch (e) {
      throw new AppError('INVALID', `config file ${file} is not valid YAML: ${(e as Error).message.split('\n')[0]}`);
    }
    if (doc !== null && doc !== undefined && (typeof doc !== 'object' || Array.isArray(doc)))
      throw new AppError('INVALID', `config file ${file} must be a mapping of key: value`);
    fileValues = { ...((doc ?? {}) as Record<string, unknown>) };
    // Sign-in sections (oidc:, ldap:) are settings, not boot keys: kept as they are and applied over the stored
    // settings at start (services/sso/sso-config.ts), where they are validated like any settings change.
    for (const k of SSO_SECTIONS) {
      if (!(k in fileValues)) continue;
      const v = fileValues[k];
      if (!v || typeof v !== 'object' || Array.isArray(v)) throw new AppError('INVALID', `config file ${file}: "${k}" must be a mapping`);
      sso[k] = v as Record<string, unknown>;
      delete fileValues[k];
    }
    for (const k of Object.keys(fileValues))
      if (!(k in CONFIG_KEYS)) throw new AppError('INVALID', `config file ${file}: unknown key "${k}"`);
  }
  const out: Record<string, unknown> = {};
  for (const [key, spec] of Object.entries(CONFIG_KEYS) as [keyof Config, KeySpec][]) {
    let value = parseValue(key, spec, spec.default, 'default');
    if (key in fileValues) value = parseValue(key, spec, fileValues[key], `file ${file}`);
    const ev = env[envName(key)];
    if (ev !== undefined) value = parseValue(key, spec, ev, `env ${envName(key)}`);
    const fv = src.flags?.[key];
    if (fv !== undefined) value = parseValue(key, spec, fv, `flag --${key}`);
    out[key] = value;
  }
  const cfg = out as unknown as Config;
  if (Boolean(cfg.cert) !== Boolean(cfg.key)) throw new AppError('INVALID', 'config keys "cert" and "key" must be set together');
  cfg.baseURL = cfg.baseURL.replace(/\/+$/, '');
  cfg.root = resolve(cwd, cfg.root);
  const postgres = /^postgres(ql)?:\/\//i.test(cfg.database);
  if (!postgres) cfg.database = resolve(cwd, cfg.database);
  // The preview cache is per instance: next to the SQLite file, or next to the files root with PostgreSQL.
  cfg.cacheDir = cfg.cacheDir ? resolve(cwd, cfg.cacheDir) : join(dirname(postgres ? cfg.root : cfg.database), postgres ? '.filedeck-cache' : 'cache');
  // The name index is a SQLite file with WAL: one per instance, on a local disk (WAL needs one host), never the
  // shared cache folder of several instances (services/index/index-peers.ts keeps the instances' indexes in step).
  cfg.indexDir = cfg.indexDir ? resolve(cwd, cfg.indexDir) : postgres ? localIndexDir(cfg.root) : cfg.cacheDir;
  if (cfg.log && cfg.log !== 'stdout' && cfg.log !== 'stderr') cfg.log = resolve(cwd, cfg.log);
  if (cfg.bwrapPath) cfg.bwrapPath = resolve(cwd, cfg.bwrapPath);
  return Object.freeze({ ...cfg, configFile: file, ...(Object.keys(sso).length ? { sso } : {}) });
}

/** With PostgreSQL (possibly several instances): a folder of this machine's cache, one per files root. */
function localIndexDir(root: string): string {
  const home = process.env.HOME && process.env.HOME !== '/' ? join(process.env.HOME, '.cache') : '/var/tmp';
  const base = process.env.XDG_CACHE_HOME || home;
  return join(base, 'filedeck', `index-${new Bun.CryptoHasher('sha256').update(root).digest('hex').slice(0, 12)}`);
}

/**
 * The server's state files (where they are is decided here, so it is known in one place): the SQLite database with
 * its journals, the config file, the cache folder, the TLS key and the log file. None may be reached through a
 * user's scope (fs/state-paths.ts protects them) nor seen by a command (the runner masks them).
 */
export function statePaths(config: Readonly<Config> & { configFile?: string | null }): string[] {
  const postgres = /^postgres(ql)?:\/\//i.test(config.database);
  const db = postgres ? [] : ['', '-wal', '-shm', '-journal'].map((s) => config.database + s);
  const log = config.log && config.log !== 'stdout' && config.log !== 'stderr' ? [config.log] : [];
  return [...db, config.configFile ?? '', config.cacheDir, config.indexDir, config.key, ...log].filter((p) => !!p && p.startsWith('/'));
}
