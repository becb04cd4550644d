import { proxy } from 'valtio/vanilla';
import type { ApiTokenCreated, ApiTokenInfo, ApiTokenRequest, FactorStatus, SessionInfo, TotpEnrolment } from '../../server/contract/accounts';
import * as api from '../api/account';
import { isApiError } from '../api/client';
import { showError, showSuccess } from './notices.state';
import { isCeremonyCancelled, makeCredential } from './webauthn';

interface AccountState {
  sessions: SessionInfo[] | null;
  factors: FactorStatus | null;
  tokens: ApiTokenInfo[] | null;
  error: { status: number } | null;
  /** A TOTP secret waiting for its confirming code. */
  enrolment: TotpEnrolment | null;
  /** Recovery codes just made: shown once, until the user closes them. */
  recoveryCodes: string[] | null;
  /** A token just created: its secret is shown once, until the user closes it. */
  created: ApiTokenCreated | null;
}

/** The signed-in user's Security page: sessions, second factors, passkeys and API tokens. */
export const account = proxy<AccountState>({
  sessions: null, factors: null, tokens: null, error: null, enrolment: null, recoveryCodes: null, created: null,
});

const notify = (key: string) => showSuccess(`account.notices.${key}`);

/** Runs one change; a failure is shown with the server's message and answers false. */
async function attempt(run: () => Promise<unknown>): Promise<boolean> {
  try {
    await run();
    return true;
  } catch (e) {
    if (!isCeremonyCancelled(e)) showError(e);
    return false;
  }
}

export async function loadAccount(): Promise<void> {
  account.error = null;
  try {
    const [sessions, factors, tokens] = await Promise.all([api.listSessions(), api.getFactors(), api.listTokens()]);
    Object.assign(account, { sessions, factors, tokens });
  } catch (e) {
    account.error = { status: isApiError(e) ? e.status : 500 };
  }
}

const reloadSessions = async () => void (account.sessions = await api.listSessions());
const reloadFactors = async () => void (account.factors = await api.getFactors());
const reloadTokens = async () => void (account.tokens = await api.listTokens());

// ---- Sessions ----

export const endSession = (id: string) => attempt(async () => {
  await api.endSession(id);
  notify('sessionEnded');
  await reloadSessions();
});

export const endOtherSessions = () => attempt(async () => {
  await api.endOtherSessions();
  notify('othersEnded');
  await reloadSessions();
});

// ---- TOTP and recovery codes ----

export const startTotp = () => attempt(async () => void (account.enrolment = await api.startTotp()));

export function cancelTotp(): void {
  account.enrolment = null;
}

export const confirmTotp = (code: string) => attempt(async () => {
  const { recoveryCodes } = await api.confirmTotp(code.replace(/\s+/g, ''));
  account.enrolment = null;
  account.recoveryCodes = recoveryCodes;
  notify('totpOn');
  await reloadFactors();
});

export const disableTotp = (code: string) => attempt(async () => {
  await api.disableTotp(code.replace(/\s+/g, ''));
  account.recoveryCodes = null;
  notify('totpOff');
  await reloadFactors();
});

export const regenerateCodes = (code: string) => attempt(async () => {
  account.recoveryCodes = (await api.newRecoveryCodes(code.replace(/\s+/g, ''))).recoveryCodes;
  await reloadFactors();
});

export function closeRecoveryCodes(): void {
  account.recoveryCodes = null;
}

// ---- Passkeys ----

/** Registers a passkey on this device's authenticator under the given name. */
export const addPasskey = (name: string) => attempt(async () => {
  const { challengeId, options } = await api.passkeyCreationOptions();
  const response = await makeCredential(options);
  await api.addPasskey(challengeId, response, name.trim());
  notify('passkeyAdded');
  await reloadFactors();
});

export const renamePasskey = (id: string, name: string) => attempt(async () => {
  await api.renamePasskey(id, name.trim());
  await reloadFactors();
});

export const removePasskey = (id: string) => attempt(async () => {
  await api.removePasskey(id);
  notify('passkeyRemoved');
  await reloadFactors();
});

// ---- API tokens ----

export const createToken = (req: ApiTokenRequest) => attempt(async () => {
  account.created = await api.createToken(req);
  await reloadTokens();
});

export function closeCreatedToken(): void {
  account.created = null;
}

export const revokeToken = (id: string) => attempt(async () => {
  await api.revokeToken(id);
  if (account.created?.id === id) account.created = null;
  notify('tokenRevoked');
  await reloadTokens();
});
