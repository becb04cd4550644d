import { t } from 'elysia';

/**
 * Wire schemas of the JSON API, for the OpenAPI document (server/http/openapi). The bodies themselves are
 * validated by the services (users/user-validation.ts, settings/settings-validation.ts) so the CLI applies the
 * same rules; these schemas describe the shapes and stay open (extra fields allowed) where the services decide.
 */

export const ErrorText = t.String({ description: 'The reference\'s text envelope: "<code> <Status Text>", with " (message)" on client errors', examples: ['404 Not Found'] });

export const Credentials = t.Object({ username: t.String(), password: t.String() }, { additionalProperties: true });
export const Token = t.String({ description: 'A signed login token (JWT); send it back as the X-Auth header' });

export const Sorting = t.Object({ by: t.String(), asc: t.Boolean() });
export const Permissions = t.Record(t.String(), t.Boolean(), { description: 'admin, execute, create, rename, modify, delete, share, download' });
export const Rule = t.Object({ allow: t.Boolean(), regex: t.Boolean(), path: t.String(), regexp: t.Union([t.Object({ raw: t.String() }), t.Null()]) }, { additionalProperties: true });

export const User = t.Object(
  {
    id: t.Integer(),
    username: t.String(),
    scope: t.String(),
    locale: t.String(),
    lockPassword: t.Boolean(),
    viewMode: t.String(),
    singleClick: t.Boolean(),
    perm: Permissions,
    commands: t.Array(t.String()),
    sorting: Sorting,
    rules: t.Array(Rule),
    hideDotfiles: t.Boolean(),
    dateFormat: t.Boolean(),
  },
  { additionalProperties: true },
);

export const UserWrite = t.Object(
  {
    what: t.Optional(t.Literal('user')),
    which: t.Optional(t.Array(t.String(), { description: 'fields to change; empty or ["all"] means every field' })),
    current_password: t.Optional(t.String({ description: "the caller's password, required for sensitive changes" })),
    data: t.Record(t.String(), t.Unknown(), { description: 'user fields (see User), password in clear' }),
  },
  { additionalProperties: true },
);
export const CurrentPassword = t.Object({ current_password: t.Optional(t.String()) }, { additionalProperties: true });

const ResourceFields = {
  path: t.String(),
  name: t.String(),
  size: t.Number(),
  extension: t.String(),
  modified: t.String({ description: 'RFC 3339 time' }),
  mode: t.Number(),
  isDir: t.Boolean(),
  isSymlink: t.Boolean(),
  type: t.String({ description: "'', image, audio, video, pdf, text, textImmutable, blob or invalid_link" }),
};
export const ResourceItem = t.Object(ResourceFields, { additionalProperties: true });
export const Resource = t.Object(
  {
    ...ResourceFields,
    content: t.Optional(t.String({ description: 'text files: their content' })),
    items: t.Optional(t.Array(ResourceItem, { description: 'folders: their entries' })),
    numDirs: t.Optional(t.Integer()),
    numFiles: t.Optional(t.Integer()),
    sorting: t.Optional(Sorting),
  },
  { additionalProperties: true },
);
export const TreeEntry = t.Object({ path: t.String(), name: t.String(), isDir: t.Boolean() });
export const Usage = t.Object({ total: t.Number(), used: t.Number() }, { additionalProperties: true });
export const SearchHit = t.Object({ path: t.String(), dir: t.Boolean() }, { additionalProperties: true, description: 'one line of the NDJSON stream' });

export const Share = t.Object(
  { hash: t.String(), path: t.String(), userID: t.Integer(), expire: t.Integer({ description: 'Unix seconds; 0 = never' }), hasPassword: t.Boolean(), username: t.Optional(t.String()), state: t.Optional(t.Union([t.Literal('ok'), t.Literal('missing'), t.Literal('trashed'), t.Literal('unreachable'), t.Literal('disabled'), t.Literal('exhausted')], { description: 'in listings: ok, or why the link serves nothing now (it is kept and serves again once its item is back, it is enabled, or its download limit raised)' })) },
  { additionalProperties: true },
);
export const ShareCreate = t.Object(
  { password: t.Optional(t.String()), expires: t.Optional(t.String({ description: 'a number of units, as text' })), unit: t.Optional(t.String({ description: 'seconds, minutes, hours or days' })) },
  { additionalProperties: true },
);
export const PublicShare = t.Object({ ...ResourceFields, token: t.Optional(t.String({ description: 'send back as ?token= after a correct password' })) }, { additionalProperties: true });

export const Settings = t.Object(
  { signup: t.Boolean(), createUserDir: t.Boolean(), defaults: t.Record(t.String(), t.Unknown()), rules: t.Array(Rule), branding: t.Record(t.String(), t.Unknown()) },
  { additionalProperties: true, description: 'global settings; see GET /api/settings for every field' },
);
export const SettingsWrite = t.Record(t.String(), t.Unknown(), { description: 'the settings object as GET returns it; fields left out keep their value' });

export const Health = t.Object({ status: t.Literal('OK') });
export const Ready = t.Object({
  status: t.Union([t.Literal('OK'), t.Literal('unavailable')]),
  checks: t.Array(t.Object({ name: t.String(), ok: t.Boolean(), message: t.Optional(t.String()) })),
});
export const MetricsText = t.String({ description: 'Prometheus text exposition format 0.0.4' });
export const Bytes = t.String({ format: 'binary' });
