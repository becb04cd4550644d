import { proxy } from 'valtio/vanilla';
import type { SecondFactorStep } from '../../server/contract/accounts';
import type { TokenUser } from '../../server/contract/user';
import * as api from '../api/auth';
import { configureClient, isApiError } from '../api/client';
import { discardEarly } from '../api/early-request';
import { goTo, loginRedirectPath } from './navigation';
import { pageConfig, usesEmptyLogin } from '../api/page-config';
import { decodeToken, forgetToken, readStoredToken, storeToken, timeLeft } from './token';

interface AuthState {
  user: TokenUser | null;
  token: string;
  loggedIn: boolean;
}

/** The session: who is logged in and with which token. */
export const auth = proxy<AuthState>({ user: null, token: '', loggedIn: false });

function setSession(token: string): void {
  const { user } = decodeToken(token);
  storeToken(token);
  auth.token = token;
  // A renewal mostly carries the same user: the screens showing it are then left as they are (no re-render of the
  // listing under the pointer while the app starts and renews).
  if (!auth.user || JSON.stringify(auth.user) !== JSON.stringify(user)) auth.user = user;
  auth.loggedIn = true;
}

function clearSession(): void {
  discardEarly(); // asked for with the token that is going away
  forgetToken();
  auth.token = '';
  auth.user = null;
  auth.loggedIn = false;
}

let renewing: Promise<void> | null = null;

/**
 * Replaces the token with a fresh one; concurrent requests share one renewal. The answer applies only while the
 * token it renewed is still the session's (not after a logout or another login); a refusal (401) ends the session as
 * any 401 does, other failures are only logged. The app also starts with a stored token and renews it so, meanwhile
 * (the server keeps the old one valid for a while after: tokenRenewGrace).
 */
export function renewToken(): Promise<void> {
  const token = auth.token;
  if (!token) return Promise.resolve();
  renewing ??= api
    .renew(token)
    .then(
      (next) => {
        if (auth.token === token) setSession(next);
      },
      (e: unknown) => {
        if (isApiError(e) && e.status === 401 && auth.token === token) onUnauthorized();
        else console.warn('filedeck: token renewal failed', e);
      },
    )
    .finally(() => {
      renewing = null;
    });
  return renewing;
}

/** A 401 on an authenticated call: the server already dropped the session, so only the client side is cleared. */
function onUnauthorized(): void {
  if (!auth.loggedIn) return;
  const back = loginRedirectPath();
  clearSession();
  goTo(back);
}

/** A stored token this close to its expiry is renewed before the app starts with it. */
const START_MARGIN_MS = 60_000;

/**
 * Start-up: wires the API client, then either performs the empty login (no-auth / proxy modes) or restores the
 * stored token. A token with time left is used at once and renewed meanwhile: the first screen does not wait for
 * the renewal (nor for the requests the server answers before it, like a big folder's listing asked for by the
 * start-up script). Failures are only logged and leave the app logged out.
 */
export async function startSession(): Promise<void> {
  configureClient(pageConfig.BaseURL, {
    token: () => auth.token,
    renewRequested: () => void renewToken(),
    unauthorized: onUnauthorized,
  });
  try {
    if (usesEmptyLogin) {
      setSession(await api.loginEmpty());
      return;
    }
    const stored = readStoredToken();
    if (!stored) return;
    if (timeLeft(decodeToken(stored)) > START_MARGIN_MS) {
      setSession(stored);
      void renewToken();
      return;
    }
    setSession(await api.renew(stored));
  } catch (e) {
    console.warn('filedeck: could not start the session', e);
    clearSession();
  }
}

/**
 * Logs in with a username and password. Answers null when signed in, or the second step the server asks for
 * (a 401 carrying `SecondFactorStep`); throws the ApiError of any other failure.
 */
export async function login(username: string, password: string): Promise<SecondFactorStep | null> {
  let token: string;
  try {
    token = await api.login(username, password);
  } catch (e) {
    const step = api.secondFactorStepOf(e);
    if (step) return step;
    throw e;
  }
  beginSession(token);
  return null;
}

/**
 * Starts the session with a token from any sign-in step (password, second factor, passkey, single sign-on): the one
 * place a fresh login's token is taken, so every method behaves as the password login does.
 */
export function beginSession(token: string): void {
  discardEarly(); // a new session never takes an answer asked for with an earlier one
  setSession(token);
}

/** Registers a new account, then logs in with it. */
export async function signup(username: string, password: string): Promise<SecondFactorStep | null> {
  await api.signup(username, password);
  // A new account has no second factor yet; when everyone must have one, the login page asks for it.
  return login(username, password);
}

/** Ends the session on the server (a failure is ignored), clears the stored token and user, then shows the login page. */
export async function logout(): Promise<void> {
  const token = auth.token;
  let provider = '';
  if (token) {
    try {
      provider = await api.logout(token);
    } catch (e) {
      console.warn('filedeck: logout call failed', e);
    }
  }
  clearSession();
  // A single sign-on session may end at its provider too (X-Logout-Redirect): that address comes first.
  const target = provider || pageConfig.LogoutPage || '/login';
  if (/^https?:\/\//i.test(target)) window.location.assign(target);
  else goTo(target.startsWith('/') ? target : '/login');
}
