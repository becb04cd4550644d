import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { startServer, type RunningServer } from '../helpers/binary';
import { launch, loginThroughForm, newPage, shot } from './browser';

// Profile preferences, the password card, the shares page, the settings navigation and the error pages.
const dir = mkdtempSync(join(tmpdir(), 'filedeck-e2e-profile-'));
const db = join(dir, 'filedeck.db');
const root = join(dir, 'files');
const ADMIN_PW = 'e2e-admin-password-7310';
const ALICE_PW = 'alice-first-password-1';
const ALICE_NEW_PW = 'alice-second-password-2';
let server: RunningServer;
let browser: Browser;
let adminToken = '';
let aliceId = 0;

async function login(username: string, password: string): Promise<Response> {
  return fetch(`${server.url}/api/login`, { method: 'POST', body: JSON.stringify({ username, password }) });
}

async function createUser(data: Record<string, unknown>): Promise<number> {
  const res = await fetch(`${server.url}/api/users`, {
    method: 'POST', headers: { 'X-Auth': adminToken },
    body: JSON.stringify({ what: 'user', which: [], current_password: ADMIN_PW, data }),
  });
  expect(res.status).toBe(201);
  return Number(res.headers.get('Location')!.split('/').pop());
}

async function userOnServer(id: number): Promise<Record<string, unknown>> {
  return (await fetch(`${server.url}/api/users/${id}`, { headers: { 'X-Auth': adminToken } })).json() as Promise<Record<string, unknown>>;
}

beforeAll(async () => {
  mkdirSync(join(root, 'shared'), { recursive: true });
  writeFileSync(join(root, 'shared', 'a.txt'), 'a');
  writeFileSync(join(root, 'shared', 'b.txt'), 'b');
  server = await startServer(['-d', db, '-r', root, '--password', ADMIN_PW, '--log', ''], { cwd: dir });
  adminToken = await (await login('admin', ADMIN_PW)).text();
  aliceId = await createUser({ username: 'alice', password: ALICE_PW, scope: '/shared', perm: { share: true, download: true } });
  await createUser({ username: 'carol', password: 'carol-long-password-1', scope: '/shared', lockPassword: true, perm: { share: false } });
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function signIn(page: Page, username: string, password: string, to = '/settings'): Promise<void> {
  await page.goto(`${server.url}/login?redirect=${encodeURIComponent(to)}`);
  await loginThroughForm(page, username, password);
  await page.waitForURL((u) => !u.pathname.startsWith('/login'));
}

const tabs = (page: Page) => page.locator('[data-testid=settings-nav] a').evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')));
const fitsWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
const tokenUser = (page: Page) =>
  page.evaluate(() => JSON.parse(atob(localStorage.getItem('jwt')!.split('.')[1]!.replace(/-/g, '+').replace(/_/g, '/'))).user as Record<string, unknown>);

describe('profile settings', () => {
  test('a user saves preferences and switches to the dark theme, applied live and kept after a reload', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, 'alice', ALICE_PW);
    await page.waitForURL(`${server.url}/settings/profile`);
    await page.waitForSelector('[data-testid=profile-form]');
    expect(await tabs(page)).toEqual(['tab-profile', 'tab-security', 'tab-shares']); // no admin sections
    expect(await page.getAttribute('html', 'data-theme')).toBe('light');
    await shot(page, 'settings-profile');

    await page.selectOption('select[name=theme]', 'dark');
    await page.check('input[name=hideDotfiles]');
    const notice = page.waitForSelector('[data-testid=notice-success]');
    await page.click('[data-testid=profile-save]');
    expect(await (await notice).textContent()).toContain('Settings updated!');
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
    const saved = await userOnServer(aliceId);
    expect(saved.theme).toBe('dark');
    expect(saved.hideDotfiles).toBe(true);
    expect((await tokenUser(page)).theme).toBe('dark'); // the token was renewed with the fresh user
    await shot(page, 'settings-profile-dark');
    await page.reload();
    await page.waitForSelector('[data-testid=profile-form]');
    expect(await page.getAttribute('html', 'data-theme')).toBe('dark');
    expect(await page.isChecked('input[name=hideDotfiles]')).toBe(true);
    await page.selectOption('select[name=theme]', 'light');
    await page.click('[data-testid=profile-save]');
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'light');
    await context.close();
  });

  test('the language select lists every locale by its own name; switching to a right-to-left one reloads the page', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, 'alice', ALICE_PW, '/settings/profile');
    await page.waitForSelector('select[name=locale]');
    const options = await page.locator('select[name=locale] option').evaluateAll((els) => els.map((e) => [(e as HTMLOptionElement).value, e.textContent]));
    expect(options).toHaveLength(33);
    expect(options).toContainEqual(['de', 'Deutsch']);
    expect(options).toContainEqual(['he', 'עברית']);
    expect(options).toContainEqual(['zh-tw', '中文 (繁體)']);

    await page.selectOption('select[name=locale]', 'de');
    await page.evaluate(() => ((window as unknown as { marker: number }).marker = 1));
    await page.click('[data-testid=profile-save]');
    await page.waitForFunction(() => document.documentElement.lang === 'de');
    expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(1); // no reload between LTR locales
    expect((await userOnServer(aliceId)).locale).toBe('de');

    await page.selectOption('select[name=locale]', 'he');
    await page.click('[data-testid=profile-save]');
    await page.waitForFunction(() => document.documentElement.dir === 'rtl' && !(window as unknown as { marker?: number }).marker);
    await page.waitForSelector('[data-testid=profile-form]');
    expect(await page.evaluate(() => document.body.classList.contains('rtl'))).toBe(true);
    expect(await fitsWidth(page)).toBe(true);
    await shot(page, 'settings-profile-rtl');

    await page.selectOption('select[name=locale]', 'en');
    await page.click('[data-testid=profile-save]');
    await page.waitForFunction(() => document.documentElement.dir === 'ltr' && document.documentElement.lang === 'en');
    await context.close();
  });

  test('the password card sends nothing until both fields match, then the new password works', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, 'alice', ALICE_PW, '/settings/profile');
    await page.waitForSelector('[data-testid=password-form]');
    await page.fill('input[name=new-password]', ALICE_NEW_PW);
    await page.fill('input[name=new-password-confirm]', 'something different');
    await page.fill('[data-testid=password-form] input[name=current-password]', ALICE_PW);
    expect(await page.getAttribute('input[name=new-password-confirm]', 'class')).toContain('is-invalid');
    expect(await page.isDisabled('[data-testid=password-save]')).toBe(true);
    await page.press('input[name=new-password-confirm]', 'Enter'); // submitting anyway sends nothing
    await shot(page, 'settings-password-mismatch');
    expect((await login('alice', ALICE_PW)).status).toBe(200);

    await page.fill('input[name=new-password-confirm]', ALICE_NEW_PW);
    expect(await page.getAttribute('input[name=new-password-confirm]', 'class')).toContain('is-valid');
    const notice = page.waitForSelector('[data-testid=notice-success]');
    await page.click('[data-testid=password-save]');
    expect(await (await notice).textContent()).toContain('Password updated!');
    expect((await login('alice', ALICE_PW)).status).not.toBe(200);
    expect((await login('alice', ALICE_NEW_PW)).status).toBe(200);

    // the current session goes on; a fresh login through the form uses the new password
    await page.click('[data-testid=logout]');
    await page.waitForURL(/\/login/);
    await loginThroughForm(page, 'alice', ALICE_NEW_PW);
    await page.waitForURL(`${server.url}/files/`);
    await context.close();
  });

  test('a user with a locked password and no share permission sees neither the password card nor the shares page', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, 'carol', 'carol-long-password-1', '/settings/profile');
    await page.waitForSelector('[data-testid=profile-form]');
    expect(await page.locator('[data-testid=password-form]').count()).toBe(0);
    expect(await tabs(page)).toEqual(['tab-profile', 'tab-security']);
    await page.goto(`${server.url}/settings/shares`);
    await page.waitForURL(`${server.url}/403`);
    expect(await page.textContent('[data-testid=error-state]')).toContain("You don't have permissions to access this.");
    await context.close();
  });
});

describe('shares settings', () => {
  test('a user lists, copies and deletes their share links; an admin sees everyone\'s with the owner', async () => {
    const aliceToken = await (await login('alice', ALICE_NEW_PW)).text();
    const mk = async (path: string, body: object) =>
      (await (await fetch(`${server.url}/api/share${path}`, { method: 'POST', headers: { 'X-Auth': aliceToken }, body: JSON.stringify(body) })).json()) as { hash: string };
    const permanent = await mk('/a.txt', {});
    const timed = await mk('/b.txt', { expires: '2', unit: 'hours' });

    const { context, page } = await newPage(browser);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    await signIn(page, 'alice', ALICE_NEW_PW, '/settings/shares');
    await page.waitForSelector('[data-testid=share-row]');
    expect(await page.locator('[data-testid=share-row]').count()).toBe(2);
    expect(await page.locator('[data-testid=share-owner]').count()).toBe(0);
    const row = (hash: string) => page.locator(`[data-testid=share-row][data-hash="${hash}"]`);
    expect(await row(permanent.hash).textContent()).toContain('Permanent');
    expect(await row(timed.hash).textContent()).toContain('in 2 hours');
    expect(await row(permanent.hash).locator('a').getAttribute('href')).toBe('/files/a.txt');
    await shot(page, 'settings-shares');

    const copied = page.waitForSelector('[data-testid=notice-success]');
    await row(permanent.hash).locator('[data-testid=share-copy]').click();
    expect(await (await copied).textContent()).toContain('Link copied!');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${server.url}/share/${permanent.hash}`);

    await row(timed.hash).locator('[data-testid=share-delete]').click();
    await page.waitForSelector('[data-testid=confirm-dialog]');
    await page.click('[data-testid=confirm-cancel]');
    expect(await page.locator('[data-testid=share-row]').count()).toBe(2);
    await row(timed.hash).locator('[data-testid=share-delete]').click();
    await shot(page, 'settings-shares-delete');
    await page.click('[data-testid=confirm-ok]');
    await row(timed.hash).waitFor({ state: 'detached' });
    const left = (await (await fetch(`${server.url}/api/shares`, { headers: { 'X-Auth': aliceToken } })).json()) as { hash: string }[];
    expect(left.map((s) => s.hash)).toEqual([permanent.hash]);
    await context.close();

    // the admin sees alice's share with her name, and all four settings sections
    const admin = await newPage(browser);
    await signIn(admin.page, 'admin', ADMIN_PW, '/settings/shares');
    await admin.page.waitForSelector('[data-testid=share-owner]');
    expect(await admin.page.textContent('[data-testid=share-owner]')).toBe('alice');
    expect(await tabs(admin.page)).toEqual(['tab-profile', 'tab-security', 'tab-shares', 'tab-global', 'tab-users', 'tab-api', 'tab-audit']);
    await shot(admin.page, 'settings-shares-admin');
    await admin.page.click(`[data-hash="${permanent.hash}"] [data-testid=share-delete]`);
    await admin.page.click('[data-testid=confirm-ok]');
    await admin.page.waitForSelector('[data-testid=shares-empty]');
    expect(await admin.page.textContent('[data-testid=shares-empty]')).toContain("You don't have any shared links yet.");
    await admin.context.close();
  });

  test('profile and shares hold at 375 px', async () => {
    const { context, page } = await newPage(browser, { width: 375, height: 740 });
    await signIn(page, 'alice', ALICE_NEW_PW, '/settings/profile');
    await page.waitForSelector('[data-testid=password-form]');
    expect(await fitsWidth(page)).toBe(true);
    await shot(page, 'settings-profile-375');
    await page.click('[data-testid=tab-shares]');
    await page.waitForSelector('[data-testid=shares-empty]');
    expect(await fitsWidth(page)).toBe(true);
    await context.close();
  });
});

describe('global settings without command execution', () => {
  test('the shell setting, the command runner and the execute permission are hidden', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, 'admin', ADMIN_PW, '/settings/global');
    await page.waitForSelector('[data-testid=defaults-form] input[name=perm-admin]');
    await page.waitForSelector('[data-testid=branding]');
    expect(await page.locator('[data-testid=shell-warning]').count()).toBe(0);
    expect(await page.locator('input[name=shell]').count()).toBe(0);
    expect(await page.locator('[data-testid=command-runner]').count()).toBe(0);
    expect(await page.locator('input[name=perm-execute]').count()).toBe(0);
    expect(await page.locator('input[name=commands]').count()).toBe(0);
    await context.close();
  });
});

describe('error pages', () => {
  test('403, 404 and 500 show the catalogue texts', async () => {
    const { context, page } = await newPage(browser);
    const cases = [
      ['403', "You don't have permissions to access this."],
      ['404', "This location can't be reached."],
      ['500', 'Something really went wrong.'],
    ] as const;
    for (const [status, text] of cases) {
      await page.goto(`${server.url}/${status}`);
      await page.waitForSelector(`[data-testid=error-page-${status}]`);
      expect(await page.textContent('[data-testid=error-state]')).toContain(text);
      expect(await fitsWidth(page)).toBe(true);
    }
    await shot(page, 'error-500');
    await context.close();
  });
});
