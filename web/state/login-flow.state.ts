import { proxy } from 'valtio/vanilla';
import type { SecondFactorStep, TotpEnrolment } from '../../server/contract/accounts';
import * as api from '../api/auth';
import { isApiError } from '../api/client';
import { beginSession, login, signup } from './auth.state';
import { isCeremonyCancelled, signChallenge } from './webauthn';

/** Messages of the login page beyond wrong credentials, by their key under `login.`. */
export type FlowMessage = 'wrongCode' | 'tooMany' | 'ticketExpired' | 'passkeyFailed' | 'ssoFailed' | 'ssoNoAccount' | 'ssoNotAllowed';

interface LoginFlow {
  /** The second step the server asked for after the password; null = the sign-in form. */
  step: SecondFactorStep | null;
  /** The TOTP secret offered during an enrol-second-factor step. */
  enrolment: TotpEnrolment | null;
  message: FlowMessage | null;
  busy: boolean;
  /**
   * After an enrolment at login: the ten recovery codes, shown once before the session begins with `pendingToken`
   * (the user has no other moment to see them).
   */
  recoveryCodes: string[] | null;
  pendingToken: string | null;
}

export const loginFlow = proxy<LoginFlow>({ step: null, enrolment: null, message: null, busy: false, recoveryCodes: null, pendingToken: null });

/** The recovery codes were saved (or dismissed): the session that waited for them begins. */
export function recoveryCodesSeen(): void {
  const token = loginFlow.pendingToken;
  loginFlow.recoveryCodes = null;
  loginFlow.pendingToken = null;
  if (token) beginSession(token);
}

/** Back to the username and password form (an expired or used-up ticket, or the user's choice). */
export function backToForm(message: FlowMessage | null = null): void {
  loginFlow.step = null;
  loginFlow.enrolment = null;
  loginFlow.message = message;
  loginFlow.busy = false;
}

/** The message of a failed step: a wrong code stays on the step, a dead ticket goes back to the form. */
function stepFailed(e: unknown, afterWrongCode = false): void {
  loginFlow.busy = false;
  if (isApiError(e) && e.status === 429) loginFlow.message = 'tooMany';
  // A ticket also ends after five wrong codes: after a wrong one, its end reads as too many tries, not as a timeout.
  else if (isApiError(e) && (e.status === 401 || e.status === 410)) backToForm(afterWrongCode ? 'tooMany' : 'ticketExpired');
  else if (isApiError(e) && (e.status === 403 || e.status === 400)) loginFlow.message = 'wrongCode';
  else if (isCeremonyCancelled(e)) loginFlow.message = null;
  else {
    if (!isApiError(e)) console.error('filedeck: second step failed', e);
    loginFlow.message = 'passkeyFailed';
  }
}

/** The password step (or a sign-up's login); throws what `login` throws. */
export async function passwordStep(username: string, password: string, signingUp = false): Promise<void> {
  loginFlow.message = null;
  const step = await (signingUp ? signup : login)(username, password);
  if (step) await enterStep(step);
}

/** Shows the second step the server asked for; an enrolment first fetches the secret to set up. */
async function enterStep(step: SecondFactorStep): Promise<void> {
  loginFlow.step = step;
  loginFlow.enrolment = null;
  if (step.step === 'enrol-second-factor') {
    try {
      loginFlow.enrolment = await api.totpEnrol(step.ticket);
    } catch (e) {
      stepFailed(e);
    }
  }
}

/** Sends a TOTP or recovery code for the current ticket (also the confirming code of an enrolment). */
export async function codeStep(method: 'totp' | 'recovery', code: string): Promise<void> {
  const step = loginFlow.step;
  if (!step || loginFlow.busy) return;
  loginFlow.busy = true;
  const before = loginFlow.message;
  loginFlow.message = null;
  try {
    const { token, recoveryCodes } = await api.secondFactor(step.ticket, method, code.replace(/\s+/g, ''));
    backToForm();
    if (recoveryCodes.length) {
      loginFlow.recoveryCodes = recoveryCodes;
      loginFlow.pendingToken = token;
    } else beginSession(token);
  } catch (e) {
    stepFailed(e, before === 'wrongCode' || before === 'tooMany');
  }
}

/** Signs in with a passkey: as the second step when a ticket is pending, else passwordless (a discoverable one). */
export async function passkeyStep(): Promise<void> {
  if (loginFlow.busy) return;
  const ticket = loginFlow.step?.ticket;
  loginFlow.busy = true;
  loginFlow.message = null;
  try {
    const { challengeId, options } = await api.passkeyLoginOptions(ticket);
    const response = await signChallenge(options);
    const token = await api.passkeyLogin(challengeId, response, ticket);
    backToForm();
    beginSession(token);
  } catch (e) {
    if (!ticket && isApiError(e) && (e.status === 401 || e.status === 403)) {
      loginFlow.busy = false;
      loginFlow.message = 'passkeyFailed';
    } else stepFailed(e);
  }
}

/** The OIDC callback's error codes the page names; any other reads as a failed single sign-on. */
const SSO_ERRORS: Record<string, FlowMessage> = { no_account: 'ssoNoAccount', not_allowed: 'ssoNotAllowed', forbidden: 'ssoNotAllowed' };

/**
 * Arrival from the provider: `?sso=<code>` is traded for a token (the code works once), `?ssoError=<code>` shown.
 * Both are removed from the address so a reload does not try the spent code again.
 */
export async function ssoArrival(): Promise<void> {
  const params = new URLSearchParams(window.location.search);
  const code = params.get('sso');
  const failure = params.get('ssoError');
  if (!code && failure === null) return;
  params.delete('sso');
  params.delete('ssoError');
  const rest = params.toString();
  window.history.replaceState(window.history.state, '', `${window.location.pathname}${rest ? `?${rest}` : ''}`);
  if (failure !== null) {
    loginFlow.message = SSO_ERRORS[failure] ?? 'ssoFailed';
    return;
  }
  loginFlow.busy = true;
  try {
    beginSession(await api.ssoExchange(code!));
  } catch (e) {
    if (!isApiError(e)) console.error('filedeck: single sign-on failed', e);
    loginFlow.message = 'ssoFailed';
  } finally {
    loginFlow.busy = false;
  }
}
