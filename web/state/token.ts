import type { TokenUser } from '../../server/contract/user';
import { pageConfig } from '../api/page-config';

export interface TokenPayload {
  user: TokenUser;
  sid?: string;
  iat?: number;
  exp?: number;
  iss?: string;
}

const STORAGE_KEY = 'jwt';
const COOKIE = 'auth';
/** The cookie goes only to this instance's paths (another app under the same host never receives the token). */
const cookiePath = () => `${pageConfig.BaseURL}/`;

function base64UrlDecode(part: string): string {
  const b64 = part.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(part.length / 4) * 4, '=');
  const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
  return new TextDecoder().decode(bytes);
}

/**
 * Reads the user from a JWT's payload. The signature is the server's business: this only decodes.
 * Throws 'token malformed' unless the token has three dot-separated parts and a JSON payload with a user.
 */
export function decodeToken(token: string): TokenPayload {
  const parts = token.split('.');
  if (parts.length !== 3 || !parts[1]) throw new Error('token malformed');
  let payload: unknown;
  try {
    payload = JSON.parse(base64UrlDecode(parts[1]));
  } catch {
    throw new Error('token malformed');
  }
  if (!payload || typeof payload !== 'object' || !('user' in payload) || typeof payload.user !== 'object' || !payload.user) {
    throw new Error('token malformed');
  }
  return payload as TokenPayload;
}

/** Milliseconds before a token's claims expire (Infinity for a token without an expiry); 0 or less once expired. */
export const timeLeft = (claims: TokenPayload): number => (claims.exp ? claims.exp * 1000 - Date.now() : Infinity);

/** The token kept from a previous visit, if any. */
export function readStoredToken(): string | null {
  try {
    return localStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}

/** Keeps the token in localStorage and in the `auth` cookie (the server reads the cookie on GET only). */
export function storeToken(token: string): void {
  try {
    localStorage.setItem(STORAGE_KEY, token);
  } catch {
    // Private mode without storage: the session still works for this page.
  }
  const secure = window.location.protocol === 'https:' ? '; Secure' : '';
  document.cookie = `${COOKIE}=${token}; Path=${cookiePath()}; SameSite=Strict${secure}`;
}

/** Removes the token from localStorage and the cookie. */
export function forgetToken(): void {
  try {
    localStorage.removeItem(STORAGE_KEY);
  } catch {
    // nothing stored
  }
  document.cookie = `${COOKIE}=; Path=${cookiePath()}; Max-Age=0; SameSite=Strict`;
  // A cookie an older version set on "/" goes too.
  document.cookie = `${COOKIE}=; Path=/; Max-Age=0; SameSite=Strict`;
}
