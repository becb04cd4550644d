import type { ApiTokenInfo, FactorStatus, SessionInfo } from '../../server/contract/accounts';
import { request, requestJson } from './client';

// An admin's view of another user's sessions, second factors and tokens (decision 0044, "Admins").

export const userSessions = (userId: number): Promise<SessionInfo[]> => requestJson(`/users/${userId}/sessions`);

export const endUserSessions = (userId: number): Promise<{ count: number }> => requestJson(`/users/${userId}/sessions`, { method: 'DELETE' });

export const userFactors = (userId: number): Promise<FactorStatus> => requestJson(`/users/${userId}/factors`);

export async function requireUserFactor(userId: number, required: boolean): Promise<void> {
  await request(`/users/${userId}/factors`, { method: 'PUT', json: { required } });
}

export async function resetUserFactors(userId: number): Promise<void> {
  await request(`/users/${userId}/factors`, { method: 'DELETE' });
}

export const userTokens = (userId: number): Promise<ApiTokenInfo[]> => requestJson(`/users/${userId}/tokens`);

export async function revokeUserToken(userId: number, tokenId: string): Promise<void> {
  await request(`/users/${userId}/tokens/${encodeURIComponent(tokenId)}`, { method: 'DELETE' });
}
