import { Credentials, ErrorText, Token } from '../../contract/api/schemas';
import { json, media, type RouteDocs } from '../openapi/route-doc';

const TOKEN = 'eyJhbGciOiJIUzI1NiJ9.eyJzaWQiOiJhYmMifQ.c2lnbmF0dXJl';
const text = (example: string) => media('text/plain', ErrorText, example);

/** OpenAPI descriptions of auth.routes.ts. */
export const authApi: RouteDocs = {
  'POST /api/login': {
    summary: 'Log in; answers the token as text',
    tags: ['auth'],
    auth: 'none',
    description: 'With authMethod proxy the user comes from the configured header (trusted proxies only); with noauth no body is needed. A username over 512 bytes or a password over 256 bytes is refused (400) before anything is counted or recorded; bodies over 64 KiB are 413.',
    body: json(Credentials, { username: 'admin', password: 'a long password' }),
    responses: { 200: { description: 'the token', ...media('text/plain', Token, TOKEN) }, 400: { description: 'username or password too long', ...text('400 Bad Request') }, 403: { description: 'wrong credentials', ...text('403 Forbidden') }, 429: { description: 'too many failed logins', ...text('429 Too Many Requests') } },
  },
  'POST /api/renew': {
    summary: 'Renew the token of the current session',
    tags: ['auth'],
    auth: 'user',
    responses: { 200: { description: 'the new token', ...media('text/plain', Token, TOKEN) }, 401: { description: 'no, bad or expired token' } },
  },
  'POST /api/signup': {
    summary: 'Create an account (when signup is on)',
    tags: ['auth'],
    auth: 'none',
    body: json(Credentials, { username: 'newuser', password: 'a long password' }),
    description: 'Names with control or bidirectional characters, or over 128 characters, are refused. Accounts made from one address are limited (429 past the limit).',
    responses: { 200: { description: 'created', ...text('200 OK') }, 400: { description: 'invalid name or password' }, 405: { description: 'signup is off' }, 409: { description: 'the name is taken' }, 429: { description: 'too many accounts from this address' } },
  },
  'POST /api/logout': {
    summary: 'End the current session',
    tags: ['auth'],
    auth: 'user',
    description: 'Ends the whole renewal chain of the token: every predecessor still in its grace window and every successor.',
    responses: { 200: { description: 'the token (and every token renewed from or into it) no longer works', ...text('200 OK') } },
  },
};
