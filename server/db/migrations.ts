/**
 * Numbered schema migrations, each written for both engines: `sql` for SQLite (version in user_version) and
 * `pg` for PostgreSQL (version in the schema_version table). Times are unix milliseconds (BIGINT on
 * PostgreSQL), booleans 0/1 integers, JSON as text, on both. Append only: never edit a migration that has
 * shipped; add the next number instead.
 */
import { ACCOUNT_MIGRATIONS } from './migrations-accounts';
import { STORAGE_MIGRATIONS } from './migrations-storage';
import { DAV_MIGRATIONS } from './migrations-dav';
import { SHARE_MIGRATIONS } from './migrations-shares';
import { INITIAL_SCHEMA } from './migration-initial';

export type { Migration } from './migration';
import type { Migration } from './migration';

/** The base schema (1–14); the accounts migrations (15–) follow in migrations-accounts.ts. */
const BASE_MIGRATIONS: Migration[] = [
  INITIAL_SCHEMA,
  {
    version: 2,
    name: 'resumable uploads and preview cache index',
    sql: `
CREATE TABLE uploads (
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  path TEXT NOT NULL,
  temp_path TEXT NOT NULL,
  length INTEGER NOT NULL,
  override INTEGER NOT NULL DEFAULT 0,
  expires_at INTEGER NOT NULL,
  PRIMARY KEY (user_id, path)
);
CREATE TABLE preview_cache (
  real_path TEXT NOT NULL,
  file TEXT NOT NULL PRIMARY KEY,
  bytes INTEGER NOT NULL,
  used_at INTEGER NOT NULL
);
CREATE INDEX preview_cache_path ON preview_cache(real_path);
`,
    pg: `
CREATE TABLE uploads (
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  path TEXT NOT NULL,
  temp_path TEXT NOT NULL,
  length BIGINT NOT NULL,
  override INTEGER NOT NULL DEFAULT 0,
  expires_at BIGINT NOT NULL,
  PRIMARY KEY (user_id, path)
);
CREATE TABLE preview_cache (
  real_path TEXT NOT NULL,
  file TEXT NOT NULL PRIMARY KEY,
  bytes BIGINT NOT NULL,
  used_at BIGINT NOT NULL
);
CREATE INDEX preview_cache_path ON preview_cache(real_path);
`,
  },
  {
    version: 3,
    name: 'shares pin their real target',
    sql: `
ALTER TABLE shares ADD COLUMN target TEXT NOT NULL DEFAULT '';
ALTER TABLE shares ADD COLUMN target_id TEXT NOT NULL DEFAULT '';
CREATE INDEX shares_target ON shares(target);
`,
    pg: `
ALTER TABLE shares ADD COLUMN target TEXT NOT NULL DEFAULT '';
ALTER TABLE shares ADD COLUMN target_id TEXT NOT NULL DEFAULT '';
CREATE INDEX shares_target ON shares(target);
`,
  },
  {
    version: 4,
    name: 'revision counters (caches on other connections and instances notice changes)',
    sql: `
CREATE TABLE revisions (
  name TEXT PRIMARY KEY,
  n INTEGER NOT NULL
);
`,
    pg: `
CREATE TABLE revisions (
  name TEXT PRIMARY KEY,
  n BIGINT NOT NULL
);
`,
  },
  {
    version: 5,
    name: 'rate-limit counters shared by every instance',
    sql: `
CREATE TABLE rate_limits (
  key TEXT PRIMARY KEY,
  hits INTEGER NOT NULL,
  expires_at INTEGER NOT NULL
);
CREATE INDEX rate_limits_expires ON rate_limits(expires_at);
`,
    pg: `
CREATE TABLE rate_limits (
  key TEXT PRIMARY KEY,
  hits INTEGER NOT NULL,
  expires_at BIGINT NOT NULL
);
CREATE INDEX rate_limits_expires ON rate_limits(expires_at);
`,
  },
  {
    version: 6,
    name: 'renewed sessions remember their successor (a grace window for concurrent renews)',
    sql: `
ALTER TABLE sessions ADD COLUMN replaced_by TEXT;
CREATE INDEX sessions_replaced_by ON sessions(replaced_by);
`,
    pg: `
ALTER TABLE sessions ADD COLUMN replaced_by TEXT;
CREATE INDEX sessions_replaced_by ON sessions(replaced_by);
`,
  },
  {
    version: 7,
    name: 'trash: deleted items kept for restore; per-user trash override',
    sql: `
CREATE TABLE trash (
  id TEXT PRIMARY KEY,
  owner_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  deleted_by INTEGER,
  name TEXT NOT NULL,
  original_path TEXT NOT NULL,
  original_real TEXT NOT NULL,
  scope TEXT NOT NULL,
  trash_real TEXT NOT NULL,
  deleted_at INTEGER NOT NULL,
  size INTEGER NOT NULL,
  is_dir INTEGER NOT NULL
);
CREATE INDEX trash_owner ON trash(owner_id, deleted_at);
CREATE INDEX trash_deleted_at ON trash(deleted_at);
ALTER TABLE users ADD COLUMN trash TEXT NOT NULL DEFAULT '';
`,
    pg: `
CREATE TABLE trash (
  id TEXT PRIMARY KEY,
  owner_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  deleted_by INTEGER,
  name TEXT NOT NULL,
  original_path TEXT NOT NULL,
  original_real TEXT NOT NULL,
  scope TEXT NOT NULL,
  trash_real TEXT NOT NULL,
  deleted_at BIGINT NOT NULL,
  size BIGINT NOT NULL,
  is_dir INTEGER NOT NULL
);
CREATE INDEX trash_owner ON trash(owner_id, deleted_at);
CREATE INDEX trash_deleted_at ON trash(deleted_at);
ALTER TABLE users ADD COLUMN trash TEXT NOT NULL DEFAULT '';
`,
  },
  {
    version: 8,
    name: 'background jobs (copy, move, delete, archive, extract) with progress, surviving restarts as interrupted',
    sql: `
CREATE TABLE jobs (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  owner INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  kind TEXT NOT NULL,
  params TEXT NOT NULL,
  state TEXT NOT NULL,
  progress TEXT NOT NULL,
  error TEXT NOT NULL DEFAULT '',
  result TEXT,
  temp_path TEXT NOT NULL DEFAULT '',
  instance TEXT NOT NULL,
  heartbeat INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  started_at INTEGER,
  finished_at INTEGER
);
CREATE INDEX jobs_owner ON jobs(owner, id);
CREATE INDEX jobs_state ON jobs(state);
`,
    pg: `
CREATE TABLE jobs (
  id INTEGER GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
  owner INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  kind TEXT NOT NULL,
  params TEXT NOT NULL,
  state TEXT NOT NULL,
  progress TEXT NOT NULL,
  error TEXT NOT NULL DEFAULT '',
  result TEXT,
  temp_path TEXT NOT NULL DEFAULT '',
  instance TEXT NOT NULL,
  heartbeat BIGINT NOT NULL,
  created_at BIGINT NOT NULL,
  started_at BIGINT,
  finished_at BIGINT
);
CREATE INDEX jobs_owner ON jobs(owner, id);
CREATE INDEX jobs_state ON jobs(state);
`,
  },
  {
    version: 9,
    name: 'audit log (who did what, from where, with what outcome)',
    sql: `
CREATE TABLE audit (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  time INTEGER NOT NULL,
  user_id INTEGER,
  user_name TEXT NOT NULL DEFAULT '',
  address TEXT NOT NULL DEFAULT '',
  action TEXT NOT NULL,
  target TEXT NOT NULL DEFAULT '',
  detail TEXT NOT NULL DEFAULT '{}',
  outcome TEXT NOT NULL DEFAULT 'ok'
);
CREATE INDEX audit_time ON audit(time);
CREATE INDEX audit_action_target ON audit(action, target, time);
`,
    pg: `
CREATE TABLE audit (
  id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
  time BIGINT NOT NULL,
  user_id INTEGER,
  user_name TEXT NOT NULL DEFAULT '',
  address TEXT NOT NULL DEFAULT '',
  action TEXT NOT NULL,
  target TEXT NOT NULL DEFAULT '',
  detail TEXT NOT NULL DEFAULT '{}',
  outcome TEXT NOT NULL DEFAULT 'ok'
);
CREATE INDEX audit_time ON audit(time);
CREATE INDEX audit_action_target ON audit(action, target, time);
`,
  },
  {
    version: 10,
    name: 'jobs: a cancel asked for by another process (the CLI, another instance), seen by the running job at its next tick',
    sql: `
ALTER TABLE jobs ADD COLUMN cancel_requested INTEGER NOT NULL DEFAULT 0;
`,
    pg: `
ALTER TABLE jobs ADD COLUMN cancel_requested INTEGER NOT NULL DEFAULT 0;
`,
  },
  {
    version: 11,
    name: 'jobs: a change stamp (the database clock at each write), so an instance follows the jobs other instances run',
    sql: `
ALTER TABLE jobs ADD COLUMN changed_at INTEGER NOT NULL DEFAULT 0;
CREATE INDEX jobs_changed ON jobs(changed_at);
`,
    pg: `
ALTER TABLE jobs ADD COLUMN changed_at BIGINT NOT NULL DEFAULT 0;
CREATE INDEX jobs_changed ON jobs(changed_at);
`,
  },
  {
    version: 12,
    name: 'sessions: a renewal family (the first session of a chain names it), so logout and revocation end the whole chain',
    sql: `
ALTER TABLE sessions ADD COLUMN family TEXT;
UPDATE sessions SET family = id WHERE family IS NULL;
CREATE INDEX sessions_family ON sessions(family);
`,
    pg: `
ALTER TABLE sessions ADD COLUMN family TEXT;
UPDATE sessions SET family = id WHERE family IS NULL;
CREATE INDEX sessions_family ON sessions(family);
`,
  },
  {
    version: 13,
    name: 'jobs: how many items each job holds, so queued work is capped per user and in total without reading the item lists',
    sql: `
ALTER TABLE jobs ADD COLUMN item_count INTEGER NOT NULL DEFAULT 0;
`,
    pg: `
ALTER TABLE jobs ADD COLUMN item_count INTEGER NOT NULL DEFAULT 0;
`,
  },
  {
    version: 14,
    name: 'root identity: the files root as first served (device, inode, marker), so a root not mounted or swapped is refused at start',
    sql: `
CREATE TABLE root_identity (
  id INTEGER PRIMARY KEY,
  root TEXT NOT NULL,
  device TEXT NOT NULL,
  inode TEXT NOT NULL,
  marker TEXT NOT NULL,
  held_files INTEGER NOT NULL DEFAULT 0,
  recorded_at INTEGER NOT NULL
);
`,
    pg: `
CREATE TABLE root_identity (
  id INTEGER PRIMARY KEY,
  root TEXT NOT NULL,
  device TEXT NOT NULL,
  inode TEXT NOT NULL,
  marker TEXT NOT NULL,
  held_files INTEGER NOT NULL DEFAULT 0,
  recorded_at BIGINT NOT NULL
);
`,
  },
];

export const MIGRATIONS: Migration[] = [...BASE_MIGRATIONS, ...ACCOUNT_MIGRATIONS, ...STORAGE_MIGRATIONS, ...DAV_MIGRATIONS, ...SHARE_MIGRATIONS];
