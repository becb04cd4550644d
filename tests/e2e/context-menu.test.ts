import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { closeSession, openSession, shot, workspace, type Session } from './browser';
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
  session = await openSession(ws, PW);
  page = session.page;
  base = session.server.url;
});
afterAll(() => closeSession(ws, session));

const item = (name: string) => `[data-testid=item][data-name="${name}"]`;
const menuIds = () => page.locator('[data-testid=context-menu] [role=menuitem]').evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')));
const focusedId = () => page.evaluate(() => document.activeElement?.getAttribute('data-name') ?? document.activeElement?.getAttribute('data-testid'));

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
    expect(await focusedId()).toBe('beta.txt');
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
    expect(await focusedId()).toBe('beta.txt');
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
