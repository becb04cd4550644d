import { t } from 'elysia';
import { PERMISSIONS } from '../../contract/user';

/** Schemas and examples of the account wire types (contract/accounts.ts), shared by account.api.ts and user-access.api.ts. */
const Method = t.Union(['password', 'ldap', 'oidc', 'passkey', 'proxy', 'noauth'].map((m) => t.Literal(m)));
export const SessionInfoSchema = t.Object({
  id: t.String({ description: 'a public id (a short hash; never the session\'s secret id)' }),
  method: Method,
  createdAt: t.Number(),
  lastSeenAt: t.Number({ description: 'updated at most once a minute' }),
  expiresAt: t.Number(),
  address: t.String(),
  device: t.String({ description: 'from the User-Agent at login, e.g. "Firefox on Linux"' }),
  current: t.Boolean({ description: 'the session this request came with' }),
});
const Perm = t.Union(PERMISSIONS.map((p) => t.Literal(p)));
export const ApiTokenInfoSchema = t.Object({
  id: t.String(),
  name: t.String(),
  createdAt: t.Number(),
  expiresAt: t.Union([t.Number(), t.Null()], { description: 'null: never expires' }),
  lastUsedAt: t.Union([t.Number(), t.Null()], { description: 'updated at most once a minute' }),
  perm: t.Array(Perm, { description: 'a subset of the owner\'s permissions, checked again at every use' }),
  path: t.Union([t.String(), t.Null()], { description: 'only this folder and below; null: the whole scope' }),
  readOnly: t.Boolean(),
});
export const ApiTokenCreatedSchema = t.Object({ ...ApiTokenInfoSchema.properties, token: t.String({ description: 'fdt_<id>_<secret>: shown only now' }) });
export const ApiTokenRequestSchema = t.Object({
  name: t.String({ description: '1 to 100 characters, unique among your tokens' }),
  expiresInDays: t.Optional(t.Union([t.Number({ minimum: 1, maximum: 3650 }), t.Null()])),
  perm: t.Array(Perm),
  path: t.Optional(t.Union([t.String(), t.Null()])),
  readOnly: t.Optional(t.Boolean()),
});

export const SESSION = { id: 'Xb3k9QmT0aZr2LwE', method: 'password', createdAt: 1767400000000, lastSeenAt: 1767403600000, expiresAt: 1767407200000, address: '192.0.2.7', device: 'Firefox on Linux', current: true };
export const TOKEN = { id: 'Qw3rTy9UiOpA', name: 'backup script', createdAt: 1767400000000, expiresAt: null, lastUsedAt: null, perm: ['download'], path: '/photos', readOnly: true };
