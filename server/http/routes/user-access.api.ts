import { t } from 'elysia';
import { json, type RouteDocs } from '../openapi/route-doc';
import { ApiTokenInfoSchema, SESSION, SessionInfoSchema, TOKEN } from '../openapi/account-schemas';

const admin = { tags: ['users'], auth: 'admin' as const };
const NO_USER = { 404: { description: 'no such user' } };

/** OpenAPI descriptions of user-access.routes.ts (decision 0044): a user's sessions and tokens, for admins. */
export const userAccessApi: RouteDocs = {
  'GET /api/users/:id/sessions': { ...admin, summary: "A user's open sessions", responses: { 200: { description: 'newest first', ...json(t.Array(SessionInfoSchema), [{ ...SESSION, current: false }]) }, ...NO_USER } },
  'DELETE /api/users/:id/sessions': { ...admin, summary: "End every session of a user", responses: { 200: { description: 'how many ended', ...json(t.Object({ count: t.Number() }), { count: 3 }) }, ...NO_USER } },
  'DELETE /api/users/:id/sessions/:sid': { ...admin, summary: "End one session of a user (its public id)", responses: { 204: { description: 'done' }, 404: { description: 'no such session of this user' } } },
  'GET /api/users/:id/tokens': { ...admin, summary: "A user's API tokens (never their secrets)", responses: { 200: { description: 'newest first', ...json(t.Array(ApiTokenInfoSchema), [TOKEN]) } } },
  'DELETE /api/users/:id/tokens/:tid': { ...admin, summary: "Revoke a user's API token", responses: { 204: { description: 'done' }, 404: { description: 'no such token of this user' } } },
};
