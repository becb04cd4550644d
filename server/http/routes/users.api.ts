import { CurrentPassword, ErrorText, User, UserWrite } from '../../contract/api/schemas';
import { json, media, type RouteDocs } from '../openapi/route-doc';
import { t } from 'elysia';

const ALICE = { id: 2, username: 'alice', scope: '/alice', locale: 'en', lockPassword: false, viewMode: 'list', singleClick: false, perm: { admin: false, create: true, download: true }, commands: [], sorting: { by: 'name', asc: true }, rules: [], hideDotfiles: false, dateFormat: false };
const ok = { description: 'done', ...media('text/plain', ErrorText, '200 OK') };

/** OpenAPI descriptions of users.routes.ts. */
export const usersApi: RouteDocs = {
  'GET /api/users': { summary: 'List users', tags: ['users'], auth: 'admin', responses: { 200: { description: 'every user (no password hashes), each with a read-only `usage`: what their scope holds against their `quota` (QuotaUsage, as GET /api/account/usage)', ...json(t.Array(User), [ALICE]) } } },
  'GET /api/users/:id': { summary: 'Read a user (admins: anyone; users: themselves)', tags: ['users'], auth: 'user', responses: { 200: { description: 'the user, with a read-only `usage` (QuotaUsage)', ...json(User, ALICE) }, 403: { description: 'not yours' }, 404: { description: 'no such user' } } },
  'POST /api/users': {
    summary: 'Create a user',
    tags: ['users'],
    auth: 'admin',
    body: json(UserWrite, { what: 'user', which: [], current_password: 'admin password', data: { username: 'bob', password: 'a long password', scope: '/bob', createUserDir: true } }),
    responses: { 201: { description: 'created; Location names the new user', ...media('text/plain', ErrorText, '201 Created') }, 400: { description: 'invalid fields' }, 409: { description: 'the name is taken' } },
  },
  'PUT /api/users/:id': {
    summary: 'Change a user (the fields named in which)',
    tags: ['users'],
    auth: 'user',
    body: json(UserWrite, { what: 'user', which: ['locale'], data: { locale: 'fr' } }),
    responses: { 200: ok, 400: { description: 'invalid fields' }, 403: { description: 'not allowed, or wrong current password' } },
  },
  'DELETE /api/users/:id': {
    summary: 'Delete a user (never the last admin), with their sessions, links, jobs, uploads in progress and trash',
    tags: ['users'],
    auth: 'user',
    query: { trashTo: 'an admin\'s id: their trash is handed to that admin instead of being deleted for good (admins only)' },
    body: json(CurrentPassword, { current_password: 'admin password' }),
    responses: { 200: ok, 400: { description: 'trashTo is not another admin' }, 403: { description: 'not allowed' }, 404: { description: 'no such user' } },
  },
};
