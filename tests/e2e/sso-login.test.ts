import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { startServer, type RunningServer } from '../helpers/binary';
import { apiOf, shotsAround, tokenOf, type Api } from './account-fixture';

import { expectAccessible } from './axe';
import { launch, loginAs, newPage, SCREENSHOTS, shot, workspace } from './browser';

// The login page with single sign-on configured: the "Sign in with {name}" button and where it goes, the message
// of a refused sign-on, and the page without the local form. The OpenID Connect flow itself is tested by the API
// tests against a real provider.
const ws = workspace('filedeck-e2e-sso-');
const ADMIN_PW = 'e2e-sso-admin-password-7710';
let server: RunningServer;
let browser: Browser;
let api: Api;
let admin = '';

async function putSettings(patch: Record<string, unknown>): Promise<void> {
  const current = (await (await api.call('/settings', { token: admin })).json()) as Record<string, unknown>;
  const { authMethod: _m, authHeader: _h, ...rest } = current;
  const res = await api.call('/settings', { method: 'PUT', token: admin, json: { ...rest, ...patch } });
  expect(res.status).toBeLessThan(300);
}

beforeAll(async () => {
  mkdirSync(ws.root, { recursive: true });
  server = await startServer(['-d', ws.db, '-r', ws.root, '--password', ADMIN_PW, '--log', ''], { cwd: ws.dir });
  api = apiOf(server.url);
  admin = await tokenOf(api, 'admin', ADMIN_PW);
  const current = (await (await api.call('/settings', { token: admin })).json()) as { oidc: Record<string, unknown> };
  await putSettings({ oidc: { ...current.oidc, enabled: true, name: 'Acme ID', issuer: 'http://127.0.0.1:9/realm', clientId: 'filedeck', clientSecret: 'not-shown-anywhere' } });
  browser = await launch();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function open(path: string, locale = 'en-US'): Promise<{ page: Page; close: () => Promise<void> }> {
  const { context, page } = await newPage(browser, { locale });
  await page.goto(`${server.url}${path}`);
  await page.waitForSelector('[data-testid=sso-oidc]');
  return { page, close: () => context.close() };
}

describe('login page with single sign-on', () => {
  test('"Sign in with Acme ID" goes to the provider start, carrying where to come back to', async () => {
    const { page, close } = await open(`/login?redirect=${encodeURIComponent('/files/docs/')}`);
    expect(await page.textContent('[data-testid=sso-oidc]')).toContain('Sign in with Acme ID');
    const href = (await page.getAttribute('[data-testid=sso-oidc]', 'href'))!;
    expect(href).toBe(`/api/auth/oidc/login?redirect=${encodeURIComponent('/files/docs/')}`);
    expect(await page.locator('input[name=password]').count()).toBe(1);
    await shotsAround(page, 'login-sso');
    await expectAccessible(page, 'login page with SSO');
    await close();
  }, 60_000);

  test('the client secret is never in the page nor in the settings answer', async () => {
    const { page, close } = await open('/login');
    expect(await page.content()).not.toContain('not-shown-anywhere');
    await close();
    const body = await (await api.call('/settings', { token: admin })).text();
    expect(body).not.toContain('not-shown-anywhere');
    expect(JSON.parse(body).oidc.clientSecretSet).toBe(true);
  });

  test('?ssoError= shows a clear message and leaves the address clean', async () => {
    const { page, close } = await open('/login?ssoError=not_allowed');
    await page.waitForSelector('[data-testid=login-flow-error][data-message=ssoNotAllowed]');
    expect(page.url()).toBe(`${server.url}/login`);
    await close();
  });

  test('a spent or unknown ?sso= code reads as a failed sign-on', async () => {
    const { page, close } = await open('/login?sso=not-a-real-code');
    await page.waitForSelector('[data-testid=login-flow-error][data-message=ssoFailed]');
    await close();
  });

  test('with local login off only the provider button (and passkeys) remain', async () => {
    await putSettings({ localLogin: false });
    const { page, close } = await open('/login');
    expect(await page.locator('input[name=password]').count()).toBe(0);
    await shotsAround(page, 'login-sso-only');
    await expectAccessible(page, 'login page, SSO only');
    await close();
    await putSettings({ localLogin: true });
  }, 60_000);

  test("the admin's Sign-in settings: the secret shown only as set, LDAP fields saved, group grants", async () => {
    const { context, page } = await newPage(browser);
    await loginAs(page, server.url, 'admin', ADMIN_PW);
    await page.goto(`${server.url}/settings/global`);
    await page.waitForSelector('[data-testid=sign-in-form]');
    await page.waitForSelector('[data-testid=oidc-clientSecret-set]');
    expect(await page.inputValue('input[name=oidc-clientSecret]')).toBe('');
    expect(await page.inputValue('input[name=oidc-name]')).toBe('Acme ID');
    await page.check('input[name=ldap-enabled]');
    await page.fill('input[name=ldap-url]', 'ldap://127.0.0.1:3899');
    await page.fill('input[name=ldap-userBase]', 'ou=people,dc=example,dc=org');
    await page.click('[data-testid=ldap-grant-add]');
    await page.fill('input[name=ldap-grant-group-0]', 'staff');
    await page.check('input[name=ldap-grant-create-0]');
    await page.click('[data-testid=sign-in-save]');
    await page.waitForSelector('.notice', { state: 'detached' });
    const saved = (await (await api.call('/settings', { token: admin })).json()) as { ldap: { enabled: boolean; url: string; groupGrants: { group: string; perm: string[] }[] }; oidc: { clientSecretSet: boolean } };
    expect(saved.ldap.enabled).toBe(true);
    expect(saved.ldap.url).toBe('ldap://127.0.0.1:3899');
    expect(saved.ldap.groupGrants.map((g) => [g.group, g.perm])).toEqual([['staff', ['create']]]);
    expect(saved.oidc.clientSecretSet).toBe(true);
    await shot(page, 'settings-sign-in');
    // The card alone, readable at a glance (the whole settings page is several screens tall).
    await page.locator('[data-testid=sign-in-form]').screenshot({ path: join(SCREENSHOTS, 'settings-sign-in-card.png') });
    await expectAccessible(page, 'global settings with the Sign-in card', { include: '[data-testid=sign-in-form]' });
    await context.close();
  }, 60_000);

  test('right to left', async () => {
    const { page, close } = await open('/login', 'fa');
    expect(await page.evaluate(() => document.documentElement.dir)).toBe('rtl');
    await shotsAround(page, 'login-sso-fa');
    await close();
  }, 60_000);
});
