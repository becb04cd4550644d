import { t } from 'elysia';
import { json, type RouteDocs } from '../openapi/route-doc';

const Code = t.Object({ code: t.String({ description: 'a current TOTP code (6 digits) or an unused recovery code' }) });
const RecoveryCodes = t.Object({ recoveryCodes: t.Array(t.String(), { description: 'ten one-time codes, shown only now' }) });
const Enrolment = t.Object({ secret: t.String({ description: 'base32' }), uri: t.String({ description: 'otpauth://totp/… for the QR code' }) });
const Passkey = t.Object({ id: t.String(), name: t.String(), createdAt: t.Number(), lastUsedAt: t.Union([t.Number(), t.Null()]) });
const Status = t.Object({ totp: t.Boolean(), recoveryCodesLeft: t.Number(), passkeys: t.Array(Passkey), required: t.Boolean() });
const Options = t.Object({ challengeId: t.String(), options: t.Record(t.String(), t.Unknown(), { description: 'WebAuthn creation options JSON (PublicKeyCredentialCreationOptionsJSON)' }) });
const NewPasskey = t.Object({ challengeId: t.String(), response: t.Record(t.String(), t.Unknown(), { description: 'the browser\'s RegistrationResponseJSON' }), name: t.String() });

const CODES = { recoveryCodes: ['abcd-efgh-jkmn-pqrs', 'tuvw-xyz2-3456-789a'] };
const PK = { id: 'AbCdEf012345', name: 'Laptop', createdAt: 1767400000000, lastUsedAt: null };
const STATUS = { totp: true, recoveryCodesLeft: 9, passkeys: [PK], required: false };
const OPTIONS = { challengeId: 'q3V0ZXhhbXBsZWNoYWxsZW5nZQ', options: { challenge: 'c2lnbi1tZS1wbGVhc2U', rp: { id: 'files.example.com', name: 'Filedeck' } } };
const ERR = { 400: { description: 'bad input' }, 403: { description: 'wrong code, or an API token' }, 429: { description: 'too many wrong codes' } };
const NONE = { 204: { description: 'done' } };
const mine = { tags: ['account'], auth: 'user' as const };
const admin = { tags: ['users'], auth: 'admin' as const };

/** OpenAPI descriptions of factors.routes.ts (decision 0044). Requests with an API token are refused (403). */
export const factorsApi: RouteDocs = {
  'GET /api/account/factors': { ...mine, summary: 'Your second factors', responses: { 200: { description: 'TOTP on, recovery codes left, passkeys, whether one is required', ...json(Status, STATUS) } } },
  'POST /api/account/totp': { ...mine, summary: 'Start a TOTP enrolment (pending until confirmed)', responses: { 200: { description: 'the secret and its otpauth URI', ...json(Enrolment, { secret: 'JBSWY3DPEHPK3PXP', uri: 'otpauth://totp/Filedeck:alice?secret=JBSWY3DPEHPK3PXP' }) }, 409: { description: 'TOTP is already on' } } },
  'POST /api/account/totp/confirm': { ...mine, summary: 'Confirm the enrolment with its first code: TOTP is on', body: json(Code, { code: '123456' }), responses: { 200: { description: 'ten recovery codes, shown once', ...json(RecoveryCodes, CODES) }, ...ERR } },
  'DELETE /api/account/totp': { ...mine, summary: 'Turn TOTP off (and its recovery codes)', body: json(Code, { code: '123456' }), responses: { ...NONE, ...ERR } },
  'POST /api/account/recovery-codes': { ...mine, summary: 'Ten new recovery codes; the old ones stop working', body: json(Code, { code: '123456' }), responses: { 200: { description: 'the new codes, shown once', ...json(RecoveryCodes, CODES) }, ...ERR } },
  'POST /api/account/passkeys/options': { ...mine, summary: 'Options to create a passkey (discoverable, usable without a password)', description: 'The challenge lives 5 minutes and works once, from this address.', responses: { 200: { description: 'the challenge id and WebAuthn creation options', ...json(Options, OPTIONS) } } },
  'POST /api/account/passkeys': { ...mine, summary: 'Register a passkey', body: json(NewPasskey, { challengeId: OPTIONS.challengeId, response: { id: 'AbCdEf012345', type: 'public-key' }, name: 'Laptop' }), responses: { 201: { description: 'the passkey', ...json(Passkey, PK) }, 400: { description: 'bad input' }, 401: { description: 'the challenge expired or was used' }, 403: { description: 'the answer could not be verified' }, 409: { description: 'already registered' } } },
  'PATCH /api/account/passkeys/:id': { ...mine, summary: 'Rename a passkey', body: json(t.Object({ name: t.String() }), { name: 'Phone' }), responses: { ...NONE, 404: { description: 'no such passkey of yours' } } },
  'DELETE /api/account/passkeys/:id': { ...mine, summary: 'Remove a passkey', responses: { ...NONE, 404: { description: 'no such passkey of yours' } } },
  'GET /api/users/:id/factors': { ...admin, summary: "A user's second factors", responses: { 200: { description: 'their status', ...json(Status, STATUS) }, 404: { description: 'no such user' } } },
  'PUT /api/users/:id/factors': { ...admin, summary: 'Require (or stop requiring) a second factor of this user', body: json(t.Object({ required: t.Boolean() }), { required: true }), responses: { ...NONE, 404: { description: 'no such user' } } },
  'DELETE /api/users/:id/factors': { ...admin, summary: "Reset a user's second factors", description: 'TOTP, recovery codes and passkeys are removed; the "required" flag stays, so they enrol again at their next login.', responses: { ...NONE, 404: { description: 'no such user' } } },
};
