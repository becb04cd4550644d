import type { Migration } from './migration';

/**
 * Versions and quotas (issue 35): kept versions of overwritten files (19), quotas, usage and reservations (20).
 * Appended to MIGRATIONS after the accounts ones; append only.
 */
export const STORAGE_MIGRATIONS: Migration[] = [
  {
    version: 19,
    name: 'versions: the old content of overwritten files; per-user versions override',
    // `pending` rows are keeps in flight (row first, then the link, then the overwrite): a crash leaves them for the
    // recovery at start (services/versions/version-upkeep.ts). `trash_id`: the trash item that took them along.
    sql: `
CREATE TABLE versions (
  id TEXT PRIMARY KEY,
  path TEXT NOT NULL,
  version_real TEXT NOT NULL,
  size INTEGER NOT NULL,
  modified INTEGER NOT NULL,
  replaced_at INTEGER NOT NULL,
  replaced_by INTEGER,
  cause TEXT NOT NULL,
  pending INTEGER NOT NULL DEFAULT 0,
  trash_id TEXT
);
CREATE INDEX versions_path ON versions(path, replaced_at);
CREATE INDEX versions_trash ON versions(trash_id);
ALTER TABLE users ADD COLUMN versions TEXT NOT NULL DEFAULT '';
`,
    pg: `
CREATE TABLE versions (
  id TEXT PRIMARY KEY,
  path TEXT NOT NULL,
  version_real TEXT NOT NULL,
  size BIGINT NOT NULL,
  modified BIGINT NOT NULL,
  replaced_at BIGINT NOT NULL,
  replaced_by INTEGER,
  cause TEXT NOT NULL,
  pending INTEGER NOT NULL DEFAULT 0,
  trash_id TEXT
);
CREATE INDEX versions_path ON versions(path, replaced_at);
CREATE INDEX versions_trash ON versions(trash_id);
ALTER TABLE users ADD COLUMN versions TEXT NOT NULL DEFAULT '';
`,
  },
  {
    version: 20,
    name: 'quotas: a quota per user, the measured usage of each scope, and reservations of writes in flight',
    sql: `
ALTER TABLE users ADD COLUMN quota TEXT NOT NULL DEFAULT '';
CREATE TABLE quota_usage (
  user_id INTEGER PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  bytes INTEGER NOT NULL DEFAULT 0,
  files INTEGER NOT NULL DEFAULT 0,
  delta_bytes INTEGER NOT NULL DEFAULT 0,
  delta_files INTEGER NOT NULL DEFAULT 0,
  checked_at INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE quota_reservations (
  id TEXT NOT NULL,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  bytes INTEGER NOT NULL,
  files INTEGER NOT NULL,
  instance TEXT NOT NULL,
  expires_at INTEGER NOT NULL,
  PRIMARY KEY (id, user_id)
);
CREATE INDEX quota_reservations_user ON quota_reservations(user_id, expires_at);
`,
    pg: `
ALTER TABLE users ADD COLUMN quota TEXT NOT NULL DEFAULT '';
CREATE TABLE quota_usage (
  user_id INTEGER PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  bytes BIGINT NOT NULL DEFAULT 0,
  files BIGINT NOT NULL DEFAULT 0,
  delta_bytes BIGINT NOT NULL DEFAULT 0,
  delta_files BIGINT NOT NULL DEFAULT 0,
  checked_at BIGINT NOT NULL DEFAULT 0
);
CREATE TABLE quota_reservations (
  id TEXT NOT NULL,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  bytes BIGINT NOT NULL,
  files BIGINT NOT NULL,
  instance TEXT NOT NULL,
  expires_at BIGINT NOT NULL,
  PRIMARY KEY (id, user_id)
);
CREATE INDEX quota_reservations_user ON quota_reservations(user_id, expires_at);
`,
  },
];
