import { expect } from 'bun:test';
import { Secret, TOTP } from 'otpauth';
import type { Page } from 'playwright-core';
import type { TotpEnrolment } from '../../server/contract/accounts';
import { shot } from './browser';

/** What the account browser tests set up through the API (decision 0044) before driving the page. */
export interface Api {
  base: string;
  call(path: string, opts?: { method?: string; token?: string; json?: unknown }): Promise<Response>;
  login(username: string, password: string): Promise<Response>;
}

export function apiOf(base: string): Api {
  const call: Api['call'] = (path, opts = {}) =>
    fetch(`${base}/api${path}`, {
      method: opts.method ?? 'GET',
      headers: { ...(opts.token ? { 'X-Auth': opts.token } : {}), ...(opts.json !== undefined ? { 'Content-Type': 'application/json' } : {}) },
      body: opts.json === undefined ? undefined : JSON.stringify(opts.json),
    });
  return { base, call, login: (username, password) => call('/login', { method: 'POST', json: { username, password } }) };
}

/** A token of a user without a second factor (a plain password login). */
export async function tokenOf(api: Api, username: string, password: string): Promise<string> {
  const res = await api.login(username, password);
  expect(res.status).toBe(200);
  return res.text();
}

/** Creates a user through the one creation path (the admin's API), answering its id. */
export async function createUser(api: Api, adminToken: string, adminPassword: string, data: Record<string, unknown>): Promise<number> {
  const res = await api.call('/users', { method: 'POST', token: adminToken, json: { what: 'user', which: [], current_password: adminPassword, data } });
  expect(res.status).toBe(201);
  return Number(res.headers.get('Location')!.split('/').pop());
}

/** The six digits an authenticator app shows for `secret`, `steps` periods from now (RFC 6238, SHA-1, 30 s). */
export function totpCode(secret: string, steps = 0): string {
  const totp = new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) });
  return totp.generate({ timestamp: Date.now() + steps * 30_000 });
}

/** Turns TOTP on for the token's user as the Security page does; answers the secret and the ten recovery codes. */
export async function enrolTotp(api: Api, token: string): Promise<{ secret: string; recoveryCodes: string[] }> {
  const start = await api.call('/account/totp', { method: 'POST', token });
  expect(start.status).toBe(200);
  const { secret } = (await start.json()) as TotpEnrolment;
  const done = await api.call('/account/totp/confirm', { method: 'POST', token, json: { code: totpCode(secret) } });
  expect(done.status).toBe(200);
  const { recoveryCodes } = (await done.json()) as { recoveryCodes: string[] };
  expect(recoveryCodes).toHaveLength(10);
  return { secret, recoveryCodes };
}

/** Screenshots at 1280 and 375 px, light and dark (the page's theme attribute, as the other e2e tests switch it). */
export async function shotsAround(page: Page, name: string): Promise<void> {
  const size = page.viewportSize() ?? { width: 1280, height: 800 };
  for (const theme of ['light', 'dark']) {
    await page.evaluate((t) => (document.documentElement.dataset.theme = t), theme);
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: 800 });
      await shot(page, `${name}-${theme}-${width}`);
    }
  }
  await page.evaluate(() => (document.documentElement.dataset.theme = 'light'));
  await page.setViewportSize(size);
}
