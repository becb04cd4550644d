import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { Page } from 'playwright-core';
import { cli } from '../helpers/binary';
import { expectAccessible } from './axe';
import { closeSession, loginAs, newPage, openSession, shot, workspace, type Session } from './browser';
import { put } from './viewers-fixture';

// A 375 px phone: the selection bar's count stays whole next to the selection's buttons (it was cut to
// "تم تحديد …" in Arabic), and a long name is clipped inside its card instead of pushing the card past the screen.
const ws = workspace('filedeck-phone-names-');
const PW = 'phone-names-admin-password-8';
const LONG = 'a-very-long-folder-name-without-any-spaces-that-never-fits-on-a-phone-screen-2026';
const LONG_SPACED = 'Quarterly planning documents for the northern region sales and marketing teams';
let session: Session | undefined;
let base = '';
const fd = (...args: string[]) => cli(['-d', ws.db, '-r', ws.root, ...args]);

beforeAll(async () => {
  put(ws.root, `${LONG}/inside.txt`, 'x');
  put(ws.root, `${LONG_SPACED}/inside.txt`, 'x');
  put(ws.root, 'short.txt', 'short');
  put(ws.root, `${LONG}.txt`, 'long file');
  session = await openSession(ws, PW);
  base = session.server.url;
});
afterAll(() => closeSession(ws, session));

/** Every item's name box against its card: the widths and edges of those that stick out (none expected). */
const overflowing = (page: Page) =>
  page.$$eval('[data-testid=item]', (items) =>
    items.flatMap((item) => {
      const card = item.getBoundingClientRect();
      const name = item.querySelector('.item__name')!.getBoundingClientRect();
      const out = name.width > card.width + 0.5 || name.left < card.left - 0.5 || name.right > card.right + 0.5 || card.right > window.innerWidth + 0.5 || card.left < -0.5;
      return out ? [{ name: item.getAttribute('data-name'), card: [card.left, card.right], box: [name.left, name.right] }] : [];
    }),
  );

/** The selection count's element: its text, whether its text is cut (scrollWidth past clientWidth) and its box. */
const countBox = (page: Page) =>
  page.$eval('[data-testid=selection-count]', (el) => ({ text: el.textContent ?? '', cut: el.scrollWidth > el.clientWidth || el.scrollHeight > el.clientHeight + 1, width: el.clientWidth }));

describe('phone layout at 375 px', () => {
  for (const lng of ['ar', 'en'] as const) {
    for (const view of ['mosaic', 'list', 'mosaic gallery'] as const) {
      test(`${lng}, ${view}: long names are clipped inside their cards; the selection count is whole`, async () => {
        expect((await fd('users', 'update', 'admin', '--locale', lng, '--viewMode', view)).code).toBe(0);
        for (const scheme of ['light', 'dark'] as const) {
          const { context, page } = await newPage(session!.browser, { width: 375, height: 812 });
          try {
            await page.emulateMedia({ colorScheme: scheme });
            await loginAs(page, base, 'admin', PW);
            await page.waitForSelector(`[data-testid=item][data-name="${LONG}"]`);
            expect(await page.getAttribute('html', 'dir')).toBe(lng === 'ar' ? 'rtl' : 'ltr');
            expect(await overflowing(page)).toEqual([]);
            expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
            // the full name stays reachable: as the tooltip and as the text read out
            const name = page.locator(`[data-testid=item][data-name="${LONG}"] .item__name`);
            expect(await name.getAttribute('title')).toBe(LONG);
            expect(await name.textContent()).toBe(LONG);

            // one item (the longest sentence in Arabic), then a second one added with Ctrl
            for (const [n, selected] of [[`${LONG}.txt`, 1], ['short.txt', 2]] as const) {
              await page.click(`[data-testid=item][data-name="${n}"]`, { modifiers: selected > 1 ? ['Control'] : [] });
              await page.waitForSelector('[data-testid=selection-bar]');
              expect(await page.locator('[data-testid=item][aria-selected=true]').count()).toBe(selected);
              const count = await countBox(page);
              expect(count.text).not.toContain('…');
              expect(count.cut).toBe(false);
              // every selection button is still on screen
              const offscreen = await page.$$eval('[data-testid=selection-bar] button', (bs) =>
                bs.filter((b) => { const r = b.getBoundingClientRect(); return r.left < 0 || r.right > window.innerWidth || r.width === 0; }).length,
              );
              expect(offscreen).toBe(0);
              if (view === 'mosaic' && selected === 1) {
                await shot(page, `phone-names-${lng}-${scheme}`, { fullPage: false });
                await expectAccessible(page, `375 px ${lng} ${scheme}, one item selected`);
              }
            }
          } finally {
            await context.close();
          }
        }
      });
    }
  }

  test('at 1280 px (several columns) the names are clipped in their tiles too, in Arabic, light and dark', async () => {
    expect((await fd('users', 'update', 'admin', '--locale', 'ar', '--viewMode', 'mosaic')).code).toBe(0);
    for (const scheme of ['light', 'dark'] as const) {
      const { context, page } = await newPage(session!.browser, { width: 1280, height: 800 });
      try {
        await page.emulateMedia({ colorScheme: scheme });
        await loginAs(page, base, 'admin', PW);
        await page.waitForSelector(`[data-testid=item][data-name="${LONG}"]`);
        expect(await overflowing(page)).toEqual([]);
        await page.click(`[data-testid=item][data-name="${LONG}.txt"]`);
        await shot(page, `phone-names-ar-${scheme}-1280`, { fullPage: false });
      } finally {
        await context.close();
      }
    }
  });
});
