import { proxy } from 'valtio/vanilla';
import type { ApiTokenInfo, FactorStatus, SessionInfo } from '../../server/contract/accounts';
import { isApiError } from '../api/client';
import * as api from '../api/user-accounts';
import { showError, showSuccess } from './notices.state';

interface UserAccess {
  userId: number;
  sessions: SessionInfo[] | null;
  factors: FactorStatus | null;
  tokens: ApiTokenInfo[] | null;
  error: { status: number } | null;
}

/** What an admin sees of another user's sign-in on the user edit screen: sessions, second factors, tokens. */
export const userAccess = proxy<UserAccess>({ userId: 0, sessions: null, factors: null, tokens: null, error: null });

export async function loadUserAccess(userId: number): Promise<void> {
  Object.assign(userAccess, { userId, sessions: null, factors: null, tokens: null, error: null });
  try {
    const [sessions, factors, tokens] = await Promise.all([api.userSessions(userId), api.userFactors(userId), api.userTokens(userId)]);
    if (userAccess.userId === userId) Object.assign(userAccess, { sessions, factors, tokens });
  } catch (e) {
    if (userAccess.userId === userId) userAccess.error = { status: isApiError(e) ? e.status : 500 };
  }
}

async function change(run: () => Promise<unknown>, notice: string): Promise<boolean> {
  const userId = userAccess.userId;
  try {
    await run();
  } catch (e) {
    showError(e);
    return false;
  }
  showSuccess(`account.notices.${notice}`);
  await loadUserAccess(userId);
  return true;
}

export const endAllUserSessions = () => change(() => api.endUserSessions(userAccess.userId), 'sessionsEnded');

export const setFactorRequired = (required: boolean) => change(() => api.requireUserFactor(userAccess.userId, required), 'saved');

export const resetFactors = () => change(() => api.resetUserFactors(userAccess.userId), 'factorsReset');

export const revokeUserToken = (tokenId: string) => change(() => api.revokeUserToken(userAccess.userId, tokenId), 'tokenRevoked');
