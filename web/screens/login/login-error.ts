import { isApiError } from '../../api/client';

export type LoginMessage =
  | { key: 'login.wrongCredentials' | 'login.usernameTaken' | 'login.passwordsDontMatch' }
  | { key: 'login.signupRejected'; reason: string };

/** The reason inside "400 Bad Request (password is too short, ...)", else the body without its status line prefix. */
function serverReason(message: string): string {
  const text = message.trim();
  const inParens = /\(([^]*)\)$/.exec(text);
  if (inParens?.[1]) return inParens[1].trim();
  return text.replace(/^\d{3}\s+[A-Za-z ]+/, '').trim() || text;
}

/**
 * Which message a failed login or sign-up shows: on sign-up a 409 is a taken username and a 400 carries the
 * server's reason; every other failure reads as wrong credentials (spec §5, §8).
 */
export function loginErrorMessage(err: unknown, signingUp: boolean): LoginMessage {
  if (signingUp && isApiError(err)) {
    if (err.status === 409) return { key: 'login.usernameTaken' };
    if (err.status === 400) return { key: 'login.signupRejected', reason: serverReason(err.message) };
  }
  if (!isApiError(err)) console.error('filedeck: login failed', err);
  return { key: 'login.wrongCredentials' };
}
