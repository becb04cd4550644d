import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import type { RunningServer } from '../helpers/binary';
import { settled } from '../helpers/settle';
import { closeSession, newPage, openSession, shot, workspace, type Session } from './browser';

// Undo of delete, rename and drag-and-drop move (toast and Ctrl+Z), the delete prompt's wording, and the Trash screen.
const ws = workspace('filedeck-trash-undo-');
const { root } = ws;
const PW = 'trash-admin-password-51';
let server: RunningServer;
let page: Page;
let session: Session | undefined;

beforeAll(async () => {
  mkdirSync(join(root, 'Docs'), { recursive: true });
  mkdirSync(join(root, 'Target'), { recursive: true });
  writeFileSync(join(root, 'Docs', 'plan.txt'), 'the plan');
  writeFileSync(join(root, 'Docs', 'notes.txt'), 'notes');
  writeFileSync(join(root, 'hello.txt'), 'hello');
  writeFileSync(join(root, 'drag.txt'), 'drag me');
  session = await openSession(ws, PW);
  ({ server, page } = session);
});
afterAll(() => closeSession(ws, session));

const ls = (...p: string[]) => readdirSync(join(root, ...p)).filter((n) => !n.startsWith('.filedeck-')).sort();
const token = () => page.evaluate(() => localStorage.getItem('jwt')) as Promise<string>;
const api = async (method: string, path: string, body?: unknown) =>
  fetch(`${server.url}/api${path}`, { method, headers: { 'X-Auth': await token(), 'Content-Type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });

async function open(path: string): Promise<void> {
  await page.goto(`${server.url}/files${path}`);
  await page.waitForSelector('[data-testid=listing]');
}

async function until(check: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if (await check()) return;
    await page.waitForTimeout(100);
  }
  throw new Error(`timed out waiting for ${what}`);
}

async function deleteWithPrompt(name: string): Promise<void> {
  await page.click(`[data-name="${name}"]`);
  await page.keyboard.press('Delete');
  await page.waitForSelector('[data-testid=prompt-delete]');
  await page.waitForSelector('[data-testid=delete-where]');
}

describe('undo', () => {
  test('delete says "moves to the trash"; Undo in the toast restores it', async () => {
    await open('/Docs/');
    await deleteWithPrompt('plan.txt');
    expect(await page.textContent('[data-testid=delete-where]')).toContain('moves to the trash');
    await shot(page, 'trash-delete-prompt');
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-name="plan.txt"]', { state: 'detached' });
    expect(ls('Docs')).toEqual(['notes.txt']);
    await page.waitForSelector('[data-testid=undo-toast]');
    expect(await page.textContent('[data-testid=undo-toast]')).toContain('Moved to the trash');
    await shot(page, 'trash-undo-toast');
    await page.click('[data-testid=undo-button]');
    await page.waitForSelector('[data-name="plan.txt"]');
    expect(readFileSync(join(root, 'Docs', 'plan.txt'), 'utf8')).toBe('the plan');
    expect(await page.isVisible('[data-testid=undo-toast]')).toBe(false);
  });

  test('Ctrl+Z undoes the last delete', async () => {
    await open('/Docs/');
    await deleteWithPrompt('notes.txt');
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-name="notes.txt"]', { state: 'detached' });
    await page.keyboard.press('Control+z');
    await page.waitForSelector('[data-name="notes.txt"]');
    expect(ls('Docs')).toEqual(['notes.txt', 'plan.txt']);
    // Once undone, a second Ctrl+Z has nothing left to do.
    await page.keyboard.press('Control+z');
    await page.waitForTimeout(300);
    expect(ls('Docs')).toEqual(['notes.txt', 'plan.txt']);
  });

  test('a rename is undone from the toast and with Ctrl+Z', async () => {
    await open('/Docs/');
    await page.click('[data-name="plan.txt"]');
    await page.keyboard.press('F2');
    await page.waitForSelector('[data-testid=prompt-rename]');
    await page.fill('[data-testid=prompt-input]', 'roadmap.txt');
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-name="roadmap.txt"]');
    expect(await page.textContent('[data-testid=undo-toast]')).toContain('Renamed');
    await page.keyboard.press('Control+z');
    await page.waitForSelector('[data-name="plan.txt"]');
    expect(ls('Docs')).toEqual(['notes.txt', 'plan.txt']);
  });

  test('a drag-and-drop move is undone from the toast', async () => {
    await open('/');
    await page.dragAndDrop('[data-name="drag.txt"]', '[data-name=Target]');
    await until(() => existsSync(join(root, 'Target', 'drag.txt')), 'the dragged file');
    await page.waitForSelector('[data-testid=undo-toast]');
    expect(await page.textContent('[data-testid=undo-toast]')).toContain('Item moved');
    await page.click('[data-testid=undo-button]');
    await until(() => existsSync(join(root, 'drag.txt')), 'the file moved back');
    // The move back links drag.txt before it unlinks Target/drag.txt: wait for the old name to go too.
    expect(await settled(() => ls('Target'), [])).toEqual([]);
    await page.waitForSelector('[data-name="drag.txt"]');
  });
});

describe('trash screen', () => {
  test('lists what was deleted; restore asks replace / keep both on a clash; delete forever and empty confirm', async () => {
    await open('/');
    await deleteWithPrompt('hello.txt');
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-name="hello.txt"]', { state: 'detached' });
    await open('/Docs/');
    await deleteWithPrompt('notes.txt');
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-name="notes.txt"]', { state: 'detached' });
    writeFileSync(join(root, 'hello.txt'), 'a new hello');

    await page.click('[data-testid=nav-trash]');
    await page.waitForSelector('[data-testid=trash-table]');
    // The table first shows the list the delete prompt loaded (before the second delete), then the fresh one.
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=trash-row]').length === 2);
    expect(await page.textContent('[data-name="notes.txt"] [data-testid=trash-origin]')).toBe('/Docs');
    expect(await page.textContent('[data-testid=trash-note]')).toContain('30 days');
    await shot(page, 'trash-screen');

    await page.click('[data-name="hello.txt"] [data-testid=trash-restore]');
    await page.waitForSelector('[data-testid=prompt-replace]');
    await shot(page, 'trash-restore-clash');
    await page.click('[data-testid=prompt-rename]');
    await page.waitForSelector('[data-name="hello.txt"]', { state: 'detached' });
    expect(readFileSync(join(root, 'hello(1).txt'), 'utf8')).toBe('hello');
    expect(readFileSync(join(root, 'hello.txt'), 'utf8')).toBe('a new hello');

    await page.click('[data-name="notes.txt"] [data-testid=trash-delete]');
    await page.waitForSelector('[data-testid=confirm-dialog]');
    await page.click('[data-testid=confirm-cancel]');
    expect(await page.locator('[data-testid=trash-row]').count()).toBe(1);
    await page.click('[data-testid=trash-empty-all]');
    await page.waitForSelector('[data-testid=confirm-dialog]');
    await shot(page, 'trash-empty-confirm');
    await page.click('[data-testid=confirm-ok]');
    await page.waitForSelector('[data-testid=trash-empty]');
    expect(existsSync(join(root, 'Docs', 'notes.txt'))).toBe(false);
  });

  test('screenshots: phone width, dark, and a right-to-left language', async () => {
    await open('/Docs/');
    await deleteWithPrompt('plan.txt');
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-testid=undo-toast]');
    const { context, page: phone } = await newPage(session!.browser, { width: 375, height: 740 });
    await phone.goto(`${server.url}/login`);
    await phone.evaluate((t) => localStorage.setItem('jwt', t), await token());
    await phone.goto(`${server.url}/trash`);
    await phone.waitForSelector('[data-testid=trash-table]');
    await shot(phone, 'trash-screen-375');
    expect((await api('PUT', '/users/1', { what: 'user', which: ['theme', 'locale'], data: { id: 1, theme: 'dark', locale: 'ar' } })).status).toBe(200);
    await phone.reload();
    await phone.waitForSelector('[data-testid=trash-table]');
    expect(await phone.getAttribute('html', 'dir')).toBe('rtl');
    await shot(phone, 'trash-screen-375-dark-rtl');
    await page.reload();
    await page.waitForSelector('[data-testid=trash-table], [data-testid=listing]');
    await page.goto(`${server.url}/trash`);
    await page.waitForSelector('[data-testid=trash-table]');
    await shot(page, 'trash-screen-dark-rtl');
    expect((await api('PUT', '/users/1', { what: 'user', which: ['theme', 'locale'], data: { id: 1, theme: '', locale: 'en' } })).status).toBe(200);
    await context.close();
  });

  test('with the trash off the prompt says the delete is permanent and Enter cancels (Cancel has the focus)', async () => {
    expect((await api('PUT', '/settings', { trash: { enabled: false } })).status).toBe(200);
    writeFileSync(join(root, 'Docs', 'gone.txt'), 'for good');
    await open('/Docs/');
    await deleteWithPrompt('gone.txt');
    await page.waitForFunction(() => document.querySelector('[data-testid=delete-where]')?.textContent?.includes('permanently'));
    await page.waitForFunction(() => document.activeElement?.getAttribute('data-testid') === 'prompt-cancel');
    expect(await page.textContent('[data-testid=prompt-confirm]')).toBe('Delete permanently');
    await shot(page, 'trash-off-delete-prompt');
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-testid=prompt-delete]', { state: 'detached' });
    expect(ls('Docs')).toContain('gone.txt');
    // Still selected: Delete again, and this time the button.
    await page.keyboard.press('Delete');
    await page.waitForSelector('[data-testid=delete-where]');
    await page.waitForFunction(() => document.activeElement?.getAttribute('data-testid') === 'prompt-cancel');
    await page.click('[data-testid=prompt-confirm]');
    await page.waitForSelector('[data-name="gone.txt"]', { state: 'detached' });
    expect(ls('Docs')).toEqual([]);
    expect((await (await api('GET', '/trash')).json()).items.map((i: { name: string }) => i.name)).toEqual(['plan.txt']);
    expect((await api('PUT', '/settings', { trash: { enabled: true } })).status).toBe(200);
  });
});
