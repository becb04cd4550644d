import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { cli, type RunningServer } from '../helpers/binary';
import { settled } from '../helpers/settle';
import { closeSession, openSession, shot, workspace, type Session } from './browser';

// Uploads: chooser (files and a folder), conflicts (replace / keep both), tus chunks, drag and drop, cancel.
const ws = workspace('filedeck-files-upload-');
const { dir, db, root } = ws;
const local = join(dir, 'local');
const PW = 'upload-admin-password-31';
const CHUNK = 1024 * 1024; // the smallest chunk size the settings accept
let server: RunningServer;
let browser: Browser;
let page: Page;
let session: Session | undefined;

/** Deterministic bytes, so a corrupted or reordered chunk shows up in the comparison. */
function bytes(n: number, seed: number): Buffer {
  const b = Buffer.alloc(n);
  for (let i = 0; i < n; i++) b[i] = (i * 31 + seed * 7 + (i >> 8)) & 0xff;
  return b;
}

beforeAll(async () => {
  mkdirSync(join(root, 'Uploads', 'Photos'), { recursive: true });
  mkdirSync(join(root, 'Drop target'), { recursive: true });
  writeFileSync(join(root, 'Uploads', 'existing.txt'), 'old content');
  writeFileSync(join(root, 'Uploads', 'Photos', 'a.jpg'), 'old photo');
  mkdirSync(join(local, 'Photos', 'trip'), { recursive: true });
  writeFileSync(join(local, 'Photos', 'a.jpg'), 'new photo a');
  writeFileSync(join(local, 'Photos', 'trip', 'b.jpg'), 'new photo b');
  session = await openSession(ws, PW, [], async () => {
    // Small chunks, so a modest file takes several PATCH requests.
    expect((await cli(['-d', db, '-r', root, 'config', 'set', 'tus.chunkSize', String(CHUNK)])).code).toBe(0);
  });
  ({ server, browser, page } = session);
});
afterAll(() => closeSession(ws, session));

async function openFolder(path: string): Promise<void> {
  await page.goto(`${server.url}/files${path}`);
  await page.waitForSelector('[data-testid=listing]');
}

/**
 * Picks files in the upload chooser. They are written to disk and handed over by path: a large buffer sent
 * through the browser protocol can take longer than the action's time limit on a busy machine.
 */
async function chooseFiles(files: { name: string; buffer: Buffer }[]): Promise<void> {
  const picked = join(dir, 'picked', String(Date.now()));
  mkdirSync(picked, { recursive: true });
  const paths = files.map((f) => {
    writeFileSync(join(picked, f.name), f.buffer);
    return join(picked, f.name);
  });
  await page.click('[data-testid=action-upload]');
  await page.waitForSelector('[data-testid=prompt-upload]');
  await page.setInputFiles('[data-testid=upload-input-files]', paths);
}

async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 150; i++) {
    if (check()) return;
    await page.waitForTimeout(100);
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** No temporary upload files may be left next to the targets. */
const leftovers = (...p: string[]) => readdirSync(join(root, ...p)).filter((n) => n.startsWith('.'));

describe('uploads', () => {
  test('a file through the chooser goes up in tus chunks; the listing reloads and a success notice shows', async () => {
    await openFolder('/Uploads/');
    const patches: string[] = [];
    const onRequest = (r: import('playwright-core').Request) => {
      if (r.method() === 'PATCH' && r.url().includes('/api/tus/')) patches.push(r.url());
    };
    page.on('request', onRequest);
    const data = bytes(3 * CHUNK + 1234, 1);
    await chooseFiles([{ name: 'big report.bin', buffer: data }]);
    await page.waitForSelector('[data-name="big report.bin"]');
    await page.waitForSelector('[data-testid=notice-success]');
    expect(await page.textContent('[data-testid=notice-success]')).toContain('Upload finished');
    page.off('request', onRequest);
    expect(readFileSync(join(root, 'Uploads', 'big report.bin')).equals(data)).toBe(true);
    expect(patches.length).toBe(4);
    expect(patches[0]).toContain('/api/tus/Uploads/big%20report.bin');
    expect(leftovers('Uploads')).toEqual([]);
    await shot(page, 'files-upload-done');
  });

  test('a clash with an existing file asks; replace overwrites it', async () => {
    await openFolder('/Uploads/');
    await chooseFiles([{ name: 'existing.txt', buffer: Buffer.from('replaced content') }]);
    await page.waitForSelector('[data-testid=prompt-replace]');
    expect(await page.textContent('[data-testid=prompt-replace]')).toContain('existing.txt');
    await shot(page, 'files-upload-replace-prompt');
    await page.click('[data-testid=prompt-confirm]');
    await until(() => readFileSync(join(root, 'Uploads', 'existing.txt'), 'utf8') === 'replaced content', 'the replacement');
    await page.waitForSelector('[data-testid=notice-success]');
  });

  test('a folder through the chooser; a clash inside it answered with keep both uploads it under a free name', async () => {
    await openFolder('/Uploads/');
    await page.click('[data-testid=action-upload]');
    await page.waitForSelector('[data-testid=prompt-upload]');
    await page.setInputFiles('[data-testid=upload-input-folder]', join(local, 'Photos'));
    // Photos/a.jpg exists on the server (found through the recursive listing).
    await page.waitForSelector('[data-testid=prompt-replace]');
    expect(await page.textContent('[data-testid=prompt-replace]')).toContain('Photos');
    await page.click('[data-testid=prompt-rename]');
    await page.waitForSelector('[data-name="Photos(1)"]');
    await until(() => existsSync(join(root, 'Uploads', 'Photos(1)', 'trip', 'b.jpg')), 'the renamed folder');
    expect(readFileSync(join(root, 'Uploads', 'Photos(1)', 'a.jpg'), 'utf8')).toBe('new photo a');
    expect(readFileSync(join(root, 'Uploads', 'Photos(1)', 'trip', 'b.jpg'), 'utf8')).toBe('new photo b');
    expect(readFileSync(join(root, 'Uploads', 'Photos', 'a.jpg'), 'utf8')).toBe('old photo');
    await shot(page, 'files-upload-folder-renamed');
  });

  test('a folder whose files are all new merges into the existing folder without asking', async () => {
    rmSync(join(root, 'Uploads', 'Photos', 'a.jpg'));
    await openFolder('/Uploads/');
    await page.click('[data-testid=action-upload]');
    await page.setInputFiles('[data-testid=upload-input-folder]', join(local, 'Photos'));
    await until(() => existsSync(join(root, 'Uploads', 'Photos', 'trip', 'b.jpg')) && existsSync(join(root, 'Uploads', 'Photos', 'a.jpg')), 'the merge');
    expect(await page.isVisible('[data-testid=prompt-replace]')).toBe(false);
    expect(readFileSync(join(root, 'Uploads', 'Photos', 'a.jpg'), 'utf8')).toBe('new photo a');
  });

  test('files dropped on a folder item upload into that folder; on the listing into the current one', async () => {
    await openFolder('/');
    const drop = async (selector: string, name: string, text: string) => {
      const dt = await page.evaluateHandle(
        ([n, t]) => {
          const d = new DataTransfer();
          d.items.add(new File([t!], n!, { type: 'text/plain' }));
          return d;
        },
        [name, text],
      );
      await page.dispatchEvent(selector, 'dragenter', { dataTransfer: dt });
      await page.dispatchEvent(selector, 'dragover', { dataTransfer: dt });
      await page.waitForSelector('[data-testid=listing].is-dragging');
      await page.dispatchEvent(selector, 'drop', { dataTransfer: dt });
    };
    await drop('[data-name="Drop target"] .item__name', 'dropped.txt', 'dropped on a folder');
    await until(() => existsSync(join(root, 'Drop target', 'dropped.txt')), 'the dropped file');
    expect(readFileSync(join(root, 'Drop target', 'dropped.txt'), 'utf8')).toBe('dropped on a folder');
    expect(existsSync(join(root, 'dropped.txt'))).toBe(false);
    await drop('[data-testid=listing]', 'loose.txt', 'dropped on the listing');
    await page.waitForSelector('[data-name="loose.txt"]');
    expect(readFileSync(join(root, 'loose.txt'), 'utf8')).toBe('dropped on the listing');
    // A clash asks first; replace overwrites.
    await drop('[data-testid=listing]', 'loose.txt', 'dropped again');
    await page.waitForSelector('[data-testid=prompt-replace]');
    await page.keyboard.press('Enter');
    await until(() => readFileSync(join(root, 'loose.txt'), 'utf8') === 'dropped again', 'the replaced drop');
  });

  test('the panel shows a running upload; leaving asks first; cancel aborts it and the server drops the partial file', async () => {
    await openFolder('/Uploads/');
    // Slow the chunks down so the upload is still running while we look at it.
    await page.route('**/api/tus/**', async (route) => {
      if (route.request().method() === 'PATCH') await new Promise((r) => setTimeout(r, 400));
      await route.continue().catch(() => {}); // the request may have been aborted meanwhile
    });
    await chooseFiles([{ name: 'slow.bin', buffer: bytes(12 * CHUNK, 2) }]);
    await page.waitForSelector('[data-testid=upload-job][data-state=active]');
    await page.waitForFunction(() => Number(document.querySelector('[data-testid=upload-percent]')?.getAttribute('data-percent')) > 0);
    await shot(page, 'files-upload-panel');
    const dialog = page.waitForEvent('dialog');
    void page.goto(`${server.url}/settings`).catch(() => {});
    const asked = await dialog;
    expect(asked.type()).toBe('beforeunload');
    await asked.dismiss();
    await page.click('[data-testid=upload-cancel]');
    await page.waitForSelector('[data-testid=upload-panel]', { state: 'detached' });
    await page.unroute('**/api/tus/**');
    // The panel closes when the cancel is asked; the server drops the partial file when it sees the abort, later.
    const left = () => [existsSync(join(root, 'Uploads', 'slow.bin')), leftovers('Uploads')];
    expect(await settled(left, [false, []])).toEqual([false, []]);
  });
});
