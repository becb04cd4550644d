import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { RunningServer } from '../helpers/binary';
import { settled, textOrNull } from '../helpers/settle';
import { closeSession, openSession, shot, workspace, type Session } from './browser';

// Every prompt of the files view, and the operations behind them, checked on the page and on disk.
const ws = workspace('filedeck-files-prompts-');
const { dir, root } = ws;
const PW = 'prompts-admin-password-77';
let server: RunningServer;
let browser: Browser;
let page: Page;
let session: Session | undefined;

beforeAll(async () => {
  mkdirSync(join(root, 'Inbox'), { recursive: true });
  mkdirSync(join(root, 'Archive', 'Old'), { recursive: true });
  mkdirSync(join(root, 'Target'), { recursive: true });
  writeFileSync(join(root, 'Inbox', 'report.txt'), 'quarterly report');
  writeFileSync(join(root, 'Inbox', 'photo.bin'), 'binary-ish');
  writeFileSync(join(root, 'Inbox', 'notes.md'), '# notes');
  writeFileSync(join(root, 'Archive', 'report.txt'), 'an older report');
  writeFileSync(join(root, 'hello.txt'), 'hello world');
  mkdirSync(join(root, 'Gallery'));
  const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');
  for (const n of ['one.png', 'two.png', 'three.png']) writeFileSync(join(root, 'Gallery', n), png);
  session = await openSession(ws, PW);
  ({ server, browser, page } = session);
});
afterAll(() => closeSession(ws, session));

async function open(path: string): Promise<void> {
  await page.goto(`${server.url}/files${path}`);
  await page.waitForSelector('[data-testid=listing]');
}

const names = () => page.locator('[data-testid=item]').evaluateAll((els) => els.map((e) => e.getAttribute('data-name')));
const ls = (...p: string[]) => readdirSync(join(root, ...p)).sort();
const token = () => page.evaluate(() => localStorage.getItem('jwt')) as Promise<string>;

async function until(check: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if (await check()) return;
    await page.waitForTimeout(100);
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('files prompts', () => {
  test('help (F1) lists the shortcuts; Esc closes a prompt, a click on the overlay too', async () => {
    await open('/');
    await page.keyboard.press('F1');
    await page.waitForSelector('[data-testid=prompt-help]');
    expect(await page.textContent('[data-testid=prompt-help]')).toContain('Ctrl + A');
    expect(await page.getAttribute('[data-testid=prompt-help]', 'aria-modal')).toBe('true');
    await shot(page, 'files-prompt-help');
    await page.keyboard.press('Escape');
    await page.waitForSelector('[data-testid=prompt-help]', { state: 'detached' });
    await page.click('[data-testid=help-link]');
    await page.waitForSelector('[data-testid=prompt-help]');
    await page.mouse.click(5, 5);
    await page.waitForSelector('[data-testid=overlay]', { state: 'detached' });
  });

  test('new folder and new file from the sidebar create them on disk and open them', async () => {
    await open('/Inbox/');
    await page.click('[data-testid=new-folder]');
    await page.waitForSelector('[data-testid=prompt-newDir]');
    await page.fill('[data-testid=prompt-input]', '  Fresh folder  ');
    await shot(page, 'files-prompt-new-folder');
    await page.keyboard.press('Enter');
    await page.waitForURL(`${server.url}/files/Inbox/Fresh%20folder/`);
    await page.waitForSelector('[data-testid=empty]');
    expect(existsSync(join(root, 'Inbox', 'Fresh folder'))).toBe(true);
    await page.click('[data-testid=new-file]');
    await page.waitForSelector('[data-testid=prompt-newFile]');
    await page.fill('[data-testid=prompt-input]', 'draft #1.txt');
    await page.click('[data-testid=prompt-confirm]');
    await page.waitForURL(`${server.url}/files/Inbox/Fresh%20folder/draft%20%231.txt`);
    expect(readFileSync(join(root, 'Inbox', 'Fresh folder', 'draft #1.txt'), 'utf8')).toBe('');
  });

  test('rename with F2 renames on disk; a taken name shows an error popup that stays until closed', async () => {
    await open('/Inbox/');
    await page.click('[data-name="notes.md"]');
    await page.keyboard.press('F2');
    await page.waitForSelector('[data-testid=prompt-rename]');
    expect(await page.inputValue('[data-testid=prompt-input]')).toBe('notes.md');
    await page.fill('[data-testid=prompt-input]', 'report.txt');
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-testid=notice-error]');
    expect(await page.textContent('[data-testid=notice-error]')).toContain('409');
    expect(await page.isVisible('[data-testid=notice-report]')).toBe(true);
    await shot(page, 'files-error-notice');
    await page.waitForTimeout(1200);
    expect(await page.isVisible('[data-testid=notice-error]')).toBe(true);
    await page.click('[data-testid=notice-close]');
    await page.waitForSelector('[data-testid=notice-error]', { state: 'detached' });
    await page.fill('[data-testid=prompt-input]', ' meeting notes.md ');
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-name="meeting notes.md"]');
    expect(ls('Inbox')).toContain('meeting notes.md');
    expect(ls('Inbox')).not.toContain('notes.md');
    // A rename answers with the Undo toast (tests/e2e/trash-undo.test.ts), not a plain success notice.
    expect(await page.isVisible('[data-testid=undo-toast]')).toBe(true);
  });

  test('info shows the details and computes a checksum on demand', async () => {
    await open('/');
    await page.click('[data-name="hello.txt"]');
    await page.click('[data-testid=action-info]');
    await page.waitForSelector('[data-testid=prompt-info]');
    expect(await page.textContent('[data-testid=info-name]')).toBe('hello.txt');
    await page.click('[data-testid=compute-md5]');
    await page.waitForSelector('[data-testid=checksum-md5]');
    expect(await page.textContent('[data-testid=checksum-md5]')).toBe(createHash('md5').update('hello world').digest('hex'));
    await shot(page, 'files-prompt-info');
    await page.click('[data-testid=prompt-confirm]');
    // Nothing selected: the info of the folder itself, with its counts.
    await page.keyboard.press('Escape');
    await page.click('[data-testid=action-info]');
    await page.waitForSelector('[data-testid=info-dirs]');
    expect(await page.textContent('[data-testid=info-dirs]')).toBe('4');
    await page.keyboard.press('Escape');
  });

  test('copy with the folder picker; a clash opens replace-rename and rename keeps both', async () => {
    await open('/Inbox/');
    await page.click('[data-name="report.txt"]');
    await page.click('[data-testid=action-copy]');
    await page.waitForSelector('[data-testid=prompt-copy]');
    await page.click('[data-testid=picker-up]');
    await page.waitForSelector('[data-testid=picker-folder][data-name=Archive]');
    await page.click('[data-testid=picker-folder][data-name=Archive]');
    await page.waitForFunction(() => document.querySelector('[data-testid=prompt-destination]')?.textContent?.includes('/Archive/'));
    await shot(page, 'files-prompt-copy');
    await page.click('[data-testid=prompt-confirm]');
    await page.waitForSelector('[data-testid=prompt-replaceRename]');
    await shot(page, 'files-prompt-replace-rename');
    await page.click('[data-testid=prompt-rename]');
    await until(() => existsSync(join(root, 'Archive', 'report(1).txt')), 'the renamed copy');
    expect(readFileSync(join(root, 'Archive', 'report(1).txt'), 'utf8')).toBe('quarterly report');
    expect(readFileSync(join(root, 'Archive', 'report.txt'), 'utf8')).toBe('an older report');
    expect(existsSync(join(root, 'Inbox', 'report.txt'))).toBe(true);
    // The user's default is to follow the copy to its destination.
    await page.waitForURL(`${server.url}/files/Archive/`);
    await page.waitForSelector('[data-name="report(1).txt"]');
  });

  test('move: disabled into the same folder; a clash offers overwrite, which replaces the file', async () => {
    await open('/Archive/');
    await page.click('[data-name="report(1).txt"]');
    await page.click('[data-testid=action-move]');
    await page.waitForSelector('[data-testid=prompt-move]');
    expect(await page.isDisabled('[data-testid=prompt-confirm]')).toBe(true);
    await page.click('[data-testid=picker-open][data-name=Old]');
    await page.waitForFunction(() => document.querySelector('[data-testid=picker-path]')?.textContent === '/Archive/Old/');
    await page.waitForSelector('[data-testid=prompt-confirm]:not([disabled])');
    await page.click('[data-testid=picker-up]');
    await page.click('[data-testid=picker-up]');
    await page.click('[data-testid=picker-folder][data-name=Inbox]');
    await page.waitForFunction(() => document.querySelector('[data-testid=prompt-destination]')?.textContent?.includes('/Inbox/'));
    await shot(page, 'files-prompt-move');
    await page.keyboard.press('Enter');
    await page.waitForURL(`${server.url}/files/Inbox/`);
    await until(() => existsSync(join(root, 'Inbox', 'report(1).txt')), 'the move');
    expect(existsSync(join(root, 'Archive', 'report(1).txt'))).toBe(false);

    await open('/Archive/');
    await page.click('[data-name="report.txt"]');
    await page.click('[data-testid=action-move]');
    await page.click('[data-testid=picker-up]');
    await page.click('[data-testid=picker-folder][data-name=Inbox]');
    await page.waitForFunction(() => document.querySelector('[data-testid=prompt-destination]')?.textContent?.includes('/Inbox/'));
    await page.click('[data-testid=prompt-confirm]');
    await page.waitForSelector('[data-testid=prompt-replaceRename]');
    await page.click('[data-testid=prompt-confirm]');
    // Both ends of the overwriting move, read together until they settle (nothing here waits for the server's answer).
    const moved = () => [existsSync(join(root, 'Archive', 'report.txt')), textOrNull(join(root, 'Inbox', 'report.txt'))];
    expect(await settled(moved, [false, 'an older report'])).toEqual([false, 'an older report']);
  });

  test('delete with the Delete key and Enter; a folder goes with its contents', async () => {
    await open('/Inbox/');
    await page.click('[data-name="Fresh folder"]');
    await page.click('[data-name="photo.bin"]', { modifiers: ['Control'] });
    await page.keyboard.press('Delete');
    await page.waitForSelector('[data-testid=prompt-delete]');
    expect(await page.textContent('[data-testid=prompt-delete]')).toContain('delete 2 files');
    await shot(page, 'files-prompt-delete');
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-name="photo.bin"]', { state: 'detached' });
    expect(ls('Inbox')).toEqual(['meeting notes.md', 'report(1).txt', 'report.txt']);
  });

  test('Ctrl+C / Ctrl+V copies (auto-renaming in the same folder), Ctrl+X / Ctrl+V moves and empties the clipboard', async () => {
    await open('/Inbox/');
    await page.click('[data-name="meeting notes.md"]');
    await page.keyboard.press('Control+c');
    await page.keyboard.press('Control+v');
    await page.waitForSelector('[data-name="meeting notes(1).md"]');
    expect(ls('Inbox')).toEqual(['meeting notes(1).md', 'meeting notes.md', 'report(1).txt', 'report.txt']);
    await page.click('[data-name="meeting notes(1).md"]');
    await page.keyboard.press('Control+x');
    await page.waitForFunction(() => document.querySelector('[data-name="meeting notes(1).md"]')?.classList.contains('is-cut'));
    await shot(page, 'files-clipboard-cut');
    // Navigate inside the app: the clipboard lives in the page.
    await page.click('[data-testid=crumb-home]');
    await page.dblclick('[data-name=Target]');
    await page.waitForSelector('[data-testid=empty]');
    await page.keyboard.press('Control+v');
    await page.waitForSelector('[data-name="meeting notes(1).md"]');
    expect(ls('Target')).toEqual(['meeting notes(1).md']);
    expect(ls('Inbox')).toEqual(['meeting notes.md', 'report(1).txt', 'report.txt']);
    // The cut is used up: pasting again does nothing.
    await page.keyboard.press('Control+v');
    await page.waitForTimeout(300);
    expect(ls('Target')).toEqual(['meeting notes(1).md']);
  });

  test('dragging an item onto a folder moves it there', async () => {
    await open('/');
    await page.dragAndDrop('[data-name="hello.txt"]', '[data-name=Target]');
    // A move links the new name before it unlinks the old one: the new name showing up is not the end of the move.
    const sides = () => [existsSync(join(root, 'Target', 'hello.txt')), existsSync(join(root, 'hello.txt'))];
    expect(await settled(sides, [true, false])).toEqual([true, false]);
    await page.waitForSelector('[data-name="hello.txt"]', { state: 'detached' });
    await page.dblclick('[data-name=Target]');
    await page.waitForSelector('[data-name="hello.txt"]');
    await shot(page, 'files-after-drag-move');
  });

  test('download: one file directly, a selection as a zip in the chosen format', async () => {
    await open('/Target/');
    await page.click('[data-name="hello.txt"]');
    const single = page.waitForEvent('download');
    await page.click('[data-testid=action-download]');
    const file = await single;
    expect(file.suggestedFilename()).toBe('hello.txt');
    const filePath = join(dir, 'dl-hello.txt');
    await file.saveAs(filePath);
    expect(readFileSync(filePath, 'utf8')).toBe('hello world');

    await page.click('[data-name="meeting notes(1).md"]', { modifiers: ['Control'] });
    await page.click('[data-testid=action-download]');
    await page.waitForSelector('[data-testid=prompt-download]');
    await shot(page, 'files-prompt-download');
    const zipped = page.waitForEvent('download');
    await page.click('[data-testid=format-zip]');
    const zip = await zipped;
    const zipPath = join(dir, 'selection.zip');
    await zip.saveAs(zipPath);
    const listing = Bun.spawnSync(['unzip', '-l', zipPath]).stdout.toString();
    expect(listing).toContain('hello.txt');
    expect(listing).toContain('meeting notes(1).md');
    // Ctrl+S with nothing selected downloads the whole folder.
    await page.keyboard.press('Escape');
    await page.keyboard.press('Control+s');
    await page.waitForSelector('[data-testid=prompt-download]');
    const tarred = page.waitForEvent('download');
    await page.click('[data-testid=format-tar\\.gz]');
    const tgz = await tarred;
    const tgzPath = join(dir, 'folder.tar.gz');
    await tgz.saveAs(tgzPath);
    const entries = Bun.spawnSync(['tar', '-tzf', tgzPath]).stdout.toString();
    expect(entries).toContain('hello.txt');
  });

  test('share: opening creates a permanent link; links can be created with a duration and password, copied and deleted', async () => {
    await open('/Target/');
    await page.click('[data-name="hello.txt"]');
    await page.click('[data-testid=action-share]');
    await page.waitForSelector('[data-testid=share-link]');
    const sharesOf = async () => (await (await fetch(`${server.url}/api/share/Target/hello.txt`, { headers: { 'X-Auth': await token() } })).json()) as { hash: string; expire: number; hasPassword: boolean }[];
    expect(await sharesOf()).toHaveLength(1);
    expect((await sharesOf())[0]!.expire).toBe(0);
    expect(await page.textContent('[data-testid=share-link]')).toContain('Permanent');
    await page.click('[data-testid=share-new]');
    await page.waitForSelector('[data-testid=prompt-share-create]');
    expect(await page.inputValue('[data-testid=share-unit]')).toBe('hours');
    await page.fill('[data-testid=share-duration]', '2');
    await page.selectOption('[data-testid=share-unit]', 'days');
    await page.fill('[data-testid=share-password]', 'a secret');
    await shot(page, 'files-prompt-share-create');
    await page.click('[data-testid=prompt-confirm]');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=share-link]').length === 2);
    const links = await sharesOf();
    expect(links).toHaveLength(2);
    const timed = links.find((l) => l.expire !== 0)!;
    expect(timed.hasPassword).toBe(true);
    expect(Math.abs(timed.expire - (Date.now() / 1000 + 2 * 86400))).toBeLessThan(120);
    // Permanent first, then by expiry; the link is the public share URL.
    const hashes = await page.locator('[data-testid=share-link]').evaluateAll((els) => els.map((e) => e.getAttribute('data-hash')));
    expect(hashes[1]).toBe(timed.hash);
    expect(await page.locator('[data-testid=share-link] a').first().getAttribute('href')).toBe(`${server.url}/share/${hashes[0]}`);
    await shot(page, 'files-prompt-share-list');
    await page.locator('[data-testid=share-copy]').first().click();
    await page.waitForSelector('[data-testid=notice-success]');
    await page.locator('[data-testid=share-delete]').first().click();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=share-link]').length === 1);
    expect(await sharesOf()).toHaveLength(1);
    await page.locator('[data-testid=share-delete]').first().click();
    // Deleting the last link switches to create mode; leaving an empty create mode closes the dialog.
    await page.waitForSelector('[data-testid=prompt-share-create]');
    expect(await sharesOf()).toHaveLength(0);
    await page.click('[data-testid=prompt-cancel]');
    await page.waitForSelector('[data-testid=overlay]', { state: 'detached' });
  });

  test('the upload chooser offers files and a folder', async () => {
    await open('/Target/');
    await page.click('[data-testid=action-upload]');
    await page.waitForSelector('[data-testid=prompt-upload]');
    expect(await page.isVisible('[data-testid=upload-files]')).toBe(true);
    expect(await page.isVisible('[data-testid=upload-folder]')).toBe(true);
    expect(await page.getAttribute('[data-testid=upload-input-folder]', 'webkitdirectory')).not.toBeNull();
    await shot(page, 'files-prompt-upload');
    await page.keyboard.press('Escape');
    expect(await names()).toEqual(['hello.txt', 'meeting notes(1).md']);
  });

  test('the previewer opens the same info, rename and delete prompts; after a delete it moves on to the next image', async () => {
    await page.goto(`${server.url}/files/Gallery/two.png`);
    await page.waitForSelector('[data-testid=previewer]');
    expect(await page.title()).toBe('two.png - Filedeck');
    await page.click('[data-testid=preview-info]');
    await page.waitForSelector('[data-testid=prompt-info]');
    expect(await page.textContent('[data-testid=info-name]')).toBe('two.png');
    await page.keyboard.press('Escape');
    await page.waitForSelector('[data-testid=prompt-info]', { state: 'detached' });
    await page.click('[data-testid=preview-rename]');
    await page.waitForSelector('[data-testid=prompt-rename]');
    await page.fill('[data-testid=prompt-input]', 'second.png');
    await page.keyboard.press('Enter');
    await page.waitForURL(`${server.url}/files/Gallery/second.png`);
    expect(ls('Gallery')).toEqual(['one.png', 'second.png', 'three.png']);
    await page.waitForSelector('[data-testid=previewer]');
    await page.click('[data-testid=preview-delete]');
    await page.waitForSelector('[data-testid=prompt-delete]');
    await shot(page, 'files-preview-delete-prompt');
    await page.click('[data-testid=prompt-confirm]');
    await page.waitForURL(`${server.url}/files/Gallery/three.png`);
    expect(ls('Gallery')).toEqual(['one.png', 'three.png']);
  });
});
