import type { Migration } from './migration';

/**
 * Accounts (issue 34): how each session started and was last seen (15), personal API tokens (16), second factors and
 * login tickets (17), identities linked from OpenID Connect and LDAP (18). Appended to MIGRATIONS; append only.
 */
export const ACCOUNT_MIGRATIONS: Migration[] = [
  {
    version: 15,
    name: 'sessions: how each started (method), from where (address, device) and when last seen',
    sql: `
ALTER TABLE sessions ADD COLUMN method TEXT NOT NULL DEFAULT 'password';
ALTER TABLE sessions ADD COLUMN address TEXT NOT NULL DEFAULT '';
ALTER TABLE sessions ADD COLUMN device TEXT NOT NULL DEFAULT '';
ALTER TABLE sessions ADD COLUMN last_seen_at INTEGER NOT NULL DEFAULT 0;
`,
    pg: `
ALTER TABLE sessions ADD COLUMN method TEXT NOT NULL DEFAULT 'password';
ALTER TABLE sessions ADD COLUMN address TEXT NOT NULL DEFAULT '';
ALTER TABLE sessions ADD COLUMN device TEXT NOT NULL DEFAULT '';
ALTER TABLE sessions ADD COLUMN last_seen_at BIGINT NOT NULL DEFAULT 0;
`,
  },
  {
    version: 16,
    name: 'personal API tokens: a hashed secret, a subset of the owner\'s permissions, an optional folder, read-only',
    sql: `
CREATE TABLE api_tokens (
  id TEXT PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  secret_hash TEXT NOT NULL,
  perm TEXT NOT NULL,
  path TEXT,
  read_only INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL,
  expires_at INTEGER,
  last_used_at INTEGER
);
CREATE INDEX api_tokens_user ON api_tokens(user_id);
CREATE UNIQUE INDEX api_tokens_user_name ON api_tokens(user_id, name);
`,
    pg: `
CREATE TABLE api_tokens (
  id TEXT PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  secret_hash TEXT NOT NULL,
  perm TEXT NOT NULL,
  path TEXT,
  read_only INTEGER NOT NULL DEFAULT 0,
  created_at BIGINT NOT NULL,
  expires_at BIGINT,
  last_used_at BIGINT
);
CREATE INDEX api_tokens_user ON api_tokens(user_id);
CREATE UNIQUE INDEX api_tokens_user_name ON api_tokens(user_id, name);
`,
  },
  {
    version: 17,
    name: 'second factors: TOTP and the admin flag per user, recovery codes, passkeys, login tickets and WebAuthn challenges',
    sql: `
CREATE TABLE user_factors (
  user_id INTEGER PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  totp_secret TEXT,
  totp_confirmed INTEGER NOT NULL DEFAULT 0,
  totp_last_step INTEGER NOT NULL DEFAULT 0,
  required INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE recovery_codes (
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  hash TEXT NOT NULL,
  used_at INTEGER,
  PRIMARY KEY (user_id, hash)
);
CREATE TABLE passkeys (
  id TEXT PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  public_key TEXT NOT NULL,
  counter INTEGER NOT NULL DEFAULT 0,
  transports TEXT NOT NULL DEFAULT '[]',
  device_type TEXT NOT NULL DEFAULT '',
  backed_up INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL,
  last_used_at INTEGER
);
CREATE INDEX passkeys_user ON passkeys(user_id);
CREATE TABLE login_tickets (
  id TEXT PRIMARY KEY,
  user_id INTEGER REFERENCES users(id) ON DELETE CASCADE,
  kind TEXT NOT NULL,
  payload TEXT NOT NULL DEFAULT '{}',
  address TEXT NOT NULL,
  expires_at INTEGER NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX login_tickets_expires ON login_tickets(expires_at);
`,
    pg: `
CREATE TABLE user_factors (
  user_id INTEGER PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  totp_secret TEXT,
  totp_confirmed INTEGER NOT NULL DEFAULT 0,
  totp_last_step BIGINT NOT NULL DEFAULT 0,
  required INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE recovery_codes (
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  hash TEXT NOT NULL,
  used_at BIGINT,
  PRIMARY KEY (user_id, hash)
);
CREATE TABLE passkeys (
  id TEXT PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  public_key TEXT NOT NULL,
  counter BIGINT NOT NULL DEFAULT 0,
  transports TEXT NOT NULL DEFAULT '[]',
  device_type TEXT NOT NULL DEFAULT '',
  backed_up INTEGER NOT NULL DEFAULT 0,
  created_at BIGINT NOT NULL,
  last_used_at BIGINT
);
CREATE INDEX passkeys_user ON passkeys(user_id);
CREATE TABLE login_tickets (
  id TEXT PRIMARY KEY,
  user_id INTEGER REFERENCES users(id) ON DELETE CASCADE,
  kind TEXT NOT NULL,
  payload TEXT NOT NULL DEFAULT '{}',
  address TEXT NOT NULL,
  expires_at BIGINT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX login_tickets_expires ON login_tickets(expires_at);
`,
  },
  {
    version: 18,
    name: 'identities linked from OpenID Connect and LDAP; OIDC flows between redirect and callback; one-time sso codes; id tokens kept for logout',
    sql: `
CREATE TABLE identities (
  provider TEXT NOT NULL,
  issuer TEXT NOT NULL,
  subject TEXT NOT NULL,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_at INTEGER NOT NULL,
  last_login_at INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (provider, issuer, subject)
);
CREATE INDEX identities_user ON identities (user_id);
CREATE TABLE sso_flows (state TEXT PRIMARY KEY, nonce TEXT NOT NULL, verifier TEXT NOT NULL, redirect TEXT NOT NULL, expires_at INTEGER NOT NULL);
CREATE TABLE sso_codes (code TEXT PRIMARY KEY, user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE, redirect TEXT NOT NULL, id_token TEXT NOT NULL, expires_at INTEGER NOT NULL);
CREATE TABLE sso_logouts (family TEXT PRIMARY KEY, id_token TEXT NOT NULL, expires_at INTEGER NOT NULL);
`,
    pg: `
CREATE TABLE identities (
  provider TEXT NOT NULL,
  issuer TEXT NOT NULL,
  subject TEXT NOT NULL,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_at BIGINT NOT NULL,
  last_login_at BIGINT NOT NULL DEFAULT 0,
  PRIMARY KEY (provider, issuer, subject)
);
CREATE INDEX identities_user ON identities (user_id);
CREATE TABLE sso_flows (state TEXT PRIMARY KEY, nonce TEXT NOT NULL, verifier TEXT NOT NULL, redirect TEXT NOT NULL, expires_at BIGINT NOT NULL);
CREATE TABLE sso_codes (code TEXT PRIMARY KEY, user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE, redirect TEXT NOT NULL, id_token TEXT NOT NULL, expires_at BIGINT NOT NULL);
CREATE TABLE sso_logouts (family TEXT PRIMARY KEY, id_token TEXT NOT NULL, expires_at BIGINT NOT NULL);
`,
  },
];
