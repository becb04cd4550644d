import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { cli } from '../helpers/binary';
import { closeSession, loginAs, newPage, openSession, shot, workspace, type Session } from './browser';
import { expectAccessible } from './axe';

// Issue 16 item 4: a context menu on listing items (right-click, the Menu key, Shift+F10) offering the actions the
// selection allows, the same action objects as the header's buttons.
const ws = workspace('filedeck-context-menu-');
const PW = 'context-menu-admin-password-17';
let session: Session | undefined;
let page: Page;
let base = '';

beforeAll(async () => {
  mkdirSync(ws.root, { recursive: true });
  for (const name of ['alpha.txt', 'beta.txt', 'gamma.txt']) writeFileSync(join(ws.root, name), `${name} body`);
  // For the focus tests: a file to download, one to delete, the one after it, and an archive to extract.
  for (const name of ['k1-download.txt', 'k2-delete.txt', 'k3-after.txt']) writeFileSync(join(ws.root, name), `${name} body`);
  mkdirSync(join(ws.dir, 'pack', 'inside'), { recursive: true });
  writeFileSync(join(ws.dir, 'pack', 'inside', 'note.txt'), 'packed');
  expect(Bun.spawnSync(['zip', '-qr', join(ws.root, 'k0-pack.zip'), 'inside'], { cwd: join(ws.dir, 'pack') }).exitCode).toBe(0);
  session = await openSession(ws, PW);
  page = session.page;
  base = session.server.url;
});
afterAll(() => closeSession(ws, session));

const item = (name: string) => `[data-testid=item][data-name="${name}"]`;
const menuIds = () => page.locator('[data-testid=context-menu] [role=menuitem]').evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')));
const focusedId = () => page.evaluate(() => document.activeElement?.getAttribute('data-name') ?? document.activeElement?.getAttribute('data-testid'));
/** Waits until the keyboard focus is on the listing item `name` (the focus comes back after the menu's render). */
const waitItemFocus = (name: string, p: Page = page) =>
  p.waitForFunction((n) => {
    const el = document.activeElement as HTMLElement | null;
    return el?.dataset.testid === 'item' && el.dataset.name === n && !!el.closest('[data-testid=listing]');
  }, name);

async function listing(): Promise<void> {
  await page.goto(`${base}/files/`);
  await page.waitForSelector('[data-testid=item]');
}

describe('context menu', () => {
  test('right-click selects the item and offers its actions; Esc closes and gives the focus back; a click outside closes', async () => {
    await listing();
    await page.click(item('beta.txt'), { button: 'right' });
    await page.waitForSelector('[data-testid=context-menu]');
    expect(await page.getAttribute(item('beta.txt'), 'aria-selected')).toBe('true');
    const ids = await menuIds();
    for (const id of ['menu-share', 'menu-rename', 'menu-copy', 'menu-move', 'menu-delete', 'menu-download', 'menu-info']) expect(ids).toContain(id);
    expect(ids).not.toContain('menu-upload');
    // the menu is not inside the listbox, and axe finds nothing wrong with it
    expect(await page.locator('[role=listbox] [data-testid=context-menu]').count()).toBe(0);
    await expectAccessible(page, 'context menu');
    await shot(page, 'context-menu-light', { fullPage: false });
    expect(await focusedId()).toBe(ids[0]!);
    await page.keyboard.press('ArrowDown');
    expect(await focusedId()).toBe(ids[1]!);
    await page.keyboard.press('End');
    expect(await focusedId()).toBe(ids.at(-1)!);
    await page.keyboard.press('ArrowDown');
    expect(await focusedId()).toBe(ids[0]!);
    await page.keyboard.press('Escape');
    await page.waitForSelector('[data-testid=context-menu]', { state: 'detached' });
    await waitItemFocus('beta.txt');
    // Esc closed only the menu: the selection stays
    expect(await page.getAttribute(item('beta.txt'), 'aria-selected')).toBe('true');

    await page.click(item('gamma.txt'), { button: 'right' });
    await page.waitForSelector('[data-testid=context-menu]');
    await page.mouse.click(5, 790);
    await page.waitForSelector('[data-testid=context-menu]', { state: 'detached' });
  });

  test('on a multi-selection the menu keeps the selection and offers only what applies to several items; Delete deletes them', async () => {
    await listing();
    await page.click(item('alpha.txt'));
    await page.click(item('gamma.txt'), { modifiers: ['Control'] });
    await page.click(item('gamma.txt'), { button: 'right' });
    await page.waitForSelector('[data-testid=context-menu]');
    expect(await page.locator('[data-testid=item][aria-selected=true]').count()).toBe(2);
    const ids = await menuIds();
    expect(ids).toContain('menu-delete');
    // Rename on several items is the batch rename (tests/e2e/batch-rename.test.ts); sharing takes one.
    expect(ids).toContain('menu-rename');
    expect(ids).not.toContain('menu-share');
    await page.click('[data-testid=menu-delete]');
    await page.waitForSelector('[data-testid=prompt-delete]');
    await page.click('[data-testid=prompt-confirm]');
    await page.waitForSelector(item('alpha.txt'), { state: 'detached' });
    await page.waitForSelector(item('gamma.txt'), { state: 'detached' });
    expect(existsSync(join(ws.root, 'alpha.txt'))).toBe(false);
    expect(existsSync(join(ws.root, 'gamma.txt'))).toBe(false);
    expect(existsSync(join(ws.root, 'beta.txt'))).toBe(true);
  });

  test('keyboard only: Shift+F10 and the Menu key open it on the focused item; Enter runs Rename', async () => {
    await listing();
    await page.focus(item('beta.txt'));
    await page.keyboard.press('Shift+F10');
    await page.waitForSelector('[data-testid=context-menu]');
    await page.keyboard.press('Escape');
    await page.waitForSelector('[data-testid=context-menu]', { state: 'detached' });
    await waitItemFocus('beta.txt');
    await page.keyboard.press('ContextMenu');
    await page.waitForSelector('[data-testid=context-menu]');
    const ids = await menuIds();
    const steps = ids.indexOf('menu-rename');
    expect(steps).toBeGreaterThanOrEqual(0);
    for (let i = 0; i < steps; i++) await page.keyboard.press('ArrowDown');
    expect(await focusedId()).toBe('menu-rename');
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-testid=prompt-rename]');
    await page.waitForSelector('[data-testid=context-menu]', { state: 'detached' });
    await page.fill('[data-testid=prompt-input]', 'renamed.txt');
    await page.keyboard.press('Enter');
    await page.waitForSelector(item('renamed.txt'));
    expect(readFileSync(join(ws.root, 'renamed.txt'), 'utf8')).toBe('beta.txt body');
    expect(existsSync(join(ws.root, 'beta.txt'))).toBe(false);
  });

  test('dark theme: the open menu passes axe', async () => {
    await page.emulateMedia({ colorScheme: 'dark' });
    await listing();
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
    await page.click(item('renamed.txt'), { button: 'right' });
    await page.waitForSelector('[data-testid=context-menu]');
    await expectAccessible(page, 'context menu (dark)');
    await shot(page, 'context-menu-dark', { fullPage: false });
    await page.keyboard.press('Escape');
  });
});

// Keyboard and screen-reader users: whatever closes the menu from the keyboard (Esc, Tab, an action), the focus
// ends on a listing item, never on <body>. The menu's actions that open no prompt: Download of one file and Extract
// here; the others (share, rename, copy, move, delete, extract to, info, download of a folder or several items)
// open a prompt, which gives the focus back when it closes (the Delete case below: the item is gone).
describe('context menu: the focus comes back to the item', () => {
  const press = (key: string, p: Page = page) => p.keyboard.press(key);
  const menuGone = (p: Page = page) => p.waitForSelector('[data-testid=context-menu]', { state: 'detached' });

  /** Keyboard only from a fresh load: Tab into the list, then type-to-jump to `name` (typing `typed`). */
  async function focusByKeys(name: string, typed: string, p: Page = page): Promise<void> {
    await p.goto(`${base}/files/`);
    await p.waitForSelector('[data-testid=item]');
    await p.waitForSelector('#loading', { state: 'detached' });
    for (let n = 0; n < 40 && !(await p.evaluate(() => !!document.activeElement?.closest('[data-testid=item]'))); n++) await press('Tab', p);
    await p.keyboard.type(typed, { delay: 20 });
    await waitItemFocus(name, p);
  }

  /** Walks the open menu with the arrow keys to the action `id`. */
  async function choose(id: string, p: Page = page): Promise<void> {
    await p.waitForSelector('[data-testid=context-menu]');
    for (let i = 0; i < 15; i++) {
      if ((await p.evaluate(() => document.activeElement?.getAttribute('data-testid'))) === `menu-${id}`) return;
      await press('ArrowDown', p);
    }
    throw new Error(`menu-${id} not reached`);
  }

  test('keyboard only: Download of a file (no prompt) gives the focus back to the item; so do Esc and Tab', async () => {
    await focusByKeys('k1-download.txt', 'k1');
    await press('Shift+F10');
    await choose('download');
    const download = page.waitForEvent('download');
    await press('Enter');
    expect((await download).suggestedFilename()).toBe('k1-download.txt');
    await menuGone();
    await waitItemFocus('k1-download.txt');
    expect(await page.getAttribute(item('k1-download.txt'), 'aria-selected')).toBe('true');

    await press('ContextMenu');
    await choose('info');
    await press('Escape');
    await menuGone();
    await waitItemFocus('k1-download.txt');
    await press('Shift+F10');
    await choose('rename');
    await press('Tab');
    await menuGone();
    await waitItemFocus('k1-download.txt');
    // PageDown stays in the menu (the last action) rather than scrolling the page, which would close it.
    await press('ContextMenu');
    await choose('share');
    await press('PageDown');
    expect(await focusedId()).toBe((await menuIds()).at(-1)!);
    await press('Escape');
    await menuGone();
    await waitItemFocus('k1-download.txt');
    // Back on the item, the listing's keys work again: End moves on from it to the last item.
    const last = await page.locator('[data-testid=item]').last().getAttribute('data-name');
    expect(last).not.toBe('k1-download.txt');
    await press('End');
    await waitItemFocus(last!);
  });

  test('keyboard only: Extract here (a job, no prompt) gives the focus back to the archive, which keeps it when the folder appears', async () => {
    await focusByKeys('k0-pack.zip', 'k0');
    await press('ContextMenu');
    await choose('extract');
    await press('Enter');
    await menuGone();
    await waitItemFocus('k0-pack.zip');
    // The job ends and the listing reloads with the new folder first, moving the archive down a place.
    await page.waitForSelector('[data-testid=item][data-name="k0-pack"]');
    expect(existsSync(join(ws.root, 'k0-pack', 'inside', 'note.txt'))).toBe(true);
    await waitItemFocus('k0-pack.zip');
  });

  test('keyboard only: Delete from the menu; the item is gone and the one now in its place takes the focus', async () => {
    await focusByKeys('k2-delete.txt', 'k2');
    await press('Shift+F10');
    await choose('delete');
    await press('Enter');
    await page.waitForSelector('[data-testid=prompt-delete]');
    await press('Enter');
    await page.waitForSelector(item('k2-delete.txt'), { state: 'detached' });
    await waitItemFocus('k3-after.txt');
    expect(await page.getAttribute(item('k3-after.txt'), 'aria-selected')).toBe('true');
  });

  test('mouse: a right-click on an item without the focus, then Download, leaves the focus on that item', async () => {
    await focusByKeys('k1-download.txt', 'k1');
    await page.click(item('k3-after.txt'), { button: 'right' });
    await page.waitForSelector('[data-testid=context-menu]');
    const download = page.waitForEvent('download');
    await page.click('[data-testid=menu-download]');
    expect((await download).suggestedFilename()).toBe('k3-after.txt');
    await menuGone();
    await waitItemFocus('k3-after.txt');
    // and Esc after a right-click
    await page.click(item('k1-download.txt'), { button: 'right' });
    await page.waitForSelector('[data-testid=context-menu]');
    await press('Escape');
    await menuGone();
    await waitItemFocus('k1-download.txt');
  });

  test('the focused item after the menu closes: screenshots at 1280 and 375 px, light, dark and Arabic', async () => {
    for (const [name, width, scheme, locale] of [
      ['context-menu-focus-1280-light', 1280, 'light', 'en'],
      ['context-menu-focus-1280-dark', 1280, 'dark', 'en'],
      ['context-menu-focus-375-light', 375, 'light', 'en'],
      ['context-menu-focus-375-dark', 375, 'dark', 'en'],
      ['context-menu-focus-ar-1280', 1280, 'light', 'ar'],
      ['context-menu-focus-ar-375-dark', 375, 'dark', 'ar'],
    ] as const) {
      expect((await cli(['-d', ws.db, '-r', ws.root, 'users', 'update', 'admin', '--locale', locale])).code).toBe(0);
      const { context, page: p } = await newPage(session!.browser, { width, height: 800 });
      try {
        await p.emulateMedia({ colorScheme: scheme });
        await loginAs(p, base, 'admin', PW);
        await p.waitForFunction((l) => document.documentElement.lang === l, locale);
        await focusByKeys('k1-download.txt', 'k1', p);
        await press('Shift+F10', p);
        await choose('download', p);
        const download = p.waitForEvent('download');
        await press('Enter', p);
        await download;
        await menuGone(p);
        await waitItemFocus('k1-download.txt', p);
        await p.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
        await shot(p, name, { fullPage: false });
      } finally {
        await context.close();
      }
    }
  });
});
