/**
 * Numbered schema migrations. The schema version is SQLite's user_version.
 * Append only: never edit a migration that has shipped; add the next number instead.
 */
export const MIGRATIONS: { version: number; name: string; sql: string }[] = [
  {
    version: 1,
    name: 'initial schema',
    sql: `
CREATE TABLE users (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  username TEXT NOT NULL COLLATE NOCASE UNIQUE,
  password TEXT NOT NULL,
  scope TEXT NOT NULL,
  locale TEXT NOT NULL DEFAULT 'en',
  lock_password INTEGER NOT NULL DEFAULT 0,
  view_mode TEXT NOT NULL DEFAULT 'mosaic',
  single_click INTEGER NOT NULL DEFAULT 0,
  redirect_after_copy_move INTEGER NOT NULL DEFAULT 1,
  perm TEXT NOT NULL,
  commands TEXT NOT NULL DEFAULT '[]',
  sorting TEXT NOT NULL DEFAULT '{"by":"name","asc":false}',
  rules TEXT NOT NULL DEFAULT '[]',
  hide_dotfiles INTEGER NOT NULL DEFAULT 0,
  date_format INTEGER NOT NULL DEFAULT 0,
  ace_editor_theme TEXT NOT NULL DEFAULT '',
  theme TEXT NOT NULL DEFAULT '',
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE TABLE settings (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
);
CREATE TABLE secrets (
  name TEXT PRIMARY KEY,
  value BLOB NOT NULL
);
CREATE TABLE sessions (
  id TEXT PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL
);
CREATE INDEX sessions_user ON sessions(user_id);
CREATE TABLE shares (
  hash TEXT PRIMARY KEY,
  path TEXT NOT NULL,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  expire INTEGER NOT NULL DEFAULT 0,
  password_hash TEXT NOT NULL DEFAULT '',
  token TEXT NOT NULL DEFAULT '',
  created_at INTEGER NOT NULL
);
CREATE INDEX shares_user_path ON shares(user_id, path);
`,
  },
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
  },
  {
    version: 3,
    name: 'shares pin their real target',
    sql: `
ALTER TABLE shares ADD COLUMN target TEXT NOT NULL DEFAULT '';
ALTER TABLE shares ADD COLUMN target_id TEXT NOT NULL DEFAULT '';
CREATE INDEX shares_target ON shares(target);
`,
  },
];
