import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import type { SecondFactorStep } from '../../server/contract/accounts';
import { startServer, type RunningServer } from '../helpers/binary';
import { apiOf, createUser, enrolTotp, shotsAround, tokenOf, totpCode, type Api } from './account-fixture';
import { expectAccessible } from './axe';
import { launch, loginThroughForm, newPage, workspace } from './browser';

// The login page's second step in Chromium: a password then a TOTP code computed here, a recovery code (once),
// enrolment when an admin requires a second factor, and the wrong-code message.
const ws = workspace('filedeck-e2e-2fa-');
const ADMIN_PW = 'e2e-2fa-admin-password-4410';
const BOB_PW = 'bob-2fa-password-4411';
const CAROL_PW = 'carol-2fa-password-4412';
let server: RunningServer;
let browser: Browser;
let api: Api;
let bob: { secret: string; recoveryCodes: string[] };
let carolId = 0;

beforeAll(async () => {
  mkdirSync(ws.root, { recursive: true });
  server = await startServer(['-d', ws.db, '-r', ws.root, '--password', ADMIN_PW, '--log', ''], { cwd: ws.dir });
  api = apiOf(server.url);
  const admin = await tokenOf(api, 'admin', ADMIN_PW);
  await createUser(api, admin, ADMIN_PW, { username: 'bob', password: BOB_PW, scope: '/', perm: { download: true } });
  carolId = await createUser(api, admin, ADMIN_PW, { username: 'carol', password: CAROL_PW, scope: '/', perm: { download: true } });
  bob = await enrolTotp(api, await tokenOf(api, 'bob', BOB_PW));
  expect((await api.call(`/users/${carolId}/factors`, { method: 'PUT', token: admin, json: { required: true } })).status).toBe(204);
  browser = await launch();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function openLogin(): Promise<{ page: Page; close: () => Promise<void> }> {
  const { context, page } = await newPage(browser);
  await page.goto(`${server.url}/login`);
  return { page, close: () => context.close() };
}

/** The session the app stored: the same token handling as a password-only login. */
const storedToken = (page: Page) => page.evaluate(() => Object.values(localStorage).find((v) => /^ey/.test(v)) ?? '');

describe('login with a second factor', () => {
  test('the API answers the step as JSON for an account with TOTP', async () => {
    const res = await api.login('bob', BOB_PW);
    expect(res.status).toBe(401);
    const step = (await res.json()) as SecondFactorStep;
    expect(step.step).toBe('second-factor');
    expect(step.methods).toContain('totp');
    expect(step.methods).toContain('recovery');
  });

  test('password, then a wrong code (message), then the right TOTP code signs in', async () => {
    const { page, close } = await openLogin();
    await loginThroughForm(page, 'bob', BOB_PW);
    const code = page.locator('input[name=one-time-code]');
    await code.waitFor();
    expect(await code.getAttribute('autocomplete')).toBe('one-time-code');
    expect(await code.getAttribute('inputmode')).toBe('numeric');
    await shotsAround(page, 'login-second-step');
    await expectAccessible(page, 'login second step');

    await code.fill(totpCode(bob.secret) === '000000' ? '111111' : '000000');
    await page.click('[data-testid=second-step-submit]');
    await page.waitForSelector('[data-testid=login-flow-error][data-message=wrongCode]');

    // One step ahead: the enrolment accepted the current one, and a used step is never taken again.
    await code.fill(totpCode(bob.secret, 1));
    await page.click('[data-testid=second-step-submit]');
    await page.waitForURL(`${server.url}/files/`);
    expect(await storedToken(page)).not.toBe('');
    await close();
  }, 60_000);

  test('a recovery code signs in once; the same code again is refused', async () => {
    for (const attempt of [0, 1]) {
      const { page, close } = await openLogin();
      await loginThroughForm(page, 'bob', BOB_PW);
      await page.click('[data-testid=second-step-recovery]');
      await page.fill('input[name=recovery-code]', bob.recoveryCodes[0]!);
      await page.click('[data-testid=second-step-submit]');
      if (attempt === 0) await page.waitForURL(`${server.url}/files/`);
      else await page.waitForSelector('[data-testid=login-flow-error][data-message=wrongCode]');
      await close();
    }
  }, 60_000);

  test('"back" returns to the form', async () => {
    const { page, close } = await openLogin();
    await loginThroughForm(page, 'bob', BOB_PW);
    await page.click('[data-testid=second-step-back]');
    await page.waitForSelector('input[name=username]');
    await close();
  });

  test('a user required to have a second factor enrols with the QR secret and a confirming code', async () => {
    const { page, close } = await openLogin();
    await loginThroughForm(page, 'carol', CAROL_PW);
    await page.waitForSelector('[data-testid=totp-qr]');
    const secret = (await page.getAttribute('[data-testid=totp-secret]', 'data-secret'))!;
    expect(secret).toMatch(/^[A-Z2-7]+=*$/);
    await shotsAround(page, 'login-enrol');
    await expectAccessible(page, 'login enrolment');
    await page.fill('input[name=one-time-code]', totpCode(secret));
    await page.click('[data-testid=second-step-submit]');
    // The ten recovery codes made by the enrolment are shown once, before the session begins.
    await page.waitForSelector('[data-testid=recovery-codes-list]');
    expect(await page.locator('[data-testid=recovery-codes-list] li').count()).toBe(10);
    await shotsAround(page, 'login-enrol-recovery');
    await expectAccessible(page, 'login recovery codes');
    await page.click('[data-testid=recovery-codes-done]');
    await page.waitForURL(`${server.url}/files/`);
    await close();
    // From now on carol has TOTP: the next login asks for a code, not an enrolment.
    const step = (await (await api.login('carol', CAROL_PW)).json()) as SecondFactorStep;
    expect(step.step).toBe('second-factor');
  }, 60_000);

  test('wrong codes again and again end the step with "too many attempts"', async () => {
    const admin = await tokenOf(api, 'admin', ADMIN_PW);
    await createUser(api, admin, ADMIN_PW, { username: 'eve', password: BOB_PW, scope: '/', perm: { download: true } });
    const eve = await enrolTotp(api, await tokenOf(api, 'eve', BOB_PW));
    const { page, close } = await openLogin();
    await loginThroughForm(page, 'eve', BOB_PW);
    const wrong = totpCode(eve.secret) === '123456' ? '654321' : '123456';
    let seen = '';
    for (let i = 0; i < 8 && seen !== 'tooMany'; i++) {
      await page.fill('input[name=one-time-code]', wrong);
      const answered = page.waitForResponse((r) => r.url().endsWith('/api/login/second-factor'));
      await page.click('[data-testid=second-step-submit]');
      await answered;
      await page.waitForSelector('[data-testid=login-flow-error]');
      seen = (await page.getAttribute('[data-testid=login-flow-error]', 'data-message')) ?? '';
      if (await page.locator('input[name=password]').count()) break;
    }
    // However the server ends it (429, or the spent ticket's 401), it reads as too many tries.
    expect(seen).toBe('tooMany');
    await shotsAround(page, 'login-too-many');
    await close();
  }, 60_000);

  test('the second step in a right-to-left language', async () => {
    const { context, page } = await newPage(browser, { locale: 'ar' });
    await page.goto(`${server.url}/login`);
    await loginThroughForm(page, 'bob', BOB_PW);
    await page.waitForSelector('input[name=one-time-code]');
    expect(await page.evaluate(() => document.documentElement.dir)).toBe('rtl');
    await shotsAround(page, 'login-second-step-ar');
    await context.close();
  }, 60_000);
});

