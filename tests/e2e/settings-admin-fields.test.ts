import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { Page } from 'playwright-core';
import { expectAccessible } from './axe';
import { closeSession, newPage, openSession, shot, workspace, type Session } from './browser';

// Admin fields in Chromium: the audit retention of Settings → Global (checked as the server checks it), and a
// user's own trash settings in Settings → Users (set, reloaded, cleared back to the global settings).
const ws = workspace('filedeck-admin-fields-');
const PW = 'admin-fields-password-552';
const CAROL_PW = 'carol-long-password-1';
const MB = 1024 * 1024;
let session: Session | undefined;
let base = '';
let token = '';
let carolId = 0;

const api = (path: string, init: RequestInit = {}, auth = token) => fetch(`${base}/api${path}`, { ...init, headers: { 'X-Auth': auth } });
const login = async (username: string, password: string) => (await fetch(`${base}/api/login`, { method: 'POST', body: JSON.stringify({ username, password }) })).text();
const settings = async () => (await (await api('/settings')).json()) as { auditRetentionDays: number; trash: Record<string, unknown> };
const carol = async () => (await (await api(`/users/${carolId}`)).json()) as { trash?: Record<string, unknown> | null };
/** The trash settings that apply to carol, as the server answers her. */
const carolTrash = async () => ((await (await api('/trash', {}, await login('carol', CAROL_PW))).json()) as { settings: Record<string, unknown> }).settings;

beforeAll(async () => {
  session = await openSession(ws, PW);
  base = session.server.url;
  token = await login('admin', PW);
  const res = await api('/users', { method: 'POST', body: JSON.stringify({ what: 'user', which: [], current_password: PW, data: { username: 'carol', password: CAROL_PW, scope: '.' } }) });
  expect(res.status).toBe(201);
  carolId = ((await (await api('/users')).json()) as { id: number; username: string }[]).find((u) => u.username === 'carol')!.id;
});
afterAll(() => closeSession(ws, session));

async function saveGlobal(page: Page): Promise<string> {
  const notice = page.waitForSelector('[data-testid^=notice-]');
  await page.click('[data-testid=global-save]');
  const text = (await (await notice).textContent()) ?? '';
  await page.waitForSelector('[data-testid=notice-success]', { state: 'detached' }); // success notices go after a second
  return text;
}

async function saveUser(page: Page): Promise<string> {
  await page.click('[data-testid=user-save]');
  await page.fill('[data-testid=confirm-dialog] input[name=current-password]', PW);
  const notice = page.waitForSelector('[data-testid^=notice-]');
  await page.click('[data-testid=confirm-ok]');
  const text = (await (await notice).textContent()) ?? '';
  await page.waitForSelector('[data-testid=confirm-dialog]', { state: 'detached' });
  await page.waitForSelector('[data-testid=notice-success]', { state: 'detached' }); // success notices go after a second
  return text;
}

describe('Settings → Global: audit retention', () => {
  test('out-of-range or fractional days are refused in the form; a valid value is saved and read back', async () => {
    const { page } = session!;
    await page.goto(`${base}/settings/global`);
    const field = page.locator('input[name=auditRetentionDays]');
    await field.waitFor();
    expect(await field.inputValue()).toBe('90');
    expect((await settings()).auditRetentionDays).toBe(90);

    for (const bad of ['0', '36501', '2.5', '']) {
      await field.fill(bad);
      expect(await page.textContent('[data-testid=auditRetentionDays-error]')).toBe('Enter a whole number from 1 to 36,500.');
      expect(await field.getAttribute('aria-invalid')).toBe('true');
      expect(await field.evaluate((el: HTMLInputElement) => el.validity.valid)).toBe(false);
      await page.click('[data-testid=global-save]'); // the browser refuses to submit: nothing is sent
      await page.waitForTimeout(200);
      expect(await page.locator('[data-testid^=notice-]').count()).toBe(0);
    }
    expect((await settings()).auditRetentionDays).toBe(90);
    await field.scrollIntoViewIfNeeded();
    await shot(page, 'settings-audit-retention-invalid', { fullPage: false });

    await field.fill('365');
    expect(await page.locator('[data-testid=auditRetentionDays-error]').count()).toBe(0);
    expect(await saveGlobal(page)).toBe('Settings updated!');
    expect((await settings()).auditRetentionDays).toBe(365);
    await page.reload();
    await field.waitFor();
    expect(await field.inputValue()).toBe('365');

    // the highest value the server takes is taken here too
    await field.fill('36500');
    expect(await saveGlobal(page)).toBe('Settings updated!');
    expect((await settings()).auditRetentionDays).toBe(36500);
  });
});

describe('Settings → Users: a user\'s own trash settings', () => {
  test('set for a user, kept over a reload, answered by GET /api/users/{id}; cleared, the global settings apply', async () => {
    const { page } = session!;
    const global = (await settings()).trash;
    expect(global).toEqual({ enabled: true, retentionDays: 30, maxBytes: 0 });
    await page.goto(`${base}/settings/users/${carolId}`);
    const tick = page.locator('input[name=trashOverride]');
    await tick.waitFor();
    expect(await tick.isChecked()).toBe(false);
    expect(await page.locator('[data-testid=user-trash] input[name=trashRetentionDays]').count()).toBe(0);

    // ticked, the fields start from the global settings
    await tick.check();
    const days = page.locator('[data-testid=user-trash] input[name=trashRetentionDays]');
    const megabytes = page.locator('[data-testid=user-trash] input[name=trashMaxMegabytes]');
    expect(await days.inputValue()).toBe('30');
    expect(await megabytes.inputValue()).toBe('0');
    expect(await page.isChecked('[data-testid=user-trash] input[name=trashEnabled]')).toBe(true);
    await days.fill('7');
    await megabytes.fill('5');
    await page.uncheck('[data-testid=user-trash] input[name=trashEnabled]');
    await shot(page, 'settings-user-trash-override');
    expect(await saveUser(page)).toBe('User updated!');

    const set = { enabled: false, retentionDays: 7, maxBytes: 5 * MB };
    expect((await carol()).trash).toEqual(set);
    expect(await carolTrash()).toEqual(set);
    await page.reload();
    await tick.waitFor();
    expect(await tick.isChecked()).toBe(true);
    expect(await days.inputValue()).toBe('7');
    expect(await megabytes.inputValue()).toBe('5');
    expect(await page.isChecked('[data-testid=user-trash] input[name=trashEnabled]')).toBe(false);

    // cleared: no override is stored, and carol is back on the global settings
    await tick.uncheck();
    expect(await days.count()).toBe(0);
    expect(await saveUser(page)).toBe('User updated!');
    expect((await carol()).trash ?? null).toBeNull();
    expect(await carolTrash()).toEqual(global);
    await page.reload();
    await tick.waitFor();
    expect(await tick.isChecked()).toBe(false);
  });

  test('phone width, dark, Arabic: the override and the retention field fit the screen', async () => {
    const lngs = [['ar', 'dark', 375], ['en', 'light', 375], ['ar', 'light', 1280]] as const;
    const put = await api(`/users/${carolId}`, { method: 'PUT', body: JSON.stringify({ what: 'user', which: ['trash'], current_password: PW, data: { id: carolId, trash: { retentionDays: 3 } } }) });
    expect(put.status).toBeLessThan(300);
    for (const [lng, scheme, width] of lngs) {
      const res = await api('/users/1', { method: 'PUT', body: JSON.stringify({ what: 'user', which: ['locale'], data: { id: 1, locale: lng } }) });
      expect(res.status).toBeLessThan(300);
      const { context, page } = await newPage(session!.browser, { width, height: 900 });
      try {
        await page.emulateMedia({ colorScheme: scheme });
        await page.goto(`${base}/login`);
        await page.fill('input[name=username]', 'admin');
        await page.fill('input[name=password]', PW);
        await page.click('button[type=submit]');
        await page.waitForURL(`${base}/files/`);
        await page.goto(`${base}/settings/users/${carolId}`);
        await page.waitForSelector('[data-testid=user-trash] input[name=trashRetentionDays]');
        expect(await page.getAttribute('html', 'dir')).toBe(lng === 'ar' ? 'rtl' : 'ltr');
        expect(await page.inputValue('[data-testid=user-trash] input[name=trashRetentionDays]')).toBe('3');
        expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
        await shot(page, `settings-user-trash-${lng}-${scheme}-${width}`);
        await expectAccessible(page, `user form with a trash override, ${lng} ${scheme} ${width}`);
        await page.goto(`${base}/settings/global`);
        await page.waitForSelector('input[name=auditRetentionDays]');
        expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
        await page.locator('input[name=auditRetentionDays]').fill('0'); // the message shown beside the field
        await page.locator('input[name=auditRetentionDays]').scrollIntoViewIfNeeded();
        await shot(page, `settings-audit-retention-${lng}-${scheme}-${width}`, { fullPage: false });
        await expectAccessible(page, `global settings, retention refused, ${lng} ${scheme} ${width}`);
      } finally {
        await context.close();
      }
    }
  });
});
