import type {
  ApiTokenCreated, ApiTokenInfo, ApiTokenRequest, FactorStatus, PasskeyInfo, SessionInfo, TotpEnrolment,
} from '../../server/contract/accounts';
import { request, requestJson } from './client';

/** A WebAuthn ceremony's start: the server keeps the challenge under this id (decision 0044). */
export interface PasskeyChallenge<T = unknown> {
  challengeId: string;
  options: T;
}

// ---- Sessions ----

export const listSessions = (): Promise<SessionInfo[]> => requestJson('/account/sessions');

export async function endSession(id: string): Promise<void> {
  await request(`/account/sessions/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

export const endOtherSessions = (): Promise<{ count: number }> => requestJson('/account/sessions/end-others', { method: 'POST' });

// ---- Second factors ----

export const getFactors = (): Promise<FactorStatus> => requestJson('/account/factors');

export const startTotp = (): Promise<TotpEnrolment> => requestJson('/account/totp', { method: 'POST' });

export const confirmTotp = (code: string): Promise<{ recoveryCodes: string[] }> =>
  requestJson('/account/totp/confirm', { method: 'POST', json: { code } });

export async function disableTotp(code: string): Promise<void> {
  await request('/account/totp', { method: 'DELETE', json: { code } });
}

export const newRecoveryCodes = (code: string): Promise<{ recoveryCodes: string[] }> =>
  requestJson('/account/recovery-codes', { method: 'POST', json: { code } });

// ---- Passkeys ----

export const passkeyCreationOptions = <T,>(): Promise<PasskeyChallenge<T>> => requestJson('/account/passkeys/options', { method: 'POST' });

export const addPasskey = (challengeId: string, response: unknown, name: string): Promise<PasskeyInfo> =>
  requestJson('/account/passkeys', { method: 'POST', json: { challengeId, response, name } });

export async function renamePasskey(id: string, name: string): Promise<void> {
  await request(`/account/passkeys/${encodeURIComponent(id)}`, { method: 'PATCH', json: { name } });
}

export async function removePasskey(id: string): Promise<void> {
  await request(`/account/passkeys/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

// ---- API tokens ----

export const listTokens = (): Promise<ApiTokenInfo[]> => requestJson('/account/tokens');

export const createToken = (body: ApiTokenRequest): Promise<ApiTokenCreated> => requestJson('/account/tokens', { method: 'POST', json: body });

export async function revokeToken(id: string): Promise<void> {
  await request(`/account/tokens/${encodeURIComponent(id)}`, { method: 'DELETE' });
}
