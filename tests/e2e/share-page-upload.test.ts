import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { startServer, type RunningServer } from '../helpers/binary';
import { expectAccessible } from './axe';
import { launch, newPage, shot } from './browser';

// File requests in the visitor's browser (issue 37 items 1 and 5): drag and drop with per-file progress through
// tus, clash-free names, each limit's message, no listing for an upload-only link, and the listing growing for an
// upload-and-view link; at 1280 and 375 px, light and dark, and in Hebrew.
const dir = mkdtempSync(join(tmpdir(), 'filedeck-e2e-upload-'));
const root = join(dir, 'files');
const ADMIN_PW = 'e2e-admin-password-8813';
const MiB = 1024 * 1024;
let server: RunningServer;
let browser: Browser;
let adminToken = '';

beforeAll(async () => {
  for (const d of ['Inbox', 'Drop', 'Album', 'Tiny']) mkdirSync(join(root, d), { recursive: true });
  writeFileSync(join(root, 'Inbox', 'secret-plan.txt'), 'not for visitors');
  writeFileSync(join(root, 'Album', 'existing.txt'), 'already here');
  server = await startServer(['-d', join(dir, 'filedeck.db'), '-r', root, '--password', ADMIN_PW, '--log', ''], { cwd: dir });
  const res = await fetch(`${server.url}/api/login`, { method: 'POST', body: JSON.stringify({ username: 'admin', password: ADMIN_PW }) });
  adminToken = await res.text();
  browser = await launch();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function share(path: string, body: Record<string, unknown>): Promise<{ hash: string }> {
  const res = await fetch(`${server.url}/api/share${path}`, { method: 'POST', headers: { 'X-Auth': adminToken }, body: JSON.stringify(body) });
  expect(res.status).toBe(200);
  return res.json() as Promise<{ hash: string }>;
}

/** Drops files on the drop zone as a browser would: dragenter, dragover, drop, with a DataTransfer of real Files. */
async function dropFiles(page: Page, files: { name: string; size?: number; text?: string }[]): Promise<void> {
  const dataTransfer = await page.evaluateHandle((list) => {
    const dt = new DataTransfer();
    for (const f of list) dt.items.add(new File([f.text ?? new Uint8Array(f.size ?? 0).fill(97)], f.name, { type: 'application/octet-stream' }));
    return dt;
  }, files);
  for (const type of ['dragenter', 'dragover', 'drop']) await page.dispatchEvent('[data-testid=share-drop]', type, { dataTransfer });
}

/** Records every value the progress bars show from now on (one sample per frame). */
const recordProgress = (page: Page) =>
  page.evaluate(() => {
    const seen = new Set<number>();
    (window as unknown as { seenProgress: Set<number> }).seenProgress = seen;
    const tick = () => {
      for (const p of document.querySelectorAll<HTMLProgressElement>('[data-testid=share-upload-progress]')) seen.add(p.value);
      requestAnimationFrame(tick);
    };
    tick();
  });
const seenProgress = (page: Page) => page.evaluate(() => [...(window as unknown as { seenProgress: Set<number> }).seenProgress]);

const upload = (page: Page, name: string) => page.locator(`[data-testid=share-upload][data-name="${name}"]`);
const waitStatus = (page: Page, name: string, status: string) =>
  page.waitForSelector(`[data-testid=share-upload][data-name="${name}"][data-status=${status}]`, { timeout: 30_000 });

describe('file requests on the share page', () => {
  test('an upload-only link: drag and drop with progress, a clash gets a new name it is not told, nothing of the folder is shown', async () => {
    const { hash } = await share('/Inbox', { mode: 'upload', upload: { maxFileSize: 40 * MiB } });
    const { context, page } = await newPage(browser);
    await page.goto(`${server.url}/share/${hash}`);
    await page.waitForSelector('[data-testid=share-drop]');
    // No listing, no box with counts or sizes, no name of what is there.
    for (const id of ['share-items', 'share-gallery', 'share-box', 'share-folder']) expect(await page.locator(`[data-testid=${id}]`).count()).toBe(0);
    expect(await page.content()).not.toContain('secret-plan');
    expect(await page.textContent('[data-testid=share-limits]')).toContain('Files up to');
    await shot(page, 'share-upload-empty');
    await expectAccessible(page, 'upload-only link');

    await recordProgress(page);
    await dropFiles(page, [{ name: 'big.bin', size: 24 * MiB }, { name: 'secret-plan.txt', text: 'a visitor\'s plan' }]);
    await waitStatus(page, 'big.bin', 'done');
    await waitStatus(page, 'secret-plan.txt', 'done');
    const seen = await seenProgress(page);
    expect(seen.some((v) => v > 0 && v < 100)).toBe(true); // progress was shown part-way, not only 0 and 100
    expect(seen).toContain(100);
    expect(statSync(join(root, 'Inbox', 'big.bin')).size).toBe(24 * MiB);
    // never overwritten: the visitor's file got the next free name, which an upload-only visitor is not told
    // (it would say that secret-plan.txt is there)
    expect(readFileSync(join(root, 'Inbox', 'secret-plan.txt'), 'utf8')).toBe('not for visitors');
    expect(readFileSync(join(root, 'Inbox', 'secret-plan (1).txt'), 'utf8')).toBe('a visitor\'s plan');
    expect(await upload(page, 'secret-plan.txt').getAttribute('data-status')).toBe('done');
    expect(await upload(page, 'secret-plan.txt').textContent()).not.toContain('(1)');
    expect(await page.content()).not.toContain('secret-plan (1)');
    await shot(page, 'share-upload-done');
    await expectAccessible(page, 'upload list');
    await context.close();
  }, 90_000);

  test('each limit has its own message, before sending and when the server refuses', async () => {
    const { hash } = await share('/Drop', { mode: 'upload', upload: { maxFileSize: 1024, maxFiles: 2, allowedTypes: ['.txt', 'image/*'] } });
    const { context, page } = await newPage(browser);
    await page.goto(`${server.url}/share/${hash}`);
    await page.waitForSelector('[data-testid=share-limits]');
    const limits = await page.textContent('[data-testid=share-limits]');
    expect(limits).toContain('Files left: 2');
    expect(limits).toContain('Accepted types: .txt, image/*');

    await dropFiles(page, [{ name: 'huge.txt', size: 4096 }, { name: 'tool.exe', size: 10 }, { name: 'one.txt', text: 'one' }]);
    await waitStatus(page, 'one.txt', 'done');
    expect(await upload(page, 'huge.txt').getAttribute('data-refusal')).toBe('size');
    expect(await upload(page, 'huge.txt').textContent()).toContain('Too large for this link.');
    expect(await upload(page, 'tool.exe').getAttribute('data-refusal')).toBe('type');
    expect(await upload(page, 'tool.exe').textContent()).toContain('This type of file is not accepted.');
    expect(existsSync(join(root, 'Drop', 'huge.txt'))).toBe(false);
    expect(await page.textContent('[data-testid=share-limits]')).toContain('Files left: 1');

    // Another visitor takes the last place meanwhile: this page still thinks one is left, and the server says no.
    const other = await fetch(`${server.url}/api/public/upload/${hash}/other.txt`, { method: 'POST', body: 'other visitor' });
    expect(other.status).toBe(201);
    await dropFiles(page, [{ name: 'late.txt', text: 'late' }]);
    await waitStatus(page, 'late.txt', 'failed');
    expect(await upload(page, 'late.txt').getAttribute('data-refusal')).toBe('count');
    expect(await upload(page, 'late.txt').textContent()).toContain('This link accepts no more files.');
    await shot(page, 'share-upload-refused');

    // A reload shows the link full: the drop zone says so and its buttons are off.
    await page.reload();
    await page.waitForSelector('[data-testid=share-drop].is-disabled');
    expect(await page.isDisabled('[data-testid=share-choose-files]')).toBe(true);
    await context.close();
  }, 60_000);

  test('the file chooser uploads, and the folder chooser keeps the folder structure', async () => {
    const { hash } = await share('/Tiny', { mode: 'upload' });
    const { context, page } = await newPage(browser);
    await page.goto(`${server.url}/share/${hash}`);
    await page.waitForSelector('[data-testid=share-drop]');
    await page.setInputFiles('[data-testid=share-file-input]', [{ name: 'chosen.txt', mimeType: 'text/plain', buffer: Buffer.from('chosen') }]);
    await waitStatus(page, 'chosen.txt', 'done');
    expect(readFileSync(join(root, 'Tiny', 'chosen.txt'), 'utf8')).toBe('chosen');
    expect(await page.getAttribute('[data-testid=share-folder-input]', 'webkitdirectory')).toBe('');
    // a chosen folder arrives with its subfolders
    const picked = join(dir, 'picked', 'trip');
    mkdirSync(join(picked, 'day1'), { recursive: true });
    writeFileSync(join(picked, 'b.txt'), 'bee');
    writeFileSync(join(picked, 'day1', 'a.txt'), 'ay');
    await page.setInputFiles('[data-testid=share-folder-input]', picked);
    await waitStatus(page, 'trip/day1/a.txt', 'done');
    await waitStatus(page, 'trip/b.txt', 'done');
    expect(readFileSync(join(root, 'Tiny', 'trip', 'day1', 'a.txt'), 'utf8')).toBe('ay');
    expect(readFileSync(join(root, 'Tiny', 'trip', 'b.txt'), 'utf8')).toBe('bee');
    await context.close();
  }, 60_000);

  test('an upload-and-view link lists the folder and shows what arrived; dark at 375 px', async () => {
    const { hash } = await share('/Album', { mode: 'upload-view' });
    const { context, page } = await newPage(browser, { width: 375, height: 760 });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto(`${server.url}/share/${hash}`);
    await page.waitForSelector('[data-testid=share-drop]');
    await page.waitForSelector('[data-name="existing.txt"]');
    expect(await page.locator('[data-testid=share-limits]').count()).toBe(0); // no limits set, none listed
    await dropFiles(page, [{ name: 'holiday.txt', text: 'postcard' }]);
    await waitStatus(page, 'holiday.txt', 'done');
    await page.waitForSelector('[data-testid=share-item][data-name="holiday.txt"]', { timeout: 10_000 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await shot(page, 'share-upload-view-375-dark');
    await expectAccessible(page, 'upload-and-view link, dark, 375 px');
    await context.close();
  }, 60_000);

  test('in Hebrew the drop zone and the upload rows read right to left', async () => {
    const { hash } = await share('/Tiny', { mode: 'upload', upload: { maxFiles: 5 } });
    const { context, page } = await newPage(browser, { locale: 'he' });
    await page.goto(`${server.url}/share/${hash}`);
    await page.waitForSelector('[data-testid=share-drop]');
    expect(await page.evaluate(() => document.documentElement.dir)).toBe('rtl');
    expect(await page.textContent('[data-testid=share-drop] h2')).toBe('שליחת קבצים');
    await dropFiles(page, [{ name: 'מכתב.txt', text: 'שלום' }]);
    await waitStatus(page, 'מכתב.txt', 'done');
    await shot(page, 'share-upload-he');
    await expectAccessible(page, 'Hebrew upload');
    await context.close();
  }, 60_000);

  test('a password-protected file request asks first, then uploads with the token the password gave', async () => {
    const { hash } = await share('/Tiny', { mode: 'upload', password: 'drop box 9' });
    const { context, page } = await newPage(browser);
    await page.goto(`${server.url}/share/${hash}`);
    await page.waitForSelector('[data-testid=share-password]');
    expect(await page.locator('[data-testid=share-drop]').count()).toBe(0);
    await page.fill('input[name=share-password]', 'drop box 9');
    await page.click('[data-testid=share-password] button[type=submit]');
    await page.waitForSelector('[data-testid=share-drop]');
    await dropFiles(page, [{ name: 'behind-password.txt', text: 'ok' }]);
    await waitStatus(page, 'behind-password.txt', 'done');
    expect(readFileSync(join(root, 'Tiny', 'behind-password.txt'), 'utf8')).toBe('ok');
    // without the token the same upload is refused
    expect((await fetch(`${server.url}/api/public/upload/${hash}/sneaky.txt`, { method: 'POST', body: 'x' })).status).toBe(401);
    await context.close();
  }, 60_000);

  test('a chunk lost on the way is resumed from the offset the server reports, not started again', async () => {
    const { hash } = await share('/Tiny', { mode: 'upload' });
    const { context, page } = await newPage(browser);
    const seen: string[] = [];
    let dropped = false;
    await page.route('**/api/public/tus/**', async (route) => {
      const method = route.request().method();
      seen.push(method);
      // The second chunk never arrives: the connection is cut as if the network went away.
      if (method === 'PATCH' && seen.filter((m) => m === 'PATCH').length === 2 && !dropped) {
        dropped = true;
        return route.abort('connectionreset');
      }
      return route.continue();
    });
    await page.goto(`${server.url}/share/${hash}`);
    await page.waitForSelector('[data-testid=share-drop]');
    await dropFiles(page, [{ name: 'resumed.bin', size: 25 * MiB }]);
    await waitStatus(page, 'resumed.bin', 'done');
    expect(dropped).toBe(true);
    expect(seen.filter((m) => m === 'POST')).toHaveLength(1); // one upload, resumed
    expect(seen).toContain('HEAD');
    expect(statSync(join(root, 'Tiny', 'resumed.bin')).size).toBe(25 * MiB);
    await context.close();
  }, 60_000);

  // Last: it leaves the owner's storage full.
  test("the owner's full storage is told as such (507), and nothing is left behind", async () => {
    const { hash } = await share('/Tiny', { mode: 'upload' });
    const users = (await (await fetch(`${server.url}/api/users`, { headers: { 'X-Auth': adminToken } })).json()) as { id: number; username: string }[];
    const admin = users.find((u) => u.username === 'admin')!;
    const set = await fetch(`${server.url}/api/users/${admin.id}`, { method: 'PUT', headers: { 'X-Auth': adminToken }, body: JSON.stringify({ what: 'user', which: ['quota'], data: { quota: { bytes: 1024, files: 0 } } }) });
    expect(set.status).toBeLessThan(300);
    const { context, page } = await newPage(browser);
    await page.goto(`${server.url}/share/${hash}`);
    await page.waitForSelector('[data-testid=share-drop]');
    await dropFiles(page, [{ name: 'too-much.bin', size: 64 * 1024 }]);
    await waitStatus(page, 'too-much.bin', 'failed');
    expect(await upload(page, 'too-much.bin').getAttribute('data-refusal')).toBe('quota');
    expect(await upload(page, 'too-much.bin').textContent()).toContain("The owner's storage is full.");
    expect(existsSync(join(root, 'Tiny', 'too-much.bin'))).toBe(false);
    await shot(page, 'share-upload-quota');
    await context.close();
  }, 60_000);
});
