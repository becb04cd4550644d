import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { Browser, Page } from 'playwright-core';
import { cli } from '../helpers/binary';
import { closeSession, loginAs, newPage, openSession, shot, workspace, type Session } from './browser';
import { png, put } from './viewers-fixture';

// Right-to-left and numbers (issue 16 item 7) and the System theme (item 8).
const ws = workspace('filedeck-ux-rtl-theme-');
const PW = 'ux-rtl-theme-admin-password-29';
const SIZE = Math.round(1.2 * 1024 * 1024); // shows as 1.2 MB
let session: Session | undefined;
let browser: Browser;
let base = '';
let shareHash = '';
const fd = (...args: string[]) => cli(['-d', ws.db, '-r', ws.root, ...args]);

beforeAll(async () => {
  put(ws.root, '2024 Trip/2024 Holiday.jpg', Buffer.concat([await png(60, 40), Buffer.alloc(SIZE - (await png(60, 40)).length)]));
  put(ws.root, '2024 Trip/notes.txt', 'n');
  for (const n of ['2024 map.txt', '2024 plan.txt']) put(ws.root, `2024 Trip/${n}`, n);
  put(ws.root, 'report.txt', 'shared');
  session = await openSession(ws, PW);
  browser = session.browser;
  base = session.server.url;
  const out = await fd('shares', 'add', '/report.txt', '--user', 'admin', '--json');
  expect(out.code).toBe(0);
  shareHash = (JSON.parse(out.stdout) as { hash: string }).hash;
});
afterAll(() => closeSession(ws, session));

const theme = (p: Page) => p.getAttribute('html', 'data-theme');

/** The horizontal position of a word inside an element's text, as laid out on screen. */
async function wordLeft(p: Page, selector: string, word: string): Promise<number> {
  return p.locator(selector).first().evaluate((el, w) => {
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const at = (n.textContent ?? '').indexOf(w);
      if (at < 0) continue;
      const r = document.createRange();
      r.setStart(n, at);
      r.setEnd(n, at + w.length);
      return r.getBoundingClientRect().left;
    }
    throw new Error(`"${w}" not found`);
  }, word);
}

describe('System theme', () => {
  test('login, listing and share pages follow prefers-color-scheme live, without a reload', async () => {
    const { context, page } = await newPage(browser);
    try {
      await page.emulateMedia({ colorScheme: 'dark' });
      await page.goto(`${base}/login`);
      await page.waitForSelector('input[name=username]');
      expect(await theme(page)).toBe('dark');
      expect(await page.getAttribute('html', 'data-theme-mode')).toBe('system');
      await shot(page, 'ux-theme-login-dark');
      await page.emulateMedia({ colorScheme: 'light' });
      await page.waitForFunction(() => document.documentElement.dataset.theme === 'light');

      await loginAs(page, base, 'admin', PW);
      await page.waitForSelector('[data-testid=item]');
      expect(await theme(page)).toBe('light');
      await page.emulateMedia({ colorScheme: 'dark' });
      await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
      const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
      expect(bg).not.toBe('rgb(243, 245, 249)'); // the light background

      await page.goto(`${base}/share/${shareHash}`);
      await page.waitForSelector('[data-testid=share-box]');
      expect(await theme(page)).toBe('dark');
      await shot(page, 'ux-theme-share-dark');
      await page.emulateMedia({ colorScheme: 'light' });
      await page.waitForFunction(() => document.documentElement.dataset.theme === 'light');
    } finally {
      await context.close();
    }
  });

  test('a fixed choice in the profile wins over the system; the profile offers System', async () => {
    const { context, page } = await newPage(browser);
    try {
      await page.emulateMedia({ colorScheme: 'dark' });
      await loginAs(page, base, 'admin', PW);
      await page.goto(`${base}/settings/profile`);
      await page.waitForSelector('select[name=theme]');
      const options = await page.locator('select[name=theme] option').allTextContents();
      expect(options).toEqual(['System', 'Light', 'Dark']);
      await page.selectOption('select[name=theme]', 'light');
      await page.click('[data-testid=profile-save]');
      await page.waitForFunction(() => document.documentElement.dataset.theme === 'light');
      await page.emulateMedia({ colorScheme: 'light' });
      await page.emulateMedia({ colorScheme: 'dark' });
      await page.waitForTimeout(200);
      expect(await theme(page)).toBe('light');
      await page.selectOption('select[name=theme]', '');
      await page.click('[data-testid=profile-save]');
      await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
    } finally {
      await context.close();
    }
  });
});

describe('right to left (ar)', () => {
  test('"2024 Holiday.jpg" reads left to right inside the Arabic page; sizes and counts by Intl; arrows mirrored', async () => {
    expect((await fd('users', 'update', 'admin', '--locale', 'ar')).code).toBe(0);
    for (const [width, scheme] of [
      [1280, 'light'],
      [375, 'dark'],
      [1280, 'dark'],
      [375, 'light'],
    ] as const) {
      const { context, page } = await newPage(browser, { width, height: 800 });
      try {
        await page.emulateMedia({ colorScheme: scheme });
        await loginAs(page, base, 'admin', PW);
        await page.goto(`${base}/files/2024%20Trip/`);
        await page.waitForSelector('[data-testid=item][data-name="2024 Holiday.jpg"]');
        expect(await page.getAttribute('html', 'dir')).toBe('rtl');
        const name = '[data-testid=item][data-name="2024 Holiday.jpg"] .item__name';
        // visual order: "2024" stays to the left of "Holiday" (not "Holiday.jpg 2024")
        expect(await wordLeft(page, name, '2024')).toBeLessThan(await wordLeft(page, name, 'Holiday'));
        expect(await page.locator(name).evaluate((el) => [getComputedStyle(el).unicodeBidi, getComputedStyle(el).textAlign])).toEqual(['plaintext', 'right']);
        // the breadcrumb with the same kind of name
        const crumb = '[data-testid=crumb]';
        expect(await wordLeft(page, crumb, '2024')).toBeLessThan(await wordLeft(page, crumb, 'Trip'));
        // size: what Intl writes for Arabic, isolated so the number and unit keep their order
        const expected = await page.evaluate(() => new Intl.NumberFormat(document.documentElement.lang, { style: 'unit', unit: 'megabyte', unitDisplay: 'short', maximumFractionDigits: 1 }).format(1.2));
        const size = (await page.textContent('[data-testid=item][data-name="2024 Holiday.jpg"] .item__size')) ?? '';
        expect(size).toBe(`\u2068${expected}\u2069`);
        expect(size).not.toContain('MB');
        // a directional icon turns round
        expect(await page.locator('.breadcrumbs__sep').first().evaluate((el) => getComputedStyle(el).transform)).toBe('matrix(-1, 0, 0, 1, 0, 0)');
        await shot(page, `ux-rtl-ar-${width}-${scheme}`);
        if (width === 1280 && scheme === 'light') {
          // counts in a sentence use the language's digits too
          await page.keyboard.press('Control+f');
          await page.keyboard.type('2024', { delay: 10 });
          await page.waitForSelector('[data-testid=search-count]');
          await page.waitForFunction(() => document.querySelectorAll('[data-testid=search-hit]').length === 3);
          const three = await page.evaluate(() => new Intl.NumberFormat(document.documentElement.lang).format(3));
          expect((await page.textContent('[data-testid=search-count]')) ?? '').toContain(three);
          const hit = '[data-testid=search-hit][data-path="2024 Holiday.jpg"] [data-testid=search-hit-name]';
          expect(await wordLeft(page, hit, '2024')).toBeLessThan(await wordLeft(page, hit, 'Holiday'));
          await shot(page, 'ux-rtl-ar-search');
        }
      } finally {
        await context.close();
      }
    }
  }, 90_000);
});
