import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { Page } from 'playwright-core';
import { cli } from '../helpers/binary';
import { closeSession, loginAs, newPage, openSession, shot, workspace, type Session } from './browser';

// Settings → API in Chromium: the operations of /api/openapi.json, the filter, 1280/375 px, dark and RTL;
// a non-admin has no tab and no page.
const ws = workspace('filedeck-e2e-api-');
const ADMIN_PW = 'e2e-api-admin-password-1';
const BOB_PW = 'bob-api-password-12345';
let s: Session;
const fd = (...args: string[]) => cli(['-d', ws.db, '-r', ws.root, ...args], { cwd: ws.dir });
const ops = (page: Page) => page.locator('[data-testid=api-operation]');
const fitsWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

beforeAll(async () => {
  s = await openSession(ws, ADMIN_PW, [], async () => {
    expect((await fd('users', 'add', 'bob', BOB_PW)).code).toBe(0);
  });
}, 60_000);
afterAll(async () => {
  await closeSession(ws, s);
});

describe('settings → API', () => {
  test('lists every operation of the document, filters, opens parameters; fits 375 px; dark', async () => {
    const { page } = s;
    const doc = (await (await page.request.get(`${s.server.url}/api/openapi.json`)).json()) as { paths: Record<string, Record<string, unknown>> };
    const total = Object.values(doc.paths).reduce((n, m) => n + Object.keys(m).length, 0);
    await page.goto(`${s.server.url}/settings/api`);
    await page.waitForSelector('[data-testid=api-operations]');
    expect(await ops(page).count()).toBe(total);
    await shot(page, 'api-1280');
    await page.fill('[data-testid=api-filter]', 'delete users never the last admin');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=api-operation]').length === 1);
    expect(await ops(page).first().textContent()).toContain('/api/users/{id}');
    await ops(page).first().locator('summary').click();
    expect(await ops(page).first().locator('.api-op__params').textContent()).toContain('id');
    await page.fill('[data-testid=api-filter]', 'tus');
    await page.setViewportSize({ width: 375, height: 800 });
    expect(await fitsWidth(page)).toBe(true);
    await shot(page, 'api-375');
    await page.evaluate(() => (document.documentElement.dataset.theme = 'dark'));
    await shot(page, 'api-375-dark');
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.fill('[data-testid=api-filter]', '');
    await shot(page, 'api-1280-dark');
    await page.fill('[data-testid=api-filter]', 'no-such-operation-anywhere');
    await page.waitForSelector('[data-testid=api-empty]');
  }, 60_000);

  test('RTL: an Arabic-speaking admin gets a right-to-left page, paths stay left-to-right', async () => {
    expect((await fd('users', 'update', 'admin', '--locale', 'ar')).code).toBe(0);
    const { context, page } = await newPage(s.browser);
    try {
      await loginAs(page, s.server.url, 'admin', ADMIN_PW);
      await page.goto(`${s.server.url}/settings/api`);
      await page.waitForSelector('[data-testid=api-operations]');
      expect(await page.getAttribute('html', 'dir')).toBe('rtl');
      expect(await page.locator('.api-op__path').first().getAttribute('dir')).toBe('ltr');
      await shot(page, 'api-1280-rtl');
    } finally {
      await context.close();
    }
  }, 60_000);

  test('a non-admin has no API tab and is kept off the page', async () => {
    const { context, page } = await newPage(s.browser);
    try {
      await loginAs(page, s.server.url, 'bob', BOB_PW);
      await page.goto(`${s.server.url}/settings/profile`);
      await page.waitForSelector('[data-testid=settings-nav]');
      expect(await page.locator('[data-testid=tab-api]').count()).toBe(0);
      await page.goto(`${s.server.url}/settings/api`);
      await page.waitForTimeout(500);
      expect(await page.locator('[data-testid=api-operations]').count()).toBe(0);
    } finally {
      await context.close();
    }
  }, 60_000);
});
