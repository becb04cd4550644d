import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { cli } from '../helpers/binary';
import { closeSession, loginAs, newPage, openSession, shot, workspace, type Session } from './browser';

// Issue 16 item 3, keyboard only: after the login form nothing here clicks or moves the mouse. Find, open, rename,
// move, delete and share a file; one Tab stop for the list and a skip link to it; Backspace / Alt+↑ up with the
// focus on the folder came from; type-to-jump to an item that is not rendered; '?' help from the one definition;
// the focus back on the item after a preview or a prompt closes.
const ws = workspace('filedeck-e2e-keyboard-');
const PW = 'keyboard-admin-password-16';
const BIG = 2_000;
// A 1×1 PNG: any non-text file opens in the previewer.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
let s: Session | undefined;
let page: Page;
let base = '';

beforeAll(async () => {
  const big = join(ws.root, 'Big');
  mkdirSync(big, { recursive: true });
  for (let i = 0; i < BIG; i++) closeSync(openSync(join(big, `f-${String(i).padStart(4, '0')}.txt`), 'w'));
  mkdirSync(join(ws.root, 'Dest'));
  mkdirSync(join(ws.root, 'Docs', 'Inner'), { recursive: true });
  writeFileSync(join(ws.root, 'Docs', 'photo.png'), PNG);
  writeFileSync(join(ws.root, 'Docs', 'report.txt'), 'the quarterly report');
  for (const name of ['delete-me.txt', 'keep-after.txt', 'move-me.txt', 'share-me.txt', 'zeta.txt']) writeFileSync(join(ws.root, name), name);
  s = await openSession(ws, PW);
  page = s.page;
  base = s.server.url;
}, 60_000);
afterAll(() => closeSession(ws, s));

/** The focused element: an item's name, else its test id. */
const focused = () => page.evaluate(() => document.activeElement?.getAttribute('data-name') ?? document.activeElement?.getAttribute('data-testid') ?? document.activeElement?.tagName);
const waitFocus = (name: string) => page.waitForFunction((n) => document.activeElement?.getAttribute('data-name') === n, name);
const press = (key: string) => page.keyboard.press(key);
/** Waits for the app's own navigation (history.pushState / back) to reach a path; no load event is involved. */
const waitPath = (path: string) => page.waitForFunction((p) => decodeURI(location.pathname) === p, path);

/** Presses Tab until the focus is on `selector`; answers the number of presses. */
async function tabTo(selector: string, max = 40): Promise<number> {
  for (let n = 1; n <= max; n++) {
    await press('Tab');
    if (await page.evaluate((sel) => !!document.activeElement?.matches(sel), selector)) return n;
  }
  throw new Error(`${selector} not reached in ${max} Tab presses`);
}

async function load(path = '/files/'): Promise<void> {
  await page.goto(`${base}${path}`);
  await page.waitForSelector('[data-testid=item]');
  await page.waitForSelector('#loading', { state: 'detached' });
}

/** Type-to-jump from the list (the focus must be on an item). */
async function jumpTo(name: string, typed = name): Promise<void> {
  await page.keyboard.type(typed, { delay: 20 });
  await waitFocus(name);
}

describe('keyboard only', () => {
  test('the skip link is the first Tab stop and reaches the list; the list is one Tab stop', async () => {
    await load();
    await press('Tab');
    expect(await focused()).toBe('skip-to-files');
    const box = await page.locator('[data-testid=skip-to-files]').boundingBox();
    expect(box && box.y >= 0 && box.width > 20).toBe(true); // visible once focused
    await shot(page, 'keyboard-skip-link', { fullPage: false });
    await press('Enter');
    expect(await focused()).toBe('Big'); // the first item: 1 Tab + Enter from page load
    expect(await page.locator('[data-testid=item][tabindex="0"]').count()).toBe(1);
    // Tab leaves the list (the next region), it does not walk the items.
    await press('Tab');
    expect(await page.evaluate(() => !!document.activeElement?.closest('[data-testid=item]'))).toBe(false);
    // Without the skip link: every Tab stop before the first item, counted.
    await load();
    const presses = await tabTo('[data-testid=item]');
    console.log(`Tab presses from page load to the first item: 1 with the skip link (+ Enter), ${presses} without`);
    expect(await focused()).toBe('Big');
    // The cursor is the Tab stop: after moving, Shift+Tab and Tab come back to the same item.
    await press('End');
    await waitFocus('zeta.txt');
    await press('Shift+Tab');
    await press('Tab');
    expect(await focused()).toBe('zeta.txt');
  });

  test('open with arrows and Enter; the focus comes back to the item when the preview closes (Esc, close button)', async () => {
    await load();
    await tabTo('[data-testid=item]');
    // The default view is the mosaic: → steps through the tiles (↓ would go down a row of them).
    await press('ArrowRight'); // Dest
    await press('ArrowRight'); // Docs
    expect(await focused()).toBe('Docs');
    await press('Enter');
    await waitPath('/files/Docs/');
    await waitFocus('Inner'); // a folder opened from the keyboard focuses its first item
    await jumpTo('photo.png', 'p');
    await press('Enter');
    await page.waitForSelector('[data-testid=previewer]');
    await press('Escape');
    await waitPath('/files/Docs/');
    await waitFocus('photo.png');
    expect(await page.getAttribute('[data-testid=item][data-name="photo.png"]', 'aria-selected')).toBe('true');
    // the close button, reached with Tab
    await press('Enter');
    await page.waitForSelector('[data-testid=previewer]');
    await tabTo('[data-testid=preview-close]');
    await press('Enter');
    await waitPath('/files/Docs/');
    await waitFocus('photo.png');
  });

  test('Backspace and Alt+↑ go up, focusing the folder came from; not while typing in a field', async () => {
    await load('/files/Docs/');
    await tabTo('[data-testid=item]');
    await press('Backspace');
    await waitPath('/files/');
    await waitFocus('Docs');
    await press('Enter');
    await waitPath('/files/Docs/');
    await waitFocus('Inner');
    await press('Enter');
    await waitPath('/files/Docs/Inner/');
    await press('Alt+ArrowUp');
    await waitPath('/files/Docs/');
    await waitFocus('Inner');
    // Backspace in the filter box edits the text
    await tabTo('[data-testid=listing-filter]');
    await page.keyboard.type('ab');
    await press('Backspace');
    expect(page.url()).toBe(`${base}/files/Docs/`);
  });

  test('Alt+↑ goes up while the folder it is in is still loading (the listing is held back)', async () => {
    await load('/files/Docs/');
    await tabTo('[data-testid=item]');
    await waitFocus('Inner');
    // Hold the listing of Inner until the key has been pressed: before, the key was dropped while no listing was on show.
    let release = () => {};
    const held = new Promise<void>((r) => (release = r));
    await page.route('**/api/resources/Docs/Inner/**', async (route) => {
      await held;
      await route.continue().catch(() => {});
    });
    await press('Enter');
    await waitPath('/files/Docs/Inner/');
    await press('Alt+ArrowUp');
    await waitPath('/files/Docs/');
    release();
    await page.unroute('**/api/resources/Docs/Inner/**');
    await waitFocus('Inner');
  });

  test('rename: F2, type, Enter; the renamed item keeps the focus', async () => {
    await load('/files/Docs/');
    await tabTo('[data-testid=item]');
    await jumpTo('report.txt', 'rep');
    await press('F2');
    await page.waitForSelector('[data-testid=prompt-rename]');
    expect(await focused()).toBe('prompt-input');
    await press('Control+A');
    await page.keyboard.type('final-report.txt');
    await press('Enter');
    await page.waitForSelector('[data-testid=prompt-rename]', { state: 'detached' });
    await waitFocus('final-report.txt');
    expect(existsSync(join(ws.root, 'Docs', 'final-report.txt'))).toBe(true);
    expect(existsSync(join(ws.root, 'Docs', 'report.txt'))).toBe(false);
  });

  test('find: Ctrl+F, type, Enter on a result opens it', async () => {
    await load();
    await tabTo('[data-testid=item]');
    await press('Control+f');
    await page.keyboard.type('final-rep');
    // The hit must be one of the full query's results: a pause in typing (a loaded machine) runs a search for a
    // prefix, whose hits show first; the full query's search then replaces them and forgets the chosen one, so the
    // Enter below searched instead of opening (failed once in six runs under load).
    await page.waitForSelector('[data-testid=search-results][data-query="final-rep"] [data-testid=search-hit][data-path*="final-report.txt"]');
    await press('ArrowDown');
    await press('Enter');
    await waitPath('/files/Docs/final-report.txt');
    await page.waitForSelector('[data-testid=search-overlay]', { state: 'detached' });
  });

  test('move: the Menu key opens the context menu, Move, a folder picked with keys', async () => {
    await load();
    await tabTo('[data-testid=item]');
    await jumpTo('move-me.txt', 'mo');
    await press('ContextMenu');
    await page.waitForSelector('[data-testid=context-menu]');
    for (let i = 0; i < 10 && (await focused()) !== 'menu-move'; i++) await press('ArrowDown');
    await press('Enter');
    await page.waitForSelector('[data-testid=prompt-move]');
    // The picker lists the folder once its answer is in (under load, later than 40 quick Tab presses take).
    await page.waitForSelector('[data-testid=picker-folder][data-name=Dest]');
    await tabTo('[data-testid=picker-folder][data-name=Dest]');
    await press('Space'); // picks it (Enter would submit the dialog)
    await page.waitForFunction(() => document.querySelector('[data-testid=prompt-destination]')?.textContent?.includes('/Dest/'));
    await press('Enter');
    await page.waitForSelector('[data-testid=prompt-move]', { state: 'detached' });
    // The app follows the items to their new folder (the user's default), the keyboard too.
    await waitPath('/files/Dest/');
    await waitFocus('move-me.txt');
    expect(existsSync(join(ws.root, 'Dest', 'move-me.txt'))).toBe(true);
    expect(existsSync(join(ws.root, 'move-me.txt'))).toBe(false);
    // Back up: the folder came from has the focus.
    await press('Backspace');
    await waitPath('/files/');
    await waitFocus('Dest');
  });

  test('delete: Del, Enter; into the trash, the next item takes the focus and the selection', async () => {
    await load();
    await tabTo('[data-testid=item]');
    await jumpTo('delete-me.txt', 'del');
    await press('Delete');
    await page.waitForSelector('[data-testid=prompt-delete] [data-testid=delete-where]');
    await press('Enter');
    await page.waitForSelector('[data-testid=prompt-delete]', { state: 'detached' });
    await waitFocus('keep-after.txt');
    expect(existsSync(join(ws.root, 'delete-me.txt'))).toBe(false);
    const trash = join(ws.root, '.filedeck-trash');
    const inTrash = existsSync(trash) && readdirSync(trash, { recursive: true }).some((p) => String(p).endsWith('delete-me.txt'));
    expect(inTrash).toBe(true);
    expect(await page.getAttribute('[data-testid=item][data-name="keep-after.txt"]', 'aria-selected')).toBe('true');
  });

  test('share: Shift+F10 menu, Share, a link is made and shown; Esc gives the focus back to the item', async () => {
    await load();
    await tabTo('[data-testid=item]');
    await jumpTo('share-me.txt', 'sh');
    await press('Shift+F10');
    await page.waitForSelector('[data-testid=context-menu]');
    for (let i = 0; i < 10 && (await focused()) !== 'menu-share'; i++) await press('ArrowDown');
    await press('Enter');
    await page.waitForSelector('[data-testid=prompt-share] [data-testid=share-link]');
    const href = await page.locator('[data-testid=share-link] a').first().getAttribute('href');
    expect(href).toMatch(/\/share\/[\w-]+$/);
    const hash = href!.split('/').pop();
    const res = await fetch(`${base}/api/public/share/${hash}`);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { name: string }).name).toBe('share-me.txt');
    await press('Escape');
    await page.waitForSelector('[data-testid=prompt-share]', { state: 'detached' });
    await waitFocus('share-me.txt');
  });

  test(`type-to-jump in a ${BIG.toLocaleString('en')}-item folder reaches an item that was not rendered`, async () => {
    await load('/files/Big/');
    await page.waitForFunction((n) => document.querySelector('[data-testid=item-count]')?.getAttribute('data-count') === String(n), BIG);
    const target = 'f-1789.txt';
    expect(await page.locator(`[data-testid=item][data-name="${target}"]`).count()).toBe(0);
    await tabTo('[data-testid=item]');
    await jumpTo(target, 'f-1789');
    expect(await page.getAttribute(`[data-testid=item][data-name="${target}"]`, 'aria-selected')).toBe('true');
    // one letter again after a pause steps to the next item starting with it, wrapping around
    await page.waitForTimeout(800);
    await page.keyboard.type('f');
    await waitFocus('f-1790.txt');
    expect(await page.locator('[data-testid=item][tabindex="0"]').count()).toBe(1);
  });

  test("'?' opens the help, listing the actions' shortcuts from their definitions; Esc returns to the item", async () => {
    await load();
    await tabTo('[data-testid=item]');
    await jumpTo('zeta.txt', 'z');
    await press('Shift+Slash');
    await page.waitForSelector('[data-testid=prompt-help]');
    const text = (await page.textContent('[data-testid=prompt-help]')) ?? '';
    for (const combo of ['Ctrl + F', 'F2', 'Del', 'Ctrl + S', 'F1 / ?', 'Backspace / Alt + ↑', 'Shift + ↑ ↓ ← →', 'Menu / Shift + F10']) expect(text).toContain(combo);
    expect(await page.textContent('[data-testid=help-action-rename]')).toContain('Rename');
    await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
    await shot(page, 'keyboard-help', { fullPage: false });
    await press('Escape');
    await page.waitForSelector('[data-testid=prompt-help]', { state: 'detached' });
    await waitFocus('zeta.txt');
  });

  test('the help and the skip link at 375 px dark and in Arabic (right to left): screenshots', async () => {
    for (const [name, width, scheme, locale] of [
      ['keyboard-help-375-dark', 375, 'dark', 'en'],
      ['keyboard-help-ar-1280', 1280, 'light', 'ar'],
    ] as const) {
      expect((await cli(['-d', ws.db, '-r', ws.root, 'users', 'update', 'admin', '--locale', locale])).code).toBe(0);
      const { context, page: p } = await newPage(s!.browser, { width, height: 800 });
      try {
        await p.emulateMedia({ colorScheme: scheme });
        await loginAs(p, base, 'admin', PW);
        await p.waitForSelector('[data-testid=item]');
        await p.keyboard.press('Tab');
        expect(await p.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('skip-to-files');
        await shot(p, `${name}-skip`, { fullPage: false });
        await p.keyboard.press('Enter');
        await p.keyboard.press('F1');
        await p.waitForSelector('[data-testid=prompt-help]');
        await p.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
        expect(await p.locator('[data-testid=help-action-rename] kbd').evaluate((el) => getComputedStyle(el).direction)).toBe('ltr');
        await shot(p, name, { fullPage: false });
      } finally {
        await context.close();
      }
    }
  });
});
