import { request, requestText } from './client';

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

/** POST /api/logout: ends the session on the server. */
export async function logout(token: string): Promise<void> {
  await request('/logout', { method: 'POST', headers: { 'X-Auth': token }, auth: false });
}
