import { t } from 'elysia';
import { json, type RouteDocs } from '../openapi/route-doc';
import { ApiTokenInfoSchema, ApiTokenCreatedSchema, ApiTokenRequestSchema, SESSION, SessionInfoSchema, TOKEN } from '../openapi/account-schemas';

const QuotaUsageSchema = t.Object({
  bytes: t.Number(),
  files: t.Number(),
  trashBytes: t.Number(),
  versionsBytes: t.Number(),
  quota: t.Union([t.Object({ bytes: t.Number(), files: t.Number() }), t.Null()]),
  checkedAt: t.Number(),
});
const NONE = { 204: { description: 'done' } };
const mine = { tags: ['account'], auth: 'user' as const };
const TOKENS_403 = { 403: { description: 'with an API token' } };

/** OpenAPI descriptions of account.routes.ts (decision 0044). Requests with an API token are refused (403). */
export const accountApi: RouteDocs = {
  'GET /api/account/sessions': { ...mine, summary: 'Your open sessions', responses: { 200: { description: 'newest first; renewed predecessors are not shown', ...json(t.Array(SessionInfoSchema), [SESSION]) }, ...TOKENS_403 } },
  'POST /api/account/sessions/end-others': { ...mine, summary: 'Sign out everywhere else', responses: { 200: { description: 'how many sessions ended', ...json(t.Object({ count: t.Number() }), { count: 2 }) }, ...TOKENS_403 } },
  'DELETE /api/account/sessions/:id': { ...mine, summary: 'End one of your sessions (its public id)', responses: { ...NONE, 404: { description: 'no such session of yours' }, ...TOKENS_403 } },
  'GET /api/account/usage': {
    ...mine,
    summary: 'What your scope holds against your quota',
    description: 'Bytes and files under your scope plus your trash and versions (bytes includes trashBytes and versionsBytes), the quota that applies (null: none) and when the usage was last measured (0: not measured yet, measuring). API tokens may read it.',
    responses: { 200: { description: 'the usage', ...json(QuotaUsageSchema, { bytes: 980_000_000, files: 1234, trashBytes: 12_000_000, versionsBytes: 30_000_000, quota: { bytes: 1_000_000_000, files: 0 }, checkedAt: 1767225600000 }) } },
  },
  'GET /api/account/tokens': { ...mine, summary: 'Your API tokens (never their secrets)', responses: { 200: { description: 'newest first', ...json(t.Array(ApiTokenInfoSchema), [TOKEN]) }, ...TOKENS_403 } },
  'POST /api/account/tokens': {
    ...mine,
    summary: 'Make an API token',
    description: 'Accepted as Authorization: Bearer, X-Auth, or the password of Authorization: Basic. Its permissions must be yours; a folder must exist in your scope; a token with a folder carries neither admin nor execute; no token runs commands.',
    body: json(ApiTokenRequestSchema, { name: 'backup script', expiresInDays: 90, perm: ['download'], path: '/photos', readOnly: true }),
    responses: { 201: { description: 'the token with its secret, shown once', ...json(ApiTokenCreatedSchema, { ...TOKEN, token: 'fdt_Qw3rTy9UiOpA_0123456789abcdefghijABCDEFGHIJ-_xy' }) }, 400: { description: 'a bad field, the folder missing, or 50 tokens already' }, 403: { description: 'a permission you do not have, or with an API token' }, 409: { description: 'the name is taken' } },
  },
  'DELETE /api/account/tokens/:id': { ...mine, summary: 'Revoke one of your API tokens (at once)', responses: { ...NONE, 404: { description: 'no such token of yours' }, ...TOKENS_403 } },
};
