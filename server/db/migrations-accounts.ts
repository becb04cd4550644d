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
];
