import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { cli, type RunningServer } from '../helpers/binary';
import { closeSession, newPage, openSession, shot, workspace, type Session } from './browser';
import { login, put } from './viewers-fixture';

// The text editor (spec §2 Files view: editor for text and textImmutable) in Debian's Chromium.
const ws = workspace('filedeck-viewers-editor-');
const { db, root } = ws;
const PW = 'viewers-admin-password-52';
const READER_PW = 'viewers-reader-password-52';
let server: RunningServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let session: Session | undefined;

const disk = (rel: string) => readFileSync(join(root, rel), 'utf8');

beforeAll(async () => {
  put(root, 'docs/notes.txt', 'first line\nsecond line\n');
  put(root, 'docs/app.ts', 'export function hello(name: string): string {\n  // greet\n  return `hi ${name}`;\n}\n');
  put(root, 'docs/gone.md', '# soon deleted\n');
  put(root, 'big.log', Array.from({ length: 60000 }, (_, i) => `line ${i} lorem ipsum dolor sit amet, consectetur adipiscing`).join('\n'));
  session = await openSession(ws, PW, [], async () => {
    const add = await cli(['-d', db, '-r', root, 'users', 'add', 'reader', READER_PW, '--perm.modify', 'false', '--perm.download', 'true']);
    expect(add.code).toBe(0);
  });
  ({ server, browser, context, page } = session);
});
afterAll(() => closeSession(ws, session));

/**
 * Opens a text file: it opens in the editor, ready to type (spec §2), read-only for a user without modify. Markdown
 * opens rendered first: the E key switches it to the editor.
 */
async function openEditor(p: Page, rel: string, readOnly = false): Promise<void> {
  await p.goto(`${server.url}/files/${rel}`);
  if (rel.endsWith('.md')) {
    await p.waitForSelector('[data-testid=markdown]');
    await p.keyboard.press('e');
  }
  await p.waitForSelector(`[data-testid=editor][data-readonly=${readOnly}] [data-testid=editor-host][data-status=ready] .cm-content`);
}

/** Types at the end of the document. */
async function typeAtEnd(p: Page, text: string): Promise<void> {
  await p.click('.cm-content');
  await p.keyboard.press('Control+End');
  await p.keyboard.type(text);
}

describe('editor', () => {
  test('a text file opens in the editor with the caret in it: typing at once edits the file', async () => {
    await openEditor(page, 'docs/notes.txt');
    await page.waitForFunction(() => !!document.activeElement?.closest('.cm-editor'));
    expect(await page.locator('[data-testid=viewer-edit]').count()).toBe(0);
    await page.keyboard.type('0 ');
    await page.waitForSelector('[data-testid=editor-dirty]');
    await page.keyboard.press('Control+s');
    await page.waitForSelector('[data-testid=editor-dirty]', { state: 'detached' });
    expect(disk('docs/notes.txt')).toBe('0 first line\nsecond line\n');
    put(root, 'docs/notes.txt', 'first line\nsecond line\n');
  });

  test('edits are saved with the Save button and with Ctrl+S', async () => {
    await openEditor(page, 'docs/notes.txt');
    expect(await page.textContent('[data-testid=editor-name]')).toBe('notes.txt');
    expect(await page.textContent('.cm-content')).toContain('second line');
    expect(await page.locator('[data-testid=editor-dirty]').count()).toBe(0);
    await typeAtEnd(page, 'third line');
    await page.waitForSelector('[data-testid=editor-dirty]');
    await shot(page, 'viewers-editor-dirty');
    await page.click('[data-testid=editor-save]');
    await page.waitForSelector('[data-testid=notice-success]');
    await page.waitForSelector('[data-testid=editor-dirty]', { state: 'detached' });
    expect(disk('docs/notes.txt')).toBe('first line\nsecond line\nthird line');
    await shot(page, 'viewers-editor-saved');

    await typeAtEnd(page, '\nfourth line');
    await page.keyboard.press('Control+s');
    await page.waitForSelector('[data-testid=editor-dirty]', { state: 'detached' });
    expect(disk('docs/notes.txt')).toBe('first line\nsecond line\nthird line\nfourth line');
  });

  test('a language mode is chosen from the file name', async () => {
    await openEditor(page, 'docs/app.ts');
    // once the TypeScript mode has loaded, keywords get their own highlighting spans
    await page.waitForFunction(() => [...document.querySelectorAll('.cm-line span')].some((s) => s.textContent === 'function'));
    await shot(page, 'viewers-editor-typescript');
  });

  test('unsaved changes are guarded: closing, the Back button and unloading ask first', async () => {
    // opened from the listing, so Back stays inside the app
    await page.goto(`${server.url}/files/docs/`);
    await page.dblclick('[data-testid=item][data-name="notes.txt"]');
    await page.waitForSelector('[data-testid=editor][data-readonly=false] [data-testid=editor-host][data-status=ready] .cm-content');
    await typeAtEnd(page, '\nnot to be kept');

    await page.click('[data-testid=editor-close]');
    await page.waitForSelector('[data-testid=editor-discard-dialog]');
    await shot(page, 'viewers-editor-discard');
    await page.click('[data-testid=editor-keep]');
    await page.waitForSelector('[data-testid=editor-discard-dialog]', { state: 'detached' });
    expect(new URL(page.url()).pathname).toBe('/files/docs/notes.txt');

    // the browser's Back is held for the dialog (so the navigation goBack waits for never comes: not awaited)
    void page.goBack({ timeout: 2000 }).catch(() => undefined);
    await page.waitForSelector('[data-testid=editor-discard-dialog]');
    expect(new URL(page.url()).pathname).toBe('/files/docs/notes.txt');
    await page.keyboard.press('Escape'); // Esc keeps editing
    await page.waitForSelector('[data-testid=editor-discard-dialog]', { state: 'detached' });
    expect(await page.textContent('.cm-content')).toContain('not to be kept');

    // a reload gets the browser's own confirmation
    const asked = new Promise<string>((resolve) => page.once('dialog', (d) => void d.dismiss().then(() => resolve(d.type()))));
    void page.reload({ timeout: 2000 }).catch(() => undefined);
    expect(await asked).toBe('beforeunload');
    expect(await page.textContent('.cm-content')).toContain('not to be kept');

    // discarding goes where the user was heading
    void page.goBack({ timeout: 2000 }).catch(() => undefined);
    await page.click('[data-testid=editor-discard]');
    await page.waitForURL(`${server.url}/files/docs/`);
    await page.waitForSelector('[data-testid=item][data-name="notes.txt"]');
    expect(disk('docs/notes.txt')).not.toContain('not to be kept');

    // with nothing changed, close goes straight to the folder
    await openEditor(page, 'docs/notes.txt');
    await page.click('[data-testid=editor-close]');
    await page.waitForURL(`${server.url}/files/docs/`);
  });

  test('a failed save shows the error notice and keeps the edits', async () => {
    await openEditor(page, 'docs/gone.md');
    rmSync(join(root, 'docs/gone.md'));
    await typeAtEnd(page, '\nmore');
    await page.click('[data-testid=editor-save]');
    await page.waitForSelector('[data-testid=notice-error]');
    expect(await page.locator('[data-testid=editor-dirty]').count()).toBe(1);
    await shot(page, 'viewers-editor-save-failed');
    await page.click('[data-testid=notice-close]');
  });

  test('a file of a few MB opens and scrolls to its end', async () => {
    await openEditor(page, 'big.log');
    await page.click('.cm-content');
    await page.keyboard.press('Control+End');
    await page.waitForFunction(() => document.querySelector('.cm-content')?.textContent?.includes('line 59999 lorem'));
    expect(await page.evaluate(() => document.querySelectorAll('.cm-line').length)).toBeLessThan(2000); // only the visible part is drawn
  });

  test('a user without the modify permission gets a read-only editor', async () => {
    const reader = await newPage(browser);
    await login(reader.page, server.url, 'reader', READER_PW);
    await openEditor(reader.page, 'docs/notes.txt', true);
    expect(await reader.page.getAttribute('[data-testid=editor]', 'data-readonly')).toBe('true');
    await reader.page.waitForSelector('[data-testid=editor-readonly]');
    expect(await reader.page.locator('[data-testid=editor-save]').count()).toBe(0);
    expect(await reader.page.getAttribute('.cm-content', 'contenteditable')).toBe('false');
    const before = disk('docs/notes.txt');
    await reader.page.click('.cm-content');
    await reader.page.keyboard.type('sneaky');
    await reader.page.keyboard.press('Control+s');
    expect(await reader.page.textContent('.cm-content')).not.toContain('sneaky');
    expect(disk('docs/notes.txt')).toBe(before);
    await shot(reader.page, 'viewers-editor-readonly');
    await reader.context.close();
  });
});
