import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { Page } from 'playwright-core';
import type { Share } from '../../server/contract/share';
import { cli } from '../helpers/binary';
import { expectAccessible } from './axe';
import { closeSession, loginAs, newPage, openSession, shot, workspace, type Session } from './browser';
import { put } from './viewers-fixture';

// The owner is told (issue 37 item 2): a visitor uploads through a file request, the sidebar's badge shows the
// unread count at the next poll (here: when the window gets the focus), the list says which link, how many files,
// how much; a click opens the folder; "mark all read" clears the badge. 1280 and 375 px, light and dark, Arabic.
const ws = workspace('filedeck-notifications-');
const PW = 'notifications-admin-password-37';
let s: Session | undefined;
let page: Page;
let base = '';
let hash = '';
const fd = (...args: string[]) => cli(['-d', ws.db, '-r', ws.root, ...args]);

beforeAll(async () => {
  put(ws.root, 'Drop box/keep.txt', 'kept');
  s = await openSession(ws, PW);
  page = s.page;
  base = s.server.url;
  const token = (await page.evaluate(() => localStorage.getItem('jwt'))) as string;
  const r = await fetch(`${base}/api/share/Drop%20box`, { method: 'POST', headers: { 'X-Auth': token }, body: JSON.stringify({ password: '', mode: 'upload' }) });
  expect(r.status).toBe(200);
  hash = ((await r.json()) as Share).hash;
});
afterAll(() => closeSession(ws, s));

const upload = (name: string, body: string) => fetch(`${base}/api/public/upload/${hash}/${encodeURIComponent(name)}`, { method: 'POST', body });
const badge = '[data-testid=nav-notifications] [data-testid=notifications-badge]';
/** What the poll would do: the window getting the focus asks at once. */
const poke = (p: Page) => p.evaluate(() => window.dispatchEvent(new Event('focus')));

describe('notifications', () => {
  test('no badge before anything arrived; the list says so', async () => {
    await page.goto(`${base}/files/`);
    await page.waitForSelector('[data-testid=nav-notifications]');
    expect(await page.locator(badge).count()).toBe(0);
    await page.click('[data-testid=nav-notifications]');
    await page.waitForSelector('[data-testid=notifications-empty]');
    await page.keyboard.press('Escape');
  }, 30_000);

  test('a visitor uploads two files: one unread notification, the badge, the list; a click opens the folder', async () => {
    expect((await upload('first.txt', 'one')).status).toBe(201);
    expect((await upload('second.txt', 'two two')).status).toBe(201);
    await poke(page);
    await page.waitForSelector(badge);
    expect(await page.textContent(`${badge} [data-testid=notifications-count]`)).toBe('1');
    expect(await page.getByRole('button', { name: 'Notifications Unread: 1' }).count()).toBe(1);
    await page.click('[data-testid=nav-notifications]');
    await page.waitForSelector('[data-testid=notification]');
    const text = await page.textContent('[data-testid=notification]');
    expect(text).toContain('Drop box');
    expect(text).toContain('Files: 2');
    expect(text).toContain('Size: 10 bytes');
    expect(await page.getAttribute('[data-testid=notification]', 'data-read')).toBe('false');
    await expectAccessible(page, 'notifications list, light');
    await shot(page, 'notifications-list-1280-light', { fullPage: false });
    // the theme is switched with the list closed: colours measured mid-transition behind the overlay read as low contrast
    await page.keyboard.press('Escape');
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.click('[data-testid=nav-notifications]');
    await page.waitForSelector('[data-testid=notification]');
    await expectAccessible(page, 'notifications list, dark');
    await shot(page, 'notifications-list-1280-dark', { fullPage: false });
    await page.emulateMedia({ colorScheme: 'light' });
    await page.click('[data-testid=notification]');
    await page.waitForURL(`${base}/files/Drop%20box/`);
    await page.waitForSelector('[data-testid=item][data-name="second.txt"]');
    await page.waitForSelector(badge, { state: 'detached' });
  }, 60_000);

  test('at 375 px, light and dark, and in Arabic: the badge on the top bar, the list, mark all read', async () => {
    expect((await upload('third.txt', '3')).status).toBe(201);
    expect((await fd('users', 'update', 'admin', '--locale', 'ar')).code).toBe(0);
    const { context, page: p } = await newPage(s!.browser, { width: 375, height: 740 });
    try {
      await loginAs(p, base, 'admin', PW);
      await p.waitForSelector(badge);
      for (const scheme of ['light', 'dark'] as const) {
        await p.emulateMedia({ colorScheme: scheme });
        const bell = (await p.locator('[data-testid=nav-notifications]').boundingBox())!;
        expect(bell.x).toBeGreaterThanOrEqual(0);
        expect(bell.x + bell.width).toBeLessThanOrEqual(375);
        expect(await p.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
        await shot(p, `notifications-badge-375-${scheme}-ar`, { fullPage: false });
        await p.click('[data-testid=nav-notifications]');
        await p.waitForSelector('[data-testid=notification]');
        await expectAccessible(p, `notifications list at 375 px, ${scheme}, Arabic`);
        await shot(p, `notifications-list-375-${scheme}-ar`, { fullPage: false });
        await p.keyboard.press('Escape');
      }
      await p.click('[data-testid=nav-notifications]');
      await p.click('[data-testid=notifications-read-all]');
      await p.waitForSelector(badge, { state: 'detached' });
      expect(await p.locator('[data-testid=notification][data-read=false]').count()).toBe(0);
      const token = (await p.evaluate(() => localStorage.getItem('jwt'))) as string;
      const list = (await (await fetch(`${base}/api/notifications`, { headers: { 'X-Auth': token } })).json()) as { unread: number };
      expect(list.unread).toBe(0);
    } finally {
      await context.close();
      expect((await fd('users', 'update', 'admin', '--locale', 'en')).code).toBe(0);
    }
  }, 60_000);
});
