import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { cli, startServer, type RunningServer } from '../helpers/binary';
import { launch, loginThroughForm, newPage, shot } from './browser';

// Administration in Chromium: the user form (create, edit, delete), global settings, rules, branding, runner.
const dir = mkdtempSync(join(tmpdir(), 'filedeck-e2e-admin-'));
const db = join(dir, 'filedeck.db');
const root = join(dir, 'files');
const brandingDir = join(dir, 'branding');
const ADMIN_PW = 'e2e-admin-password-4402';
const BOB_PW = 'bob-long-password-1';
const DAVE_PW = 'dave-long-password-1';
let server: RunningServer;
let browser: Browser;
let adminToken = '';
let admin: { context: BrowserContext; page: Page };
let bobId = 0;

const api = async (path: string, init: RequestInit = {}, token = adminToken) =>
  fetch(`${server.url}/api${path}`, { ...init, headers: { 'X-Auth': token, ...(init.headers as Record<string, string>) } });
const loginApi = (username: string, password: string) => fetch(`${server.url}/api/login`, { method: 'POST', body: JSON.stringify({ username, password }) });
const users = async () => (await (await api('/users')).json()) as { id: number; username: string; scope: string; lockPassword: boolean; perm: Record<string, boolean>; commands: string[]; rules: unknown[] }[];
const settings = async () => (await (await api('/settings')).json()) as Record<string, any>;
const fitsWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
const permBox = (page: Page, p: string) => page.locator(`input[name=perm-${p}]`);

/** Opens the save/delete confirmation, types the admin's password and confirms; answers the notice shown. */
async function confirmWithPassword(page: Page, password = ADMIN_PW): Promise<{ kind: string; text: string }> {
  await page.waitForSelector('[data-testid=confirm-dialog]');
  await page.fill('[data-testid=confirm-dialog] input[name=current-password]', password);
  const notice = page.waitForSelector('[data-testid^=notice-]');
  await page.click('[data-testid=confirm-ok]');
  const el = await notice;
  return { kind: (await el.getAttribute('data-testid'))!.replace('notice-', ''), text: (await el.textContent()) ?? '' };
}

async function saveGlobal(page: Page, button = 'global-save'): Promise<string> {
  const notice = page.waitForSelector('[data-testid^=notice-]');
  await page.click(`[data-testid=${button}]`);
  return (await (await notice).textContent()) ?? '';
}

beforeAll(async () => {
  mkdirSync(join(root, 'team', 'secret'), { recursive: true });
  writeFileSync(join(root, 'team', 'public.txt'), 'hello');
  writeFileSync(join(root, 'team', 'secret', 'plans.txt'), 'hidden');
  mkdirSync(brandingDir, { recursive: true });
  writeFileSync(join(brandingDir, 'custom.css'), '.login__card { border-color: rgb(200, 20, 120); }\n');
  server = await startServer(['-d', db, '-r', root, '--password', ADMIN_PW, '--log', '', '--enableExec', 'true'], { cwd: dir });
  adminToken = await (await loginApi('admin', ADMIN_PW)).text();
  const res = await api('/users', { method: 'POST', body: JSON.stringify({ what: 'user', which: [], current_password: ADMIN_PW, data: { username: 'dave', password: DAVE_PW, scope: '/team' } }) });
  expect(res.status).toBe(201);
  browser = await launch();
  admin = await newPage(browser);
  await admin.page.goto(`${server.url}/login?redirect=%2Fsettings%2Fusers`);
  await loginThroughForm(admin.page, 'admin', ADMIN_PW);
  await admin.page.waitForURL(`${server.url}/settings/users`);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('user management', () => {
  test('an admin creates a user: the home-directory tick and the admin tick behave, the server has the user', async () => {
    const { page } = admin;
    await page.waitForSelector('[data-testid=user-row][data-username=admin]');
    expect(await page.locator('[data-testid=user-row]').count()).toBe(2);
    await shot(page, 'settings-users');
    await page.click('[data-testid=user-new]');
    await page.waitForURL(`${server.url}/settings/users/new`);
    await page.waitForSelector('[data-testid=user-form]');
    const scope = page.locator('input[name=scope]');
    expect(await scope.inputValue()).toBe('.');

    // 'create home directory' blanks and disables the scope, unticking restores it
    await page.check('input[name=createHome]');
    expect(await scope.inputValue()).toBe('');
    expect(await scope.isDisabled()).toBe(true);
    expect(await scope.getAttribute('placeholder')).toBe('The scope will be generated from the username');
    await page.uncheck('input[name=createHome]');
    expect(await scope.inputValue()).toBe('.');
    expect(await scope.isEnabled()).toBe(true);
    await page.check('input[name=createHome]');

    // admin ticks and disables every other permission and clears lockPassword
    await page.check('input[name=lockPassword]');
    await page.uncheck('input[name=perm-delete]');
    await page.check('input[name=perm-admin]');
    for (const p of ['execute', 'create', 'rename', 'modify', 'delete', 'share', 'download']) {
      expect(await permBox(page, p).isChecked()).toBe(true);
      expect(await permBox(page, p).isDisabled()).toBe(true);
    }
    expect(await page.isChecked('input[name=lockPassword]')).toBe(false);
    expect(await page.isDisabled('input[name=lockPassword]')).toBe(true);
    await shot(page, 'settings-user-admin-ticked');
    await page.uncheck('input[name=perm-admin]');
    expect(await permBox(page, 'delete').isEnabled()).toBe(true);
    await page.uncheck('input[name=perm-delete]');
    await page.uncheck('input[name=perm-execute]');

    await page.fill('input[name=username]', 'bob');
    await page.fill('input[name=password]', BOB_PW);
    await page.fill('input[name=commands]', '  ls   echo ');
    await page.click('[data-testid=user-save]');
    await shot(page, 'settings-user-confirm');
    const notice = await confirmWithPassword(page);
    expect(notice).toEqual({ kind: 'success', text: 'User created!' });
    await page.waitForURL(/\/settings\/users\/\d+$/);
    bobId = Number(new URL(page.url()).pathname.split('/').pop());

    const bob = (await users()).find((u) => u.username === 'bob')!;
    expect(bob.id).toBe(bobId);
    expect(bob.scope).toBe('/users/bob');
    expect(bob.perm).toMatchObject({ admin: false, delete: false, execute: false, create: true, share: true, download: true });
    expect(bob.lockPassword).toBe(false);
    expect(bob.commands).toEqual(['ls', 'echo']);
    expect(existsSync(join(root, 'users', 'bob'))).toBe(true);
    expect((await loginApi('bob', BOB_PW)).status).toBe(200);
  });

  test('an admin edits the user: wrong own password is refused, a blank password keeps the old one', async () => {
    const { page } = admin;
    await page.goto(`${server.url}/settings/users/${bobId}`);
    await page.waitForSelector('[data-testid=user-form]');
    expect(await page.textContent('[data-testid=user-form] h2')).toBe('User bob');
    expect(await page.inputValue('input[name=password]')).toBe('');
    expect(await page.locator('input[name=createHome]').count()).toBe(0);
    await page.check('input[name=lockPassword]');
    await page.fill('input[name=scope]', '/team');
    await page.click('[data-testid=rules-user] [data-testid=rule-add]');
    await page.check('[data-testid=rules-user] [data-testid=rule-regex]');
    await page.fill('[data-testid=rules-user] [data-testid=rule-value]', '\\.tmp$');
    await page.press('[data-testid=rules-user] [data-testid=rule-value]', 'Enter'); // ignored: no confirmation opens
    expect(await page.locator('[data-testid=confirm-dialog]').count()).toBe(0);

    await page.click('[data-testid=user-save]');
    const refused = await confirmWithPassword(page, 'not-my-password');
    expect(refused.kind).toBe('error');
    expect(refused.text).toContain('the current password is incorrect');
    await shot(page, 'settings-user-error');
    await page.click('[data-testid=notice-close]');
    await page.fill('[data-testid=confirm-dialog] input[name=current-password]', ADMIN_PW);
    const notice = page.waitForSelector('[data-testid=notice-success]');
    await page.click('[data-testid=confirm-ok]');
    expect(await (await notice).textContent()).toBe('User updated!');
    await page.waitForSelector('[data-testid=confirm-dialog]', { state: 'detached' });

    const bob = (await users()).find((u) => u.id === bobId)!;
    expect(bob.lockPassword).toBe(true);
    expect(bob.scope).toBe('/team');
    expect(bob.rules).toEqual([{ allow: false, regex: true, path: '', regexp: { raw: '\\.tmp$' } }]);
    expect((await loginApi('bob', BOB_PW)).status).toBe(200); // blank password kept the old one
    await shot(page, 'settings-user-edit');
  });

  test('an admin deletes the user after a confirmation card', async () => {
    const { page } = admin;
    await page.goto(`${server.url}/settings/users/${bobId}`);
    await page.waitForSelector('[data-testid=user-delete]');
    await page.click('[data-testid=user-delete]');
    await page.waitForSelector('[data-testid=confirm-dialog]');
    expect(await page.textContent('[data-testid=confirm-dialog] h2')).toBe('Delete this user?');
    await shot(page, 'settings-user-delete');
    const notice = await confirmWithPassword(page);
    expect(notice).toEqual({ kind: 'success', text: 'User deleted!' });
    await page.waitForURL(`${server.url}/settings/users`);
    await page.waitForSelector('[data-testid=user-row][data-username=dave]');
    expect(await page.locator('[data-testid=user-row][data-username=bob]').count()).toBe(0);
    const ls = await cli(['-d', db, '-r', root, 'users', 'ls', '--json']);
    expect(ls.code).toBe(0);
    expect((JSON.parse(ls.stdout) as { username: string }[]).map((u) => u.username).sort()).toEqual(['admin', 'dave']);
  });
});

describe('global settings', () => {
  test('toggling sign-up shows the sign-up link on the login page', async () => {
    const visitor = await newPage(browser);
    await visitor.page.goto(`${server.url}/login`);
    await visitor.page.waitForSelector('input[name=username]');
    expect(await visitor.page.locator('[data-testid=login-toggle]').count()).toBe(0);

    const { page } = admin;
    await page.goto(`${server.url}/settings/global`);
    await page.waitForSelector('[data-testid=global-form]');
    await page.waitForSelector('[data-testid=shell-warning]'); // exec is on for this server
    expect(await page.textContent('[data-testid=shell-warning]')).toContain('Dangerous');
    await shot(page, 'settings-global');
    await page.check('input[name=signup]');
    expect(await saveGlobal(page)).toBe('Settings updated!');
    expect((await settings()).signup).toBe(true);

    await visitor.page.reload();
    await visitor.page.waitForSelector('[data-testid=login-toggle]');
    expect(await visitor.page.textContent('[data-testid=login-toggle]')).toContain('Sign up');
    await visitor.context.close();
  });

  test('a global deny rule hides the path from a user, in the API and on the files screen; a bad regex is refused', async () => {
    const dave = await (await loginApi('dave', DAVE_PW)).text();
    const names = async () => ((await (await api('/resources/', {}, dave)).json()) as { items: { name: string }[] }).items.map((i) => i.name).sort();
    expect(await names()).toEqual(['public.txt', 'secret']);

    const { page } = admin;
    await page.goto(`${server.url}/settings/global`);
    await page.waitForSelector('[data-testid=global-form]');
    const rules = page.locator('[data-testid=rules-global]');
    await rules.locator('[data-testid=rule-add]').click();
    await rules.locator('[data-testid=rule-regex]').check();
    await rules.locator('[data-testid=rule-value]').fill('(unclosed');
    const bad = await saveGlobal(page);
    expect(bad).toContain('invalid regular expression');
    expect((await settings()).rules).toEqual([]);
    await page.click('[data-testid=notice-close]');

    await rules.locator('[data-testid=rule-regex]').uncheck();
    await rules.locator('[data-testid=rule-value]').fill('/secret');
    expect(await rules.locator('[data-testid=rule-mode]').inputValue()).toBe('deny');
    await shot(page, 'settings-global-rule');
    expect(await saveGlobal(page)).toBe('Settings updated!');
    expect((await settings()).rules).toEqual([{ allow: false, regex: false, path: '/secret', regexp: null }]);
    expect(await names()).toEqual(['public.txt']);
    expect((await api('/resources/secret/plans.txt', {}, dave)).status).toBe(403);

    const visitor = await newPage(browser);
    await visitor.page.goto(`${server.url}/login`);
    await loginThroughForm(visitor.page, 'dave', DAVE_PW);
    await visitor.page.waitForURL(`${server.url}/files/`);
    await visitor.page.waitForSelector('[data-name="public.txt"]');
    expect(await visitor.page.locator('[data-name="secret"]').count()).toBe(0);
    await shot(visitor.page, 'settings-rule-files');
    await visitor.context.close();
  });

  test('default user settings and the command runner save what the forms show', async () => {
    const { page } = admin;
    await page.goto(`${server.url}/settings/global`);
    await page.waitForSelector('[data-testid=defaults-form]');
    expect(await page.locator('[data-testid=defaults-form] input[name=username]').count()).toBe(0);
    expect(await page.locator('[data-testid=defaults-form] input[name=password]').count()).toBe(0);
    await page.locator('[data-testid=defaults-form] input[name=perm-delete]').uncheck();
    await page.locator('[data-testid=defaults-form] select[name=locale]').selectOption('fr');
    expect(await saveGlobal(page, 'defaults-save')).toBe('Settings updated!');
    const s1 = await settings();
    expect(s1.defaults.perm.delete).toBe(false);
    expect(s1.defaults.locale).toBe('fr');

    await page.fill('textarea[name=before_upload]', 'echo one\n\n  echo two  \n');
    await page.fill('input[name=shell]', ' sh   -c ');
    await shot(page, 'settings-global-runner');
    expect(await saveGlobal(page, 'runner-save')).toBe('Settings updated!');
    const s2 = await settings();
    expect(s2.commands.before_upload).toEqual(['echo one', 'echo two']);
    expect(s2.shell).toEqual(['sh', '-c']);
    expect(s2.defaults.perm.delete).toBe(false); // one save keeps the other cards' values
    // The form takes the saved (normalised) values back once the save completes.
    await page.waitForFunction(() => (document.querySelector('textarea[name=before_upload]') as HTMLTextAreaElement | null)?.value === 'echo one\necho two');
  });

  test('branding: the default dark theme, the instance name and the custom stylesheet reach visitors', async () => {
    const { page } = admin;
    await page.goto(`${server.url}/settings/global`);
    await page.waitForSelector('[data-testid=branding]');
    await page.selectOption('select[name=brandingTheme]', 'dark');
    await page.fill('input[name=brandingName]', 'Acme Files');
    await page.fill('input[name=brandingFiles]', brandingDir);
    expect(await saveGlobal(page)).toBe('Settings updated!');
    expect((await settings()).branding).toMatchObject({ theme: 'dark', name: 'Acme Files', files: brandingDir });

    const visitor = await newPage(browser);
    await visitor.page.goto(`${server.url}/login`);
    await visitor.page.waitForSelector('.login__card');
    expect(await visitor.page.getAttribute('html', 'data-theme')).toBe('dark');
    expect(await visitor.page.title()).toContain('Acme Files');
    expect(await visitor.page.textContent('.brand__name')).toBe('Acme Files');
    expect(await visitor.page.evaluate(() => getComputedStyle(document.querySelector('.login__card')!).borderTopColor)).toBe('rgb(200, 20, 120)');
    await shot(visitor.page, 'settings-branding-login');
    await visitor.context.close();

    // the admin's own page follows the new default after a reload (no personal theme set)
    await page.reload();
    await page.waitForSelector('[data-testid=global-form]');
    expect(await page.getAttribute('html', 'data-theme')).toBe('dark');
    expect(await page.title()).toBe('Global settings - Acme Files');
    await shot(page, 'settings-global-dark');
  });

  test('users, the user form and global settings hold at 375 px', async () => {
    const { context, page } = await newPage(browser, { width: 375, height: 740 });
    await page.goto(`${server.url}/login?redirect=%2Fsettings%2Fusers`);
    await loginThroughForm(page, 'admin', ADMIN_PW);
    await page.waitForSelector('[data-testid=user-row]');
    expect(await fitsWidth(page)).toBe(true);
    await shot(page, 'settings-users-375');
    await page.click('[data-testid=user-new]');
    await page.waitForSelector('[data-testid=user-form]');
    await page.click('[data-testid=rules-user] [data-testid=rule-add]');
    expect(await fitsWidth(page)).toBe(true);
    await shot(page, 'settings-user-375');
    await page.click('[data-testid=tab-global]');
    await page.waitForSelector('[data-testid=command-runner]');
    expect(await fitsWidth(page)).toBe(true);
    await shot(page, 'settings-global-375');
    await context.close();
  });
});
