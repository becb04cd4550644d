/**
 * The logical content of a filebrowser 2.x database, as `readFilebrowserDb` (read-db.ts) returns it: every record
 * exactly as storm's JSON codec decodes it, field names as filebrowser writes them. The shape matches the fixtures'
 * `expected-*.json` (config, users, shares, storm, stormMeta), so tests compare a dump with them directly.
 *
 * Records are kept as decoded, not normalised: keys absent in older releases stay absent (v2.0-era users have 11
 * keys, older settings lack tus, userHomeBasePath…), and fields unknown to us (forks) stay present. Applying the
 * read-side defaults of the reference (§3.2, §3.5) is the importer's job.
 */

/** A filebrowser rule (reference §3.7). CLI path rules store `regexp: null`, UI rules `{ raw: '' }`. */
export interface FbRule {
  regex: boolean;
  allow: boolean;
  path: string;
  regexp: { raw: string } | null;
}

export interface FbPerm {
  admin: boolean;
  execute: boolean;
  create: boolean;
  rename: boolean;
  modify: boolean;
  delete: boolean;
  share: boolean;
  download: boolean;
}

export interface FbSorting {
  by: string;
  asc: boolean;
}

/** `User/<8-byte big-endian id>` (reference §3.5). Keys marked optional are missing in records saved by older releases. */
export interface FbUser {
  id: number;
  username: string;
  /** bcrypt `$2a$10$…`, or verbatim when created by quick setup's `--password` flag. */
  password: string;
  scope: string;
  locale: string;
  lockPassword: boolean;
  viewMode: string;
  perm: FbPerm;
  commands: string[] | null;
  sorting: FbSorting;
  rules: FbRule[] | null;
  singleClick?: boolean;
  redirectAfterCopyMove?: boolean;
  hideDotfiles?: boolean;
  dateFormat?: boolean;
  aceEditorTheme?: string;
  [unknownKey: string]: unknown;
}

/** `Link/<hash>` (reference §3.6). `userID` may name a deleted user; `expire` is unix seconds, 0 = never. */
export interface FbShare {
  hash: string;
  path: string;
  userID: number;
  expire: number;
  /** Since 2.12, only when the share has a password (bcrypt). */
  password_hash?: string;
  /** Since 2.12, only with a password: the 128-char download-bypass token. */
  token?: string;
  [unknownKey: string]: unknown;
}

export interface FbUserDefaults {
  scope: string;
  locale: string;
  viewMode: string;
  sorting: FbSorting;
  perm: FbPerm;
  commands: string[] | null;
  singleClick?: boolean;
  redirectAfterCopyMove?: boolean;
  hideDotfiles?: boolean;
  dateFormat?: boolean;
  aceEditorTheme?: string;
  [unknownKey: string]: unknown;
}

export interface FbBranding {
  name: string;
  disableExternal: boolean;
  files: string;
  theme?: string;
  color?: string;
  disableUsedPercentage?: boolean;
  [unknownKey: string]: unknown;
}

/** `config/settings` (reference §3.2). */
export interface FbSettings {
  key: string;
  signup: boolean;
  createUserDir?: boolean;
  userHomeBasePath?: string;
  defaults: FbUserDefaults;
  authMethod: string;
  branding: FbBranding;
  tus?: { chunkSize: number; retryCount: number };
  /** Event name (`before_upload`, `after_delete`, …) → shell commands. */
  commands: Record<string, string[] | null> | null;
  /** `[""]` in databases created by `config init` before 2.8.0. */
  shell: string[] | null;
  rules: FbRule[] | null;
  minimumPasswordLength?: number;
  fileMode?: number;
  dirMode?: number;
  hideLoginButton?: boolean;
  hideDotfiles?: boolean;
  logoutPage?: string;
  [unknownKey: string]: unknown;
}

/** `config/server` (reference §3.3): baseline values; flags, FB_* variables and config files override them at run time. */
export interface FbServer {
  root: string;
  baseURL: string;
  socket?: string;
  tlsKey: string;
  tlsCert: string;
  port: string;
  address: string;
  log: string;
  enableThumbnails?: boolean;
  resizePreview?: boolean;
  enableExec?: boolean;
  typeDetectionByHeader?: boolean;
  authHook?: string;
  tokenExpirationTime?: string;
  imageResolutionCalculation?: boolean;
  followExternalSymlinks?: boolean;
  [unknownKey: string]: unknown;
}

/**
 * `config/auther`: its shape depends on `settings.authMethod` (reference §3.4): json → `{ recaptcha }`, proxy →
 * `{ header }`, hook → `{ command }`, noauth → `{}`. Kept loose because only the current method's record survives.
 */
export interface FbAuther {
  recaptcha?: { host: string; key: string; secret: string } | null;
  header?: string;
  command?: string;
  [unknownKey: string]: unknown;
}

export interface FbConfig {
  auther: FbAuther;
  server: FbServer;
  settings: FbSettings;
  /** `config/version`: 2 for every 2.x database. */
  version: number;
}

/** A user as stored: `keyHex` is the bbolt key (the 8-byte big-endian id, hex), `value` the decoded JSON. */
export interface FbUserEntry {
  keyHex: string;
  value: FbUser;
}

/** A share as stored: `keyHex` is the bbolt key (the hash's bytes, hex), `key` the same as text. */
export interface FbShareEntry {
  keyHex: string;
  key: string;
  value: FbShare;
}

export interface FilebrowserDump {
  config: FbConfig;
  /** Sorted by id (= bbolt key order). */
  users: FbUserEntry[];
  /** Sorted by hash, bytewise (= bbolt key order). */
  shares: FbShareEntry[];
  /** `__storm_db/version` (`"2.0.0"`) and the codec every `__storm_metadata` names (always `json`). */
  storm: { '__storm_db/version': string; codec: string };
  /** `User/__storm_metadata/IDcounter`: the last user id issued (0 when no user was ever created). */
  stormMeta: { 'User/__storm_metadata/IDcounter': number };
}
