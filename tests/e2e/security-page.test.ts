import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { FactorStatus } from '../../server/contract/accounts';
import { startServer, type RunningServer } from '../helpers/binary';
import { apiOf, createUser, shotsAround, tokenOf, totpCode, type Api } from './account-fixture';
import { expectAccessible } from './axe';
import { launch, loginAs, newPage, workspace } from './browser';

// The Security page in Chromium: sessions (end one, the current one marked), API tokens (the secret shown once,
// accepted, revoked), two-factor set-up with recovery codes; and the admin's view of a user's sign-in.
const ws = workspace('filedeck-e2e-security-');
const ADMIN_PW = 'e2e-security-admin-password-5510';
const DAN_PW = 'dan-security-password-5511';
let server: RunningServer;
let browser: Browser;
let api: Api;
let page: Page;
let danId = 0;
let admin = '';

beforeAll(async () => {
  mkdirSync(join(ws.root, 'docs'), { recursive: true });
  writeFileSync(join(ws.root, 'docs', 'a.txt'), 'a');
  server = await startServer(['-d', ws.db, '-r', ws.root, '--password', ADMIN_PW, '--log', ''], { cwd: ws.dir });
  api = apiOf(server.url);
  admin = await tokenOf(api, 'admin', ADMIN_PW);
  danId = await createUser(api, admin, ADMIN_PW, { username: 'dan', password: DAN_PW, scope: '/', perm: { create: true, download: true } });
  browser = await launch();
  ({ page } = await newPage(browser));
  await loginAs(page, server.url, 'dan', DAN_PW);
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function openSecurity(): Promise<void> {
  await page.goto(`${server.url}/settings/security`);
  await page.waitForSelector('[data-testid=sessions-table]');
}

describe('security page', () => {
  test('is linked from the settings navigation next to Profile', async () => {
    await page.goto(`${server.url}/settings/profile`);
    await page.waitForSelector('[data-testid=tab-security]');
    const tabs = await page.$$eval('[data-testid=settings-nav] a', (as) => as.map((a) => a.getAttribute('data-testid')));
    expect(tabs.slice(0, 2)).toEqual(['tab-profile', 'tab-security']);
    await page.click('[data-testid=tab-security]');
    await page.waitForSelector('[data-testid=sessions-table]');
  });

  test('sessions: this device is marked; another one is ended from the page', async () => {
    const other = await tokenOf(api, 'dan', DAN_PW);
    expect((await api.call('/resources/', { token: other })).status).toBe(200);
    await openSecurity();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=session-row]').length === 2);
    expect(await page.locator('[data-testid=session-row][data-current] [data-testid=session-current]').count()).toBe(1);
    await shotsAround(page, 'security-page');
    await expectAccessible(page, 'security page');
    await page.click('[data-testid=session-row]:not([data-current]) [data-testid=session-end]');
    await page.click('[data-testid=confirm-ok]');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=session-row]').length === 1);
    expect((await api.call('/resources/', { token: other })).status).toBe(401);
  }, 60_000);

  test('an API token: created with limits, its secret shown once and accepted, then revoked', async () => {
    await openSecurity();
    await page.click('[data-testid=token-new]');
    await page.fill('input[name=token-name]', 'backup script');
    await page.fill('input[name=token-days]', '7');
    await page.uncheck('input[name=token-perm-create]');
    await page.fill('input[name=token-path]', '/docs');
    await page.check('input[name=token-read-only]');
    await page.click('[data-testid=token-create]');
    const secret = (await page.textContent('[data-testid=token-secret-value]'))!;
    expect(secret).toMatch(/^fdt_/);
    await page.waitForSelector('.notice', { state: 'detached' });
    await shotsAround(page, 'security-token-created');
    await expectAccessible(page, 'security page, token created');

    const basic = `Basic ${btoa(`dan:${secret}`)}`;
    expect((await fetch(`${server.url}/api/resources/docs/`, { headers: { Authorization: `Bearer ${secret}` } })).status).toBe(200);
    expect((await fetch(`${server.url}/api/resources/docs/`, { headers: { Authorization: basic } })).status).toBe(200);
    // Read-only: nothing is written, inside its folder or elsewhere.
    for (const where of ['docs/new.txt', 'new.txt']) {
      expect((await fetch(`${server.url}/api/resources/${where}`, { method: 'POST', headers: { Authorization: `Bearer ${secret}` }, body: 'x' })).status).toBe(403);
    }

    await page.click('[data-testid=token-secret-done]');
    await page.reload();
    await page.waitForSelector('[data-testid=token-row][data-name="backup script"]');
    expect(await page.locator('[data-testid=token-secret]').count()).toBe(0);
    expect(await page.content()).not.toContain(secret);

    await page.click('[data-testid=token-row][data-name="backup script"] [data-testid=token-revoke]');
    await page.click('[data-testid=confirm-ok]');
    await page.waitForSelector('[data-testid=tokens-empty]');
    expect((await fetch(`${server.url}/api/resources/docs/`, { headers: { Authorization: `Bearer ${secret}` } })).status).toBe(401);
  }, 60_000);

  test('two-factor set-up: QR and secret, a confirming code, ten recovery codes shown once', async () => {
    await openSecurity();
    await page.click('[data-testid=totp-start]');
    await page.waitForSelector('[data-testid=totp-qr]');
    const secret = (await page.getAttribute('[data-testid=totp-secret]', 'data-secret'))!;
    await page.fill('[data-testid=totp-confirm-form] input[name=one-time-code]', totpCode(secret));
    await page.click('[data-testid=totp-confirm-submit]');
    await page.waitForSelector('[data-testid=recovery-codes-list]');
    expect(await page.locator('[data-testid=recovery-codes-list] li').count()).toBe(10);
    expect(await page.getAttribute('[data-testid=totp-status]', 'data-on')).toBe('true');
    await page.waitForSelector('.notice', { state: 'detached' });
    await shotsAround(page, 'security-recovery-codes');
    const download = page.waitForEvent('download');
    await page.click('[data-testid=recovery-codes-download]');
    expect((await download).suggestedFilename()).toMatch(/recovery-codes\.txt$/);
    await page.click('[data-testid=recovery-codes-done]');
    expect(await page.locator('[data-testid=recovery-codes-list]').count()).toBe(0);
  }, 60_000);

  test("the admin sees dan's sign-in on the user screen and resets his second factors", async () => {
    const { context, page: adminPage } = await newPage(browser);
    await loginAs(adminPage, server.url, 'admin', ADMIN_PW);
    await adminPage.goto(`${server.url}/settings/users/${danId}`);
    await adminPage.waitForSelector('[data-testid=user-access]');
    expect(await adminPage.textContent('[data-testid=user-factors]')).not.toBe('');
    await adminPage.click('[data-testid=user-factors-reset]');
    await adminPage.click('[data-testid=confirm-ok]');
    await adminPage.waitForSelector('[data-testid=user-factors-reset]:disabled');
    const factors = (await (await api.call(`/users/${danId}/factors`, { token: admin })).json()) as FactorStatus;
    expect(factors.totp).toBe(false);
    await adminPage.waitForSelector('.notice', { state: 'detached' });
    await expectAccessible(adminPage, 'user edit with sign-in card');
    await shotsAround(adminPage, 'user-edit-sign-in');
    await context.close();
  }, 60_000);

  test('the Security page in a right-to-left language', async () => {
    await createUser(api, admin, ADMIN_PW, { username: 'erin', password: DAN_PW, scope: '/', locale: 'he', perm: { download: true } });
    const { context, page: rtl } = await newPage(browser, { locale: 'he' });
    await loginAs(rtl, server.url, 'erin', DAN_PW);
    await rtl.goto(`${server.url}/settings/security`);
    await rtl.waitForSelector('[data-testid=sessions-table]');
    expect(await rtl.evaluate(() => document.documentElement.dir)).toBe('rtl');
    await shotsAround(rtl, 'security-page-he');
    await context.close();
  }, 60_000);
});
