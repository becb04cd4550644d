import { Credentials, ErrorText, Token } from '../../contract/api/schemas';
import { t } from 'elysia';
import { json, media, type RouteDocs } from '../openapi/route-doc';

const Step = t.Object({ step: t.Union([t.Literal('second-factor'), t.Literal('enrol-second-factor')]), ticket: t.String(), methods: t.Array(t.String({ description: 'totp, recovery or passkey' })) });
const STEP = { step: 'second-factor', ticket: 'q3V0ZXhhbXBsZXRpY2tldA', methods: ['totp', 'recovery', 'passkey'] };
const Ticket = t.Object({ ticket: t.String({ description: 'from the 401 of POST /api/login' }) });
const PasskeyOptions = t.Object({ challengeId: t.String(), options: t.Record(t.String(), t.Unknown(), { description: 'WebAuthn request options JSON' }) });
const PASSKEY_OPTIONS = { challengeId: 'c2lnbi1tZS1wbGVhc2U', options: { challenge: 'Y2hhbGxlbmdl', rpId: 'files.example.com', userVerification: 'required' } };
const ticketErrors = { 401: { description: 'the ticket or challenge expired, was used, or was given to another address' }, 429: { description: 'too many attempts' } };

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
    responses: { 200: { description: 'the token', ...media('text/plain', Token, TOKEN) }, 401: { description: 'right password, second step needed: a ticket (5 minutes, this address only)', ...json(Step, STEP) }, 400: { description: 'username or password too long', ...text('400 Bad Request') }, 403: { description: 'wrong credentials', ...text('403 Forbidden') }, 429: { description: 'too many failed logins', ...text('429 Too Many Requests') } },
  },
  'POST /api/login/second-factor': {
    summary: 'The second step: a TOTP or recovery code for the ticket',
    tags: ['auth'],
    auth: 'none',
    description: 'Five wrong codes end the ticket; wrong codes are limited per user and per address (429 before any comparison). With an enrol-second-factor ticket the TOTP code confirms the new authenticator: the answer then carries the ten recovery codes once, comma-separated, in X-Recovery-Codes.',
    body: json(t.Object({ ticket: t.String(), method: t.Union([t.Literal('totp'), t.Literal('recovery')]), code: t.String() }), { ticket: STEP.ticket, method: 'totp', code: '123456' }),
    responses: { 200: { description: 'the token', ...media('text/plain', Token, TOKEN) }, 400: { description: 'bad method or ticket' }, 403: { description: 'wrong code' }, ...ticketErrors },
  },
  'POST /api/login/totp-enrol': {
    summary: 'A TOTP secret for an account that must enrol (enrol-second-factor ticket)',
    tags: ['auth'],
    auth: 'none',
    body: json(Ticket, { ticket: STEP.ticket }),
    responses: { 200: { description: 'the secret and otpauth URI; confirm with POST /api/login/second-factor', ...json(t.Object({ secret: t.String(), uri: t.String() }), { secret: 'JBSWY3DPEHPK3PXP', uri: 'otpauth://totp/Filedeck:alice?secret=JBSWY3DPEHPK3PXP' }) }, ...ticketErrors },
  },
  'POST /api/login/passkey/options': {
    summary: 'WebAuthn request options: a second factor (with a ticket) or a passwordless sign-in (without)',
    tags: ['auth'],
    auth: 'none',
    description: 'With a second-factor ticket: that account\'s passkeys, user verification preferred. Without: any discoverable passkey, user verification required. The challenge works once, for 5 minutes, from this address; making them is rate-limited per address.',
    body: json(t.Object({ ticket: t.Optional(t.String()) }), {}),
    responses: { 200: { description: 'the challenge id and options', ...json(PasskeyOptions, PASSKEY_OPTIONS) }, 400: { description: 'the account has no passkey' }, ...ticketErrors },
  },
  'POST /api/login/passkey': {
    summary: 'Sign in with a passkey (answer to the options\' challenge)',
    tags: ['auth'],
    auth: 'none',
    description: 'The challenge is used up by the first answer (a replay is 401). The signature, RP ID, origin, counter and (passwordless) user verification are checked; a second factor must be a passkey of the ticket\'s account. A passwordless session records the method passkey.',
    body: json(t.Object({ challengeId: t.String(), response: t.Record(t.String(), t.Unknown()), ticket: t.Optional(t.String()) }), { challengeId: PASSKEY_OPTIONS.challengeId, response: { id: 'AbCdEf012345', type: 'public-key' } }),
    responses: { 200: { description: 'the token', ...media('text/plain', Token, TOKEN) }, 400: { description: 'bad input' }, 403: { description: 'the passkey could not be verified' }, ...ticketErrors },
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
