import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdirSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { FactorStatus, SecondFactorStep } from '../../server/contract/accounts';
import { startServer, type RunningServer } from '../helpers/binary';
import { apiOf, createUser, tokenOf, type Api } from './account-fixture';
import { expectAccessible } from './axe';
import { launch, loginThroughForm, newPage, shot, workspace } from './browser';

// Passkeys in Chromium with a virtual authenticator (DevTools' WebAuthn domain): registered on the Security page,
// then used as the second step after a password, and alone (passwordless). WebAuthn needs a host name, not an IP
// address: the page is opened at http://localhost:<port> (a secure context like https).
const ws = workspace('filedeck-e2e-passkeys-');
const ADMIN_PW = 'e2e-passkeys-admin-password-6610';
const FRANK_PW = 'frank-passkeys-password-6611';
let server: RunningServer;
let browser: Browser;
let api: Api;
let base = '';
let context: BrowserContext;
let page: Page;
let frankId = 0;
let admin = '';

beforeAll(async () => {
  mkdirSync(ws.root, { recursive: true });
  server = await startServer(['-d', ws.db, '-r', ws.root, '--password', ADMIN_PW, '--log', ''], { cwd: ws.dir });
  api = apiOf(server.url);
  base = server.url.replace('127.0.0.1', 'localhost');
  admin = await tokenOf(api, 'admin', ADMIN_PW);
  frankId = await createUser(api, admin, ADMIN_PW, { username: 'frank', password: FRANK_PW, scope: '/', perm: { download: true } });
  browser = await launch();
  ({ context, page } = await newPage(browser));
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
  });
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function signOut(): Promise<void> {
  await page.click('[data-testid=logout]');
  await page.waitForURL(/\/login/);
}

describe('passkeys', () => {
  test('registered on the Security page under a name, then renamed', async () => {
    await page.goto(`${base}/login`);
    await loginThroughForm(page, 'frank', FRANK_PW);
    await page.waitForURL(`${base}/files/`);
    await page.goto(`${base}/settings/security`);
    await page.fill('input[name=passkey-name]', 'Test laptop');
    await page.click('[data-testid=passkey-add]');
    await page.waitForSelector('[data-testid=passkey-row][data-name="Test laptop"]');
    await page.click('[data-testid=passkey-rename]');
    await page.fill('[data-testid=passkey-rename-input]', 'Work laptop');
    await page.click('[data-testid=passkey-rename-save]');
    await page.waitForSelector('[data-testid=passkey-row][data-name="Work laptop"]');
    await page.waitForSelector('.notice', { state: 'detached' });
    await shot(page, 'security-passkeys');
    await expectAccessible(page, 'security page with a passkey');
    const factors = (await (await api.call(`/users/${frankId}/factors`, { token: admin })).json()) as FactorStatus;
    expect(factors.passkeys.map((p) => p.name)).toEqual(['Work laptop']);
  }, 60_000);

  test('used as the second step after the password', async () => {
    const step = (await (await api.login('frank', FRANK_PW)).json()) as SecondFactorStep;
    expect(step.methods).toContain('passkey');
    await signOut();
    await loginThroughForm(page, 'frank', FRANK_PW);
    await page.click('[data-testid=second-step-passkey]');
    await page.waitForURL(`${base}/files/`);
  }, 60_000);

  test('used alone, without a password (a discoverable passkey)', async () => {
    await signOut();
    await page.click('[data-testid=passkey-login]');
    await page.waitForURL(`${base}/files/`);
    // The page's session is a passkey session, as the Security page shows it.
    await page.goto(`${base}/settings/security`);
    await page.waitForSelector('[data-testid=session-row][data-current]');
    expect(await page.textContent('[data-testid=session-row][data-current]')).toContain('Passkey');
  }, 60_000);

  test('removed: the Security page lists none and the password alone signs in again', async () => {
    await page.goto(`${base}/settings/security`);
    await page.click('[data-testid=passkey-row] [data-testid=passkey-remove]');
    await page.click('[data-testid=confirm-ok]');
    await page.waitForSelector('[data-testid=passkeys-empty]');
    expect((await api.login('frank', FRANK_PW)).status).toBe(200);
  }, 60_000);
});
