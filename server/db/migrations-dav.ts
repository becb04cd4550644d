import type { Migration } from './migration';

/**
 * WebDAV (issue 36): dead properties and the per-user WebDAV switch (21), locks (22, helper of the locks).
 * Appended to MIGRATIONS after the storage ones; append only.
 */
export const DAV_MIGRATIONS: Migration[] = [
  {
    version: 21,
    name: 'webdav: dead properties per item (root-relative path, namespace, name) and the per-user webdav switch',
    // `xml`: the whole property element as the client sent it, re-serialised with its namespaces declared, so a
    // PROPFIND hands it back as is.
    sql: `
CREATE TABLE dav_props (
  path TEXT NOT NULL,
  ns TEXT NOT NULL,
  name TEXT NOT NULL,
  xml TEXT NOT NULL,
  PRIMARY KEY (path, ns, name)
);
ALTER TABLE users ADD COLUMN webdav INTEGER NOT NULL DEFAULT 1;
`,
    pg: `
CREATE TABLE dav_props (
  path TEXT NOT NULL,
  ns TEXT NOT NULL,
  name TEXT NOT NULL,
  xml TEXT NOT NULL,
  PRIMARY KEY (path, ns, name)
);
ALTER TABLE users ADD COLUMN webdav INTEGER NOT NULL DEFAULT 1;
`,
  },
  {
    version: 22,
    name: 'webdav locks: one row per lock, keyed by its root-relative path, shared by every instance',
    // `root`: the lock root relative to the files root ('/' is the files root), so users whose scopes overlap meet
    // the same locks. `expires_at` is always set (an Infinite timeout is granted as the longest one allowed); a row
    // past it is ignored at once and swept later. The owner's locks go with the user.
    sql: `
CREATE TABLE dav_locks (
  token TEXT PRIMARY KEY,
  root TEXT NOT NULL,
  owner_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  scope TEXT NOT NULL,
  depth TEXT NOT NULL,
  owner_xml TEXT NOT NULL DEFAULT '',
  timeout_s INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL
);
CREATE INDEX dav_locks_root ON dav_locks(root);
CREATE INDEX dav_locks_owner ON dav_locks(owner_id);
CREATE INDEX dav_locks_expires ON dav_locks(expires_at);
`,
    pg: `
CREATE TABLE dav_locks (
  token TEXT PRIMARY KEY,
  root TEXT NOT NULL,
  owner_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  scope TEXT NOT NULL,
  depth TEXT NOT NULL,
  owner_xml TEXT NOT NULL DEFAULT '',
  timeout_s INTEGER NOT NULL,
  created_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL
);
CREATE INDEX dav_locks_root ON dav_locks(root);
CREATE INDEX dav_locks_owner ON dav_locks(owner_id);
CREATE INDEX dav_locks_expires ON dav_locks(expires_at);
`,
  },
];
