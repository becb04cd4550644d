import type { SecondFactorStep, TotpEnrolment } from '../../server/contract/accounts';
import { isApiError, request, requestJson, requestText } from './client';
import type { PasskeyChallenge } from './account';

/** POST /api/login: answers the raw JWT. An empty body is the no-auth / proxy login. */
export function login(username: string, password: string, recaptcha = ''): Promise<string> {
  return requestText('/login', { method: 'POST', json: { username, password, recaptcha }, auth: false });
}

/** POST /api/login with `{}`: the server decides who the user is (no-auth mode or the proxy header). */
export function loginEmpty(): Promise<string> {
  return requestText('/login', { method: 'POST', json: {}, auth: false });
}

/** POST /api/renew: trades a valid token for a fresh one. A 401 here must not loop into logout. */
export function renew(token: string): Promise<string> {
  return requestText('/renew', { method: 'POST', headers: { 'X-Auth': token }, auth: false });
}

/** POST /api/signup: 409 = username taken, 405 = sign-up disabled, 400 = rejected with a reason. */
export async function signup(username: string, password: string): Promise<void> {
  await request('/signup', { method: 'POST', json: { username, password }, auth: false });
}

/** POST /api/logout: ends the session on the server; answers where the provider wants the browser next ('' = nowhere). */
export async function logout(token: string): Promise<string> {
  const res = await request('/logout', { method: 'POST', headers: { 'X-Auth': token }, auth: false });
  return res.headers.get('X-Logout-Redirect') ?? '';
}

/**
 * The second step a 401 of POST /api/login asks for (JSON `SecondFactorStep`), or null for a plain refusal (wrong
 * credentials answer text, not JSON).
 */
export function secondFactorStepOf(e: unknown): SecondFactorStep | null {
  if (!isApiError(e) || e.status !== 401) return null;
  try {
    const body = JSON.parse(e.message) as Partial<SecondFactorStep>;
    if ((body.step === 'second-factor' || body.step === 'enrol-second-factor') && typeof body.ticket === 'string') {
      return { step: body.step, ticket: body.ticket, methods: Array.isArray(body.methods) ? body.methods : [] };
    }
  } catch {
    // not JSON: an ordinary wrong-credentials answer
  }
  return null;
}

/**
 * POST /api/login/second-factor: a TOTP or recovery code for the ticket; 403 wrong, 429 too many, 401 ticket gone.
 * The confirming code of an enrolment at login also brings the ten recovery codes, once (X-Recovery-Codes).
 */
export async function secondFactor(ticket: string, method: 'totp' | 'recovery', code: string): Promise<{ token: string; recoveryCodes: string[] }> {
  const res = await request('/login/second-factor', { method: 'POST', json: { ticket, method, code }, auth: false });
  const codes = res.headers.get('X-Recovery-Codes');
  return { token: await res.text(), recoveryCodes: codes ? codes.split(',').map((c) => c.trim()).filter(Boolean) : [] };
}

/** POST /api/login/totp-enrol: the secret to set up during login (an enrol-second-factor ticket only). */
export function totpEnrol(ticket: string): Promise<TotpEnrolment> {
  return requestJson('/login/totp-enrol', { method: 'POST', json: { ticket }, auth: false });
}

/** POST /api/login/passkey/options: with a ticket the user's passkeys (second factor), without any discoverable one. */
export function passkeyLoginOptions<T>(ticket?: string): Promise<PasskeyChallenge<T>> {
  return requestJson('/login/passkey/options', { method: 'POST', json: ticket ? { ticket } : {}, auth: false });
}

/** POST /api/login/passkey: the authenticator's answer to the challenge; answers the token. */
export function passkeyLogin(challengeId: string, response: unknown, ticket?: string): Promise<string> {
  return requestText('/login/passkey', { method: 'POST', json: ticket ? { challengeId, response, ticket } : { challengeId, response }, auth: false });
}

/** POST /api/login/sso: trades the one-time code of the OIDC callback for a token. */
export function ssoExchange(code: string): Promise<string> {
  return requestText('/login/sso', { method: 'POST', json: { code }, auth: false });
}
