import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { cli } from '../helpers/binary';
import { namesOrNull, settled } from '../helpers/settle';
import { expectAccessible } from './axe';
import { closeSession, loginAs, newPage, openSession, selectItems, shot, workspace, type Session } from './browser';
import { put } from './viewers-fixture';

// The selection bar on a phone stays one row: the buttons that fit (measured) in FILE_ACTIONS order, the rest in a
// More menu (the listing's context menu primitive) whose actions run exactly as their buttons would.
const ws = workspace('filedeck-selection-bar-');
const PW = 'selection-bar-admin-password-5';
let session: Session | undefined;
let base = '';
const fd = (...args: string[]) => cli(['-d', ws.db, '-r', ws.root, ...args]);
const NAMES = ['alpha.txt', 'bravo.txt', 'charlie.txt', 'delta.txt', 'echo.txt', 'foxtrot.txt'];
// Two text files selected, as admin: what the bar offers, in FILE_ACTIONS order.
const OFFERED = ['rename', 'copy', 'move', 'delete', 'download'];

beforeAll(async () => {
  for (const n of NAMES) put(ws.root, n, n);
  put(ws.root, 'dest/keep.txt', 'keep');
  session = await openSession(ws, PW);
  base = session.server.url;
});
afterAll(() => closeSession(ws, session));

/** The bar's geometry and contents: one row means every child centred on one line and the box one button tall. */
const barState = (page: Page) =>
  page.evaluate(() => {
    const bar = document.querySelector<HTMLElement>('[data-testid=selection-bar]')!;
    const s = getComputedStyle(bar);
    const box = bar.getBoundingClientRect();
    const buttons = [...bar.querySelectorAll<HTMLElement>('button')].map((b) => b.getBoundingClientRect());
    const count = document.querySelector<HTMLElement>('[data-testid=selection-count]')!;
    return {
      inner: bar.clientHeight - parseFloat(s.paddingTop) - parseFloat(s.paddingBottom),
      button: buttons[0]!.height,
      height: box.height,
      published: parseFloat(document.documentElement.style.getPropertyValue('--selection-bar-size')),
      tops: [...new Set(buttons.map((b) => Math.round(b.top)))],
      inside: buttons.every((b) => b.left >= box.left - 0.5 && b.right <= box.right + 0.5 && b.width > 0),
      // to the fraction: a text short by less than a pixel already shows an ellipsis
      countCut: (() => {
        const r = document.createRange();
        r.selectNodeContents(count);
        return r.getBoundingClientRect().width > count.getBoundingClientRect().width + 0.01;
      })(),
      fitsWindow: document.documentElement.scrollWidth <= window.innerWidth,
      shown: [...bar.querySelectorAll('[data-testid^=bar-]')].map((b) => b.getAttribute('data-testid')!.slice(4)),
      more: bar.querySelector('[data-testid=selection-more]')?.getAttribute('aria-expanded') ?? null,
      popup: bar.querySelector('[data-testid=selection-more]')?.getAttribute('aria-haspopup') ?? null,
    };
  });

const menuItems = (page: Page) => page.$$eval('[data-testid=context-menu] [role=menuitem]', (els) => els.map((e) => e.getAttribute('data-testid')!.slice(5)));
const focused = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? document.activeElement?.tagName);

async function phone(width: number, scheme: 'light' | 'dark' = 'light') {
  const opened = await newPage(session!.browser, { width, height: 700 });
  await opened.page.emulateMedia({ colorScheme: scheme });
  await loginAs(opened.page, base, 'admin', PW);
  await opened.page.waitForSelector('[data-testid=item][data-name="alpha.txt"]');
  return opened;
}

async function expectOneRow(page: Page) {
  const s = await barState(page);
  expect(s.tops.length).toBe(1);
  expect(Math.abs(s.inner - s.button)).toBeLessThanOrEqual(1);
  expect(s.height).toBeLessThan(2 * s.button);
  expect(Math.abs(s.published - Math.ceil(s.height))).toBeLessThanOrEqual(1); // what the panel dock reads
  expect(s.inside).toBe(true);
  expect(s.countCut).toBe(false);
  expect(s.fitsWindow).toBe(true);
  return s;
}

describe('selection bar on a phone', () => {
  for (const width of [320, 375]) {
    test(`${width} px: one row; the rest in More, in order; arrows move, Esc closes and returns to More`, async () => {
      const { context, page } = await phone(width);
      try {
        await selectItems(page, ['alpha.txt', 'bravo.txt']);
        await page.waitForSelector('[data-testid=selection-more]');
        const s = await expectOneRow(page);
        expect([s.more, s.popup]).toEqual(['false', 'menu']);
        if (width === 320) expect(s.shown).not.toContain('move');
        expect(s.shown).not.toContain('delete');

        await page.focus('[data-testid=selection-more]');
        await page.keyboard.press('Enter');
        await page.waitForSelector('[data-testid=context-menu][role=menu]');
        // Every offered action exactly once: the buttons that fit, then the menu, in FILE_ACTIONS order.
        expect([...s.shown, ...(await menuItems(page))]).toEqual(OFFERED);
        expect(await page.getAttribute('[data-testid=selection-more]', 'aria-expanded')).toBe('true');
        expect(await page.getAttribute('[data-testid=context-menu]', 'aria-label')).toBe('More actions');
        const hidden = await menuItems(page);
        expect(await focused(page)).toBe(`menu-${hidden[0]}`);
        await page.keyboard.press('ArrowDown');
        expect(await focused(page)).toBe(`menu-${hidden[1]}`);
        await page.keyboard.press('ArrowUp');
        await page.keyboard.press('ArrowUp'); // wraps to the last
        expect(await focused(page)).toBe(`menu-${hidden[hidden.length - 1]}`);
        // Above the bar, its inline end at More's, inside the window.
        const geo = await page.evaluate(() => {
          const m = document.querySelector('[data-testid=context-menu]')!.getBoundingClientRect();
          const b = document.querySelector('[data-testid=selection-more]')!.getBoundingClientRect();
          const bar = document.querySelector('[data-testid=selection-bar]')!.getBoundingClientRect();
          return { endGap: Math.abs(m.right - Math.min(b.right, window.innerWidth - 8)), above: m.bottom <= bar.top + 0.5, inside: m.left >= 0 && m.right <= window.innerWidth };
        });
        expect(geo).toEqual({ endGap: expect.any(Number), above: true, inside: true });
        expect(geo.endGap).toBeLessThan(1);
        await expectAccessible(page, `${width} px, the More menu open`);
        for (const scheme of ['light', 'dark'] as const) {
          await page.emulateMedia({ colorScheme: scheme });
          await page.waitForFunction((sc) => document.documentElement.dataset.theme === sc, scheme);
          await page.waitForTimeout(400); // the colours' transitions
          await shot(page, `selection-bar-more-${width}-${scheme}`, { fullPage: false });
        }
        await page.keyboard.press('Escape');
        await page.waitForSelector('[data-testid=context-menu]', { state: 'detached' });
        expect(await focused(page)).toBe('selection-more');
        expect(await page.getAttribute('[data-testid=selection-more]', 'aria-expanded')).toBe('false');
        // The selection is untouched, and a second press of More by pointer opens, a third closes.
        expect(await page.locator('[data-testid=item][aria-selected=true]').count()).toBe(2);
        await page.click('[data-testid=selection-more]');
        await page.waitForSelector('[data-testid=context-menu]');
        await page.click('[data-testid=selection-more]');
        await page.waitForSelector('[data-testid=context-menu]', { state: 'detached' });
      } finally {
        await context.close();
      }
    });
  }

  test('the number of buttons follows the measured width, not a breakpoint', async () => {
    const { context, page } = await phone(375);
    try {
      await selectItems(page, ['alpha.txt', 'bravo.txt']);
      const at375 = (await expectOneRow(page)).shown.length;
      await page.setViewportSize({ width: 320, height: 700 });
      await page.waitForFunction((n) => document.querySelectorAll('[data-testid=selection-bar] [data-testid^=bar-]').length < n, at375);
      await expectOneRow(page);
      await page.setViewportSize({ width: 700, height: 700 });
      await page.waitForSelector('[data-testid=selection-more]', { state: 'detached' });
      expect((await expectOneRow(page)).shown).toEqual(OFFERED);
    } finally {
      await context.close();
    }
  });

  test('320 px: Move and Delete chosen from More act on disk like their buttons', async () => {
    const { context, page } = await phone(320);
    try {
      await selectItems(page, ['charlie.txt', 'delta.txt']);
      await page.click('[data-testid=selection-more]');
      await page.click('[data-testid=menu-move]');
      await page.waitForSelector('[data-testid=prompt-move]');
      await page.click('[data-testid=picker-folder][data-name=dest]');
      await page.waitForFunction(() => document.querySelector('[data-testid=prompt-destination]')?.textContent?.includes('/dest/'));
      await page.click('[data-testid=prompt-confirm]');
      expect(await settled(() => namesOrNull(join(ws.root, 'dest')), ['charlie.txt', 'delta.txt', 'keep.txt'])).toEqual(['charlie.txt', 'delta.txt', 'keep.txt']);

      await page.goto(`${base}/files/`);
      await page.waitForSelector('[data-testid=item][data-name="echo.txt"]');
      await selectItems(page, ['echo.txt', 'foxtrot.txt']);
      await page.click('[data-testid=selection-more]');
      await page.click('[data-testid=menu-delete]');
      await page.waitForSelector('[data-testid=prompt-delete]');
      await page.click('[data-testid=prompt-confirm]');
      const left = ['alpha.txt', 'bravo.txt', 'dest'];
      // (Deleted items go to the trash folder, which is hidden.)
      const visible = () => namesOrNull(ws.root)?.filter((n) => !n.startsWith('.')) ?? null;
      expect(await settled(visible, left)).toEqual(left);
      await page.waitForSelector('[data-testid=item][data-name="echo.txt"]', { state: 'detached' });
      expect(await page.locator('[data-testid=item][data-name="foxtrot.txt"]').count()).toBe(0);
    } finally {
      await context.close();
    }
  });

  test('Arabic at 375 px: the bar and the menu mirror; wide screens keep the actions in the header', async () => {
    expect((await fd('users', 'update', 'admin', '--locale', 'ar')).code).toBe(0);
    try {
      for (const scheme of ['light', 'dark'] as const) {
        const { context, page } = await phone(375, scheme);
        try {
          expect(await page.getAttribute('html', 'dir')).toBe('rtl');
          await selectItems(page, ['alpha.txt']);
          await page.waitForSelector('[data-testid=selection-more]');
          await expectOneRow(page);
          const bar = await page.evaluate(() => {
            const b = document.querySelector('[data-testid=selection-bar]')!.getBoundingClientRect();
            const clear = document.querySelector('[data-testid=selection-clear]')!.getBoundingClientRect();
            const more = document.querySelector('[data-testid=selection-more]')!.getBoundingClientRect();
            return { clearRight: b.right - clear.right, moreLeft: more.left - b.left };
          });
          expect(bar.clearRight).toBeLessThan(12); // Clear at the start, which is the right
          expect(bar.moreLeft).toBeLessThan(12); // More at the end, on the left
          await page.click('[data-testid=selection-more]');
          await page.waitForSelector('[data-testid=context-menu]');
          const menu = await page.evaluate(() => {
            const m = document.querySelector('[data-testid=context-menu]')!.getBoundingClientRect();
            const b = document.querySelector('[data-testid=selection-more]')!.getBoundingClientRect();
            return { left: m.left, moreLeft: b.left };
          });
          expect(menu.left).toBeGreaterThanOrEqual(8 - 0.5);
          expect(Math.abs(menu.left - Math.max(8, menu.moreLeft))).toBeLessThan(1);
          await shot(page, `selection-bar-more-375-ar-${scheme}`, { fullPage: false });
          await page.keyboard.press('Escape');
          expect(await focused(page)).toBe('selection-more');
        } finally {
          await context.close();
        }
      }
    } finally {
      expect((await fd('users', 'update', 'admin', '--locale', 'en')).code).toBe(0);
    }
    for (const scheme of ['light', 'dark'] as const) {
      const { context, page } = await phone(1280, scheme);
      try {
        await selectItems(page, ['alpha.txt', 'bravo.txt']);
        await page.waitForSelector('[data-testid=action-delete]');
        expect(await page.isVisible('[data-testid=selection-bar]')).toBe(false);
        await shot(page, `selection-bar-1280-${scheme}`, { fullPage: false });
      } finally {
        await context.close();
      }
    }
  });
});
