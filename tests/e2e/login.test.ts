import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { cli, startServer, type RunningServer } from '../helpers/binary';
import { launch, loginThroughForm, newPage, shot } from './browser';

// Drives the compiled binary (FILEDECK_BIN, set by npm test) in Debian's Chromium.
const dir = mkdtempSync(join(tmpdir(), 'filedeck-e2e-'));
const db = join(dir, 'filedeck.db');
const root = join(dir, 'files');
const ADMIN_PW = 'e2e-admin-password-8812';
let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  mkdirSync(join(root, 'Documents', 'Reports'), { recursive: true });
  writeFileSync(join(root, 'Documents', 'notes.txt'), 'hello');
  writeFileSync(join(root, 'readme.md'), '# hi');
  writeFileSync(join(root, '100% real #1.txt'), 'odd name');
  server = await startServer(['-d', db, '-r', root, '--password', ADMIN_PW, '--log', ''], { cwd: dir });
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const names = (page: import('playwright-core').Page) => page.locator('[data-testid=item]').evaluateAll((els) => els.map((e) => e.getAttribute('data-name')));

describe('login and listing', () => {
  test('a visitor is sent to the login page, logs in, lands on the folder they asked for and browses', async () => {
    const { context, page } = await newPage(browser);
    await page.goto(`${server.url}/files/Documents/`);
    await page.waitForURL(/\/login\?redirect=/);
    expect(decodeURIComponent(new URL(page.url()).searchParams.get('redirect')!)).toBe('/files/Documents/');
    await page.waitForSelector('input[name=username]');
    await shot(page, 'login-page');
    await loginThroughForm(page, 'admin', ADMIN_PW);
    await page.waitForURL(`${server.url}/files/Documents/`);
    await page.waitForSelector('[data-testid=item]');
    expect(await names(page)).toEqual(['Reports', 'notes.txt']);
    await page.click('[data-testid=nav-files]');
    await page.waitForURL(`${server.url}/files/`);
    await page.waitForSelector('[data-name="readme.md"]');
    expect(await names(page)).toEqual(['Documents', '100% real #1.txt', 'readme.md']);
    await shot(page, 'listing-root');
    await page.dblclick('[data-name="Documents"]');
    await page.dblclick('[data-name="Reports"]');
    await page.waitForURL(`${server.url}/files/Documents/Reports/`);
    await page.waitForSelector('[data-testid=empty]');
    expect(await page.title()).toContain('Filedeck');
    await context.close();
  });

  test('wrong credentials show the message and keep the visitor on the login page', async () => {
    const { context, page } = await newPage(browser);
    await page.goto(`${server.url}/login`);
    await loginThroughForm(page, 'admin', 'not-the-password');
    await page.waitForSelector('[data-testid=login-error]');
    expect(await page.textContent('[data-testid=login-error]')).toContain('Wrong credentials');
    expect(new URL(page.url()).pathname).toBe('/login');
    await context.close();
  });

  test('the session survives a reload and logout ends it on the server too', async () => {
    const { context, page } = await newPage(browser);
    await page.goto(`${server.url}/login`);
    await loginThroughForm(page, 'admin', ADMIN_PW);
    await page.waitForURL(`${server.url}/files/`);
    await page.reload();
    await page.waitForSelector('[data-name="readme.md"]');
    const token = await page.evaluate(() => localStorage.getItem('jwt'));
    expect(token!.split('.')).toHaveLength(3);
    const cookies = await context.cookies();
    expect(cookies.find((c) => c.name === 'auth')?.sameSite).toBe('Strict');
    expect((await fetch(`${server.url}/api/resources/`, { headers: { 'X-Auth': token! } })).status).toBe(200);
    await page.click('[data-testid=logout]');
    await page.waitForURL(/\/login/);
    expect(await page.evaluate(() => localStorage.getItem('jwt'))).toBeFalsy();
    expect((await fetch(`${server.url}/api/resources/`, { headers: { 'X-Auth': token! } })).status).toBe(401);
    await page.goto(`${server.url}/files/`);
    await page.waitForURL(/\/login\?redirect=/);
    await context.close();
  });

  test('sign-up appears when an admin enables it, and a new user can register and browse their home folder', async () => {
    expect((await cli(['-d', db, '-r', root, 'config', 'set', 'signup', 'true', 'createUserDir', 'true'])).code).toBe(0);
    const { context, page } = await newPage(browser);
    await page.goto(`${server.url}/login`);
    await page.click('[data-testid=login-toggle]');
    await page.fill('input[name=username]', 'newbie');
    await page.fill('input[name=password]', 'newbies-long-password-1');
    await page.fill('input[name=passwordConfirm]', 'something-else-entirely');
    await page.click('button[type=submit]');
    await page.waitForSelector('[data-testid=login-error]');
    expect(await page.textContent('[data-testid=login-error]')).toContain("Passwords don't match");
    await page.fill('input[name=passwordConfirm]', 'newbies-long-password-1');
    await page.click('button[type=submit]');
    await page.waitForURL(`${server.url}/files/`);
    await page.waitForSelector('[data-testid=empty]');
    await shot(page, 'signup-home');
    // an ordinary user is kept out of admin screens
    await page.goto(`${server.url}/settings/global`);
    await page.waitForURL(`${server.url}/403`);
    await context.close();
    expect((await cli(['-d', db, '-r', root, 'config', 'set', 'signup', 'false'])).code).toBe(0);
  });

  test('right-to-left locales switch the page direction; the layout holds at 375 px', async () => {
    const { context, page } = await newPage(browser, { locale: 'he-IL', width: 375, height: 740 });
    await page.goto(`${server.url}/login`);
    await page.waitForSelector('input[name=username]');
    await page.waitForFunction(() => document.documentElement.dir === 'rtl');
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('he');
    expect(await page.evaluate(() => document.body.classList.contains('rtl'))).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await shot(page, 'login-he-375');
    await context.close();
  });
});
