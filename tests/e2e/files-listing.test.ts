import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { cli, startServer, type RunningServer } from '../helpers/binary';
import { launch, loginThroughForm, newPage, shot } from './browser';

// The listing: browsing, breadcrumbs, view modes, sorting, selection, large folders, narrow screens.
const dir = mkdtempSync(join(tmpdir(), 'filedeck-files-listing-'));
const db = join(dir, 'filedeck.db');
const root = join(dir, 'files');
const PW = 'listing-admin-password-42';
const BIG = 10_000;
let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  mkdirSync(join(root, 'Documents', 'Reports', '2026', 'Q1'), { recursive: true });
  mkdirSync(join(root, 'Empty'));
  mkdirSync(join(root, 'Alpha'));
  writeFileSync(join(root, 'Documents', 'Reports', '2026', 'Q1', 'deep.txt'), 'deep');
  writeFileSync(join(root, 'a-small.txt'), 'x');
  writeFileSync(join(root, 'b-large.bin'), 'x'.repeat(30_000));
  writeFileSync(join(root, 'c-medium.md'), 'x'.repeat(2_000));
  writeFileSync(join(root, 'd-tiny.txt'), 'xy');
  mkdirSync(join(root, 'Big'));
  for (let i = 0; i < BIG; i++) writeFileSync(join(root, 'Big', `file-${String(i).padStart(5, '0')}.txt`), '');
  server = await startServer(['-d', db, '-r', root, '--password', PW, '--log', ''], { cwd: dir });
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function login(page: Page, user = 'admin', password = PW): Promise<void> {
  await page.goto(`${server.url}/login`);
  await loginThroughForm(page, user, password);
  await page.waitForURL(`${server.url}/files/`);
  await page.waitForSelector('[data-testid=item]');
}

/** The user as the server stores it, read with the page's own token. */
async function serverUser(page: Page): Promise<{ viewMode: string; sorting: { by: string; asc: boolean } }> {
  const token = await page.evaluate(() => localStorage.getItem('jwt'));
  const res = await fetch(`${server.url}/api/users/1`, { headers: { 'X-Auth': token! } });
  return res.json() as Promise<{ viewMode: string; sorting: { by: string; asc: boolean } }>;
}

const names = (page: Page, section?: 'dir' | 'file') =>
  page.locator(section ? `[data-testid=item][data-dir="${section === 'dir'}"]` : '[data-testid=item]').evaluateAll((els) => els.map((e) => e.getAttribute('data-name')));
const selectedNames = (page: Page) => page.locator('[data-testid=item][aria-selected=true]').evaluateAll((els) => els.map((e) => e.getAttribute('data-name')));

describe('files listing', () => {
  test('browsing by double click, breadcrumbs collapsed past three levels, page titles, the lonely and error pages', async () => {
    const { context, page } = await newPage(browser);
    await login(page);
    expect(await names(page, 'dir')).toEqual(['Alpha', 'Big', 'Documents', 'Empty']);
    // A single click selects and does not navigate.
    await page.click('[data-name=Documents]');
    expect(await page.getAttribute('[data-name=Documents]', 'aria-selected')).toBe('true');
    expect(new URL(page.url()).pathname).toBe('/files/');
    await page.dblclick('[data-name=Documents]');
    await page.waitForURL(`${server.url}/files/Documents/`);
    await page.dblclick('[data-name=Reports]');
    await page.dblclick('[data-name="2026"]');
    await page.dblclick('[data-name=Q1]');
    await page.waitForURL(`${server.url}/files/Documents/Reports/2026/Q1/`);
    await page.waitForSelector('[data-name="deep.txt"]');
    const crumbs = await page.locator('[data-testid=crumb]').allTextContents();
    expect(crumbs).toEqual(['Reports', '2026', 'Q1']);
    expect(await page.textContent('[data-testid=crumb-collapsed]')).toBe('...');
    expect(await page.title()).toBe('Q1 - Filedeck');
    await shot(page, 'files-breadcrumbs-deep');
    await page.click('[data-testid=crumb-collapsed]');
    await page.waitForURL(`${server.url}/files/Documents/`);
    await page.click('[data-testid=crumb-home]');
    await page.waitForURL(`${server.url}/files/`);
    await page.dblclick('[data-name=Empty]');
    await page.waitForSelector('[data-testid=empty]');
    expect(await page.textContent('[data-testid=empty]')).toContain('It feels lonely here');
    // Ctrl+F and the header's search button open the search over the listing.
    await page.keyboard.press('Control+f');
    await page.waitForSelector('[data-testid=search-overlay]');
    await page.click('[data-testid=search-close]');
    await page.waitForSelector('[data-testid=search-overlay]', { state: 'detached' });
    await page.click('[data-testid=action-search]');
    await page.waitForSelector('[data-testid=search-overlay]');
    await page.goto(`${server.url}/files/does-not-exist/`);
    await page.waitForSelector('[data-testid=error-state]');
    expect(await page.getAttribute('[data-testid=error-state]', 'data-status')).toBe('404');
    expect(await page.textContent('[data-testid=error-state]')).toContain("This location can't be reached.");
    expect(existsSync(join(root, 'does-not-exist'))).toBe(false);
    await context.close();
  });

  test('the view button cycles list, mosaic and mosaic gallery and saves the choice to the user', async () => {
    const { context, page } = await newPage(browser);
    await login(page);
    const seen: string[] = [];
    for (let i = 0; i < 3; i++) {
      const before = await page.getAttribute('[data-testid=listing]', 'data-mode');
      await page.click('[data-testid=action-view]');
      await page.waitForFunction((b) => document.querySelector('[data-testid=listing]')?.getAttribute('data-mode') !== b, before);
      const mode = (await page.getAttribute('[data-testid=listing]', 'data-mode'))!;
      seen.push(mode);
      await shot(page, `files-view-${mode.replace(' ', '-')}`);
      let stored = '';
      for (let tries = 0; tries < 50 && stored !== mode; tries++) {
        stored = (await serverUser(page)).viewMode;
        if (stored !== mode) await page.waitForTimeout(100);
      }
      expect(stored).toBe(mode);
    }
    expect([...seen].sort()).toEqual(['list', 'mosaic', 'mosaic gallery']);
    // The choice survives a reload (it comes back with the user).
    const last = seen[2]!;
    await page.reload();
    await page.waitForSelector('[data-testid=listing]');
    expect(await page.getAttribute('[data-testid=listing]', 'data-mode')).toBe(last);
    await context.close();
  });

  test('sort headers toggle the direction, save the sorting and reload in the new order', async () => {
    const { context, page } = await newPage(browser);
    await login(page);
    await page.click('[data-testid=sort-size]');
    await page.waitForFunction(() => document.querySelector('[data-testid=sort-size]')?.getAttribute('aria-pressed') === 'true');
    await page.waitForFunction(() => document.querySelector('[data-testid=item][data-dir=false]')?.getAttribute('data-name') === 'b-large.bin');
    expect(await names(page, 'file')).toEqual(['b-large.bin', 'c-medium.md', 'd-tiny.txt', 'a-small.txt']);
    expect((await serverUser(page)).sorting).toEqual({ by: 'size', asc: false });
    expect(await page.getAttribute('[data-testid=sort-size]', 'data-direction')).toBe('down');
    await shot(page, 'files-sorted-size');
    await page.click('[data-testid=sort-size]');
    await page.waitForFunction(() => document.querySelector('[data-testid=item][data-dir=false]')?.getAttribute('data-name') === 'a-small.txt');
    expect(await names(page, 'file')).toEqual(['a-small.txt', 'd-tiny.txt', 'c-medium.md', 'b-large.bin']);
    expect((await serverUser(page)).sorting).toEqual({ by: 'size', asc: true });
    // Names: the server's asc=false is A→Z, shown with the arrow up; a second click gives Z→A.
    await page.click('[data-testid=sort-name]');
    await page.waitForFunction(() => document.querySelector('[data-testid=sort-name]')?.getAttribute('data-direction') === 'up');
    await page.waitForFunction(() => document.querySelector('[data-testid=item][data-dir=false]')?.getAttribute('data-name') === 'a-small.txt');
    expect(await names(page, 'file')).toEqual(['a-small.txt', 'b-large.bin', 'c-medium.md', 'd-tiny.txt']);
    expect((await serverUser(page)).sorting).toEqual({ by: 'name', asc: false });
    await page.click('[data-testid=sort-name]');
    await page.waitForFunction(() => document.querySelector('[data-testid=item][data-dir=false]')?.getAttribute('data-name') === 'd-tiny.txt');
    expect(await names(page, 'dir')).toEqual(['Empty', 'Documents', 'Big', 'Alpha']);
    expect((await serverUser(page)).sorting).toEqual({ by: 'name', asc: true });
    await page.click('[data-testid=sort-name]');
    await page.waitForFunction(() => document.querySelector('[data-testid=item][data-dir=false]')?.getAttribute('data-name') === 'a-small.txt');
    await context.close();
  });

  test('selection by click, ctrl-click, shift-click, multiple-selection mode, Ctrl+A and Esc', async () => {
    const { context, page } = await newPage(browser);
    await login(page);
    await page.click('[data-name="a-small.txt"]');
    expect(await selectedNames(page)).toEqual(['a-small.txt']);
    await page.click('[data-name="c-medium.md"]', { modifiers: ['Control'] });
    expect(await selectedNames(page)).toEqual(['a-small.txt', 'c-medium.md']);
    // A plain click replaces the selection; shift-click extends it as a range in display order.
    await page.click('[data-name=Big]');
    await page.click('[data-name="b-large.bin"]', { modifiers: ['Shift'] });
    expect(await selectedNames(page)).toEqual(['Big', 'Documents', 'Empty', 'a-small.txt', 'b-large.bin']);
    expect(await page.textContent('[data-testid=action-download] .icon-btn__badge')).toBe('5');
    await shot(page, 'files-selection-range');
    // Share needs exactly one item; rename on several opens the batch rename (tests/e2e/batch-rename.test.ts).
    expect(await page.locator('[data-testid=action-share]').count()).toBe(0);
    expect(await page.locator('[data-testid=action-rename]').count()).toBe(1);
    await page.keyboard.press('Escape');
    expect(await selectedNames(page)).toEqual([]);
    expect(await page.locator('[data-testid=action-delete]').count()).toBe(0);
    await page.keyboard.press('Control+a');
    expect((await selectedNames(page)).length).toBe(8);
    // Delete asks first; cancelling leaves everything in place.
    await page.keyboard.press('Delete');
    await page.waitForSelector('[data-testid=prompt-delete]');
    expect(await page.textContent('[data-testid=prompt-delete]')).toContain('delete 8 files');
    await page.keyboard.press('Escape');
    await page.waitForSelector('[data-testid=prompt-delete]', { state: 'detached' });
    expect(readdirSync(root).filter((n) => !n.startsWith('.filedeck-')).sort()).toEqual(['Alpha', 'Big', 'Documents', 'Empty', 'a-small.txt', 'b-large.bin', 'c-medium.md', 'd-tiny.txt']);
    expect((await selectedNames(page)).length).toBe(8);
    await page.keyboard.press('Escape');
    // Multiple-selection mode: plain clicks add.
    await page.click('[data-testid=action-multiple]');
    expect(await page.getAttribute('[data-testid=action-multiple]', 'aria-pressed')).toBe('true');
    await page.click('[data-name="a-small.txt"]');
    await page.click('[data-name="d-tiny.txt"]');
    expect(await selectedNames(page)).toEqual(['a-small.txt', 'd-tiny.txt']);
    await page.click('[data-name="a-small.txt"]');
    expect(await selectedNames(page)).toEqual(['d-tiny.txt']);
    expect(await page.locator('[data-testid=action-rename]').count()).toBe(1);
    // Leaving the folder resets the selection and the mode.
    await page.dblclick('[data-name=Alpha]');
    await page.waitForURL(`${server.url}/files/Alpha/`);
    expect(await page.getAttribute('[data-testid=action-multiple]', 'aria-pressed')).toBe('false');
    await context.close();
  });

  test('a folder of 10,000 files renders only the rows in view, as the window scrolls', async () => {
    const { context, page } = await newPage(browser);
    await login(page);
    await page.goto(`${server.url}/files/Big/`);
    await page.waitForSelector('[data-testid=item]');
    // The first rows show while the folder still streams in (256 items a batch): the count is whole once it is all here.
    await page.waitForFunction((n) => document.querySelector('[data-testid=listing]')?.getAttribute('data-total') === n, String(BIG));
    const first = await page.locator('[data-testid=item]').count();
    expect(first).toBeGreaterThan(0);
    expect(first).toBeLessThan(200);
    // The page is as tall as every item (virtualised rows), far taller than Chromium captures: the window only.
    await shot(page, 'files-big-folder', { fullPage: false });
    for (let i = 0; i < 6; i++) {
      await page.mouse.wheel(0, 4000);
      await page.waitForTimeout(50);
    }
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await page.waitForSelector(`[data-name="file-${String(BIG - 1).padStart(5, '0')}.txt"]`);
    const later = await page.locator('[data-testid=item]').count();
    expect(later).toBeGreaterThan(0);
    expect(later).toBeLessThan(200);
    // Ctrl+A still selects every item, rendered or not.
    await page.keyboard.press('Control+a');
    expect(await page.textContent('[data-testid=action-download] .icon-btn__badge')).toBe(String(BIG));
    await context.close();
  });

  test('at 375 px the selection actions move to a bottom bar with the selected count', async () => {
    const { context, page } = await newPage(browser, { width: 375, height: 740 });
    await login(page);
    expect(await page.isVisible('[data-testid=selection-bar]')).toBe(false);
    await page.click('[data-name="d-tiny.txt"]');
    await page.waitForSelector('[data-testid=selection-bar]', { state: 'visible' });
    expect(await page.textContent('[data-testid=selection-count]')).toBe('1 item selected');
    // The header keeps no selection actions; the bar has them.
    expect(await page.isVisible('[data-testid=action-delete]')).toBe(false);
    // One row: the actions that do not fit beside the count are in More (selection-bar-phone.test.ts).
    expect(await page.isVisible('[data-testid=bar-rename]')).toBe(true);
    expect(await page.isVisible('[data-testid=selection-more]')).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await page.click('[data-name="a-small.txt"]', { modifiers: ['Control'] });
    expect(await page.textContent('[data-testid=selection-count]')).toBe('2 items selected');
    await page.evaluate(() => window.scrollTo(0, 0));
    await shot(page, 'files-mobile-selection');
    await page.click('[data-name="a-small.txt"]', { modifiers: ['Control'] });
    await page.click('[data-testid=selection-more]');
    await page.click('[data-testid=menu-delete]');
    await page.waitForSelector('[data-testid=prompt-delete]');
    await page.evaluate(() => window.scrollTo(0, 0));
    await shot(page, 'files-mobile-delete-prompt');
    await page.click('[data-testid=prompt-confirm]');
    await page.waitForSelector('[data-name="d-tiny.txt"]', { state: 'detached' });
    expect(existsSync(join(root, 'd-tiny.txt'))).toBe(false);
    expect(await page.isVisible('[data-testid=selection-bar]')).toBe(false);
    await context.close();
  });

  test('permissions gate the actions; the single-click preference opens on one click', async () => {
    const add = await cli(['-d', db, '-r', root, 'users', 'add', 'reader', 'reader-password-123', '--perm.create', 'false', '--perm.rename', 'false', '--perm.delete', 'false', '--perm.share', 'false', '--perm.modify', 'false', '--perm.download', 'true', '--singleClick', 'true', '--viewMode', 'list']);
    expect(add.code).toBe(0);
    const { context, page } = await newPage(browser);
    await login(page, 'reader', 'reader-password-123');
    expect(await page.locator('[data-testid=new-folder], [data-testid=new-file], [data-testid=action-upload], [data-testid=action-shell]').count()).toBe(0);
    expect(await page.getAttribute('[data-name="a-small.txt"]', 'draggable')).toBe('false');
    await page.click('[data-name="a-small.txt"]', { modifiers: ['Control'] });
    expect(await page.getAttribute('[data-name="a-small.txt"]', 'aria-selected')).toBe('true');
    expect(await page.locator('[data-testid=action-delete], [data-testid=action-rename], [data-testid=action-move], [data-testid=action-copy], [data-testid=action-share]').count()).toBe(0);
    expect(await page.locator('[data-testid=action-download]').count()).toBe(1);
    await page.keyboard.press('Delete');
    await page.keyboard.press('F2');
    expect(await page.locator('[data-testid=overlay]').count()).toBe(0);
    await shot(page, 'files-read-only-user');
    // Single click: a plain click opens the folder.
    await page.click('[data-name=Alpha]');
    await page.waitForURL(`${server.url}/files/Alpha/`);
    expect(existsSync(join(root, 'a-small.txt'))).toBe(true);
    await context.close();
  });
});
