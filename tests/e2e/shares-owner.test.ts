import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { Page } from 'playwright-core';
import type { Share } from '../../server/contract/share';
import { cli } from '../helpers/binary';
import { expectAccessible } from './axe';
import { closeSession, loginAs, newPage, openSession, runSelectionAction, shot, workspace, type Session } from './browser';
import { put } from './viewers-fixture';

// The owner's side of shares v2 (issue 37, decision 0051): a link edited in place keeps its URL, More options
// (mode, slug checked as typed, limits), a server refusal shown in the form, a new address ends the old one, disable
// and enable, the access log, the shares table's new columns and tools; at 1280 and 375 px, light and dark, Hebrew.
const ws = workspace('filedeck-shares-owner-');
const PW = 'shares-owner-admin-password-37';
let s: Session | undefined;
let page: Page;
let base = '';
const fd = (...args: string[]) => cli(['-d', ws.db, '-r', ws.root, ...args]);

beforeAll(async () => {
  put(ws.root, 'Inbox/a.txt', 'alpha');
  put(ws.root, 'report.txt', 'quarterly');
  s = await openSession(ws, PW);
  page = s.page;
  base = s.server.url;
});
afterAll(() => closeSession(ws, s));

const token = () => page.evaluate(() => localStorage.getItem('jwt')) as Promise<string>;
const linksOf = async (path: string) => (await (await fetch(`${base}/api/share${path}`, { headers: { 'X-Auth': await token() } })).json()) as Share[];
const visit = (name: string, headers: Record<string, string> = {}) => fetch(`${base}/api/public/share/${name}`, { headers });

/** Opens the share prompt of an item of the root folder. */
async function openShare(p: Page, name: string): Promise<void> {
  await p.goto(`${base}/files/`);
  await p.waitForSelector('[data-testid=listing]');
  await p.click(`[data-testid=item][data-name="${name}"]`);
  await runSelectionAction(p, 'share');
  await p.waitForSelector('[data-testid=prompt-share] [data-testid=share-link]');
}

const row = (hash: string) => `[data-testid=share-link][data-hash="${hash}"]`;

describe('share prompt', () => {
  test('a link edited in place (expiry, password) keeps its URL; the visitor then needs the password', async () => {
    await openShare(page, 'report.txt');
    const [before] = await linksOf('/report.txt');
    const href = await page.getAttribute(`${row(before!.hash)} a`, 'href');
    expect(await page.textContent(`${row(before!.hash)} [data-testid=share-counters]`)).toContain('Views');
    await page.click(`${row(before!.hash)} [data-testid=share-edit]`);
    await page.waitForSelector('[data-testid=prompt-share-edit]');
    await page.selectOption('[data-testid=share-expiry]', 'set');
    await page.fill('[data-testid=share-duration]', '3');
    await page.selectOption('[data-testid=share-unit]', 'days');
    await page.selectOption('[data-testid=share-password-choice]', 'set');
    await page.fill('[data-testid=share-password]', 'edited-secret-1');
    // a file link offers no upload modes
    expect(await page.locator('[data-testid=share-mode]').count()).toBe(0);
    await expectAccessible(page, 'share edit form');
    await shot(page, 'shares-owner-edit-1280-light');
    await page.click('[data-testid=prompt-confirm]');
    await page.waitForSelector(`[data-testid=prompt-share] ${row(before!.hash)} .share__lock`);
    const [after] = await linksOf('/report.txt');
    expect(after!.hash).toBe(before!.hash);
    expect(after!.hasPassword).toBe(true);
    const days = (after!.expire - Date.now() / 1000) / 86400;
    expect(days).toBeGreaterThan(2.9);
    expect(days).toBeLessThan(3.1);
    expect(await page.getAttribute(`${row(before!.hash)} a`, 'href')).toBe(href);
    expect((await visit(before!.hash)).status).toBe(401);
    expect((await visit(before!.hash, { 'X-SHARE-PASSWORD': 'edited-secret-1' })).status).toBe(200);
    await page.keyboard.press('Escape');
  }, 60_000);

  test('More options: a file request with limits and a slug checked as typed; a taken slug is refused in the form', async () => {
    await openShare(page, 'Inbox');
    const [first] = await linksOf('/Inbox');
    await page.click('[data-testid=share-new]');
    await page.waitForSelector('[data-testid=prompt-share-create]');
    await page.click('[data-testid=share-more] summary');
    await page.selectOption('[data-testid=share-mode]', 'upload');
    await page.fill('[data-testid=share-slug]', 'API');
    expect(await page.inputValue('[data-testid=share-slug]')).toBe('api');
    expect(await page.textContent('[data-testid=share-slug-hint]')).toContain('reserved');
    expect(await page.isDisabled('[data-testid=prompt-confirm]')).toBe(true);
    await page.fill('[data-testid=share-slug]', '-x');
    expect(await page.textContent('[data-testid=share-slug-hint]')).toContain('3 to 64');
    await page.fill('[data-testid=share-slug]', 'inbox-drop');
    await page.fill('[data-testid=share-maxFiles]', '3');
    await page.fill('[data-testid=share-maxFileSize]', '1');
    await page.fill('[data-testid=share-allowedTypes]', '.txt, image/*');
    await expectAccessible(page, 'share create with more options');
    await shot(page, 'shares-owner-create-options-1280-light');
    await page.click('[data-testid=prompt-confirm]');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=prompt-share] [data-testid=share-link]').length === 2);
    const request = (await linksOf('/Inbox')).find((l) => l.hash !== first!.hash)!;
    expect(request).toMatchObject({ mode: 'upload', slug: 'inbox-drop', upload: { maxFiles: 3, maxFileSize: 1024 * 1024, allowedTypes: ['.txt', 'image/*'] } });
    expect(await page.getAttribute(`${row(request.hash)} a`, 'href')).toBe(`${base}/share/inbox-drop`);

    // a webhook added later: saved in place, its signing secret shown when the form opens again
    await page.click(`${row(request.hash)} [data-testid=share-edit]`);
    await page.fill('[data-testid=share-webhookUrl]', 'https://hooks.example.com/filedeck');
    await page.click('[data-testid=prompt-confirm]');
    await page.waitForSelector('[data-testid=prompt-share]');
    await page.click(`${row(request.hash)} [data-testid=share-edit]`);
    const secret = (await linksOf('/Inbox')).find((l) => l.hash === request.hash)!.webhookSecret;
    expect(secret?.length).toBeGreaterThan(10);
    expect(await page.textContent('[data-testid=share-webhook-secret] code')).toBe(secret!);
    await page.locator('[data-testid=share-webhook-secret]').scrollIntoViewIfNeeded();
    await shot(page, 'shares-owner-webhook-1280-light');
    await page.click('[data-testid=prompt-cancel]');
    await page.waitForSelector('[data-testid=prompt-share]');

    // the first link asks for the same slug: the server's answer is shown beside the fields, nothing changes
    await page.click(`${row(first!.hash)} [data-testid=share-edit]`);
    await page.fill('[data-testid=share-slug]', 'inbox-drop');
    await page.click('[data-testid=prompt-confirm]');
    await page.waitForSelector('[data-testid=share-refusal]');
    await shot(page, 'shares-owner-edit-refused-1280-light');
    expect((await linksOf('/Inbox')).find((l) => l.hash === first!.hash)!.slug).toBe('');
    await page.click('[data-testid=prompt-cancel]');
    await page.waitForSelector('[data-testid=prompt-share]');
    // a new link asking for it: refused in the create form too, no link made
    await page.click('[data-testid=share-new]');
    await page.click('[data-testid=share-more] summary');
    await page.fill('[data-testid=share-slug]', 'inbox-drop');
    await page.click('[data-testid=prompt-confirm]');
    await page.waitForSelector('[data-testid=prompt-share-create] [data-testid=share-refusal]');
    expect(await linksOf('/Inbox')).toHaveLength(2);
    await page.click('[data-testid=prompt-cancel]');
    await page.waitForSelector('[data-testid=prompt-share]');
    await page.keyboard.press('Escape');
  }, 60_000);

  test('disable and enable keep the URL; a new address ends the old one; the access log lists visits', async () => {
    await openShare(page, 'Inbox');
    const view = (await linksOf('/Inbox')).find((l) => l.mode === 'view')!;
    expect((await visit(view.hash)).status).toBe(200);
    await page.click(`${row(view.hash)} [data-testid=share-toggle]`);
    await page.waitForSelector(`${row(view.hash)} [data-testid=share-state]`);
    expect((await visit(view.hash)).status).toBeGreaterThanOrEqual(400);
    await page.click(`${row(view.hash)} [data-testid=share-toggle]`);
    await page.waitForSelector(`${row(view.hash)} [data-testid=share-state]`, { state: 'detached' });
    expect((await visit(view.hash)).status).toBe(200);

    // the success notice (its own contrast is not this test's subject) is gone before axe looks
    await page.waitForSelector('[data-testid=notice-success]', { state: 'detached' });
    await page.click(`${row(view.hash)} [data-testid=share-log]`);
    await page.waitForSelector('[data-testid=share-log-line]');
    expect(await page.locator('[data-testid=share-log-line][data-kind=view]').count()).toBeGreaterThanOrEqual(2);
    await expectAccessible(page, 'access log');
    await shot(page, 'shares-owner-log-1280-light');
    await page.click('[data-testid=prompt-confirm]');

    await page.click(`${row(view.hash)} [data-testid=share-regenerate]`);
    await page.waitForSelector('[data-testid=prompt-share-regenerate]');
    await shot(page, 'shares-owner-regenerate-1280-light');
    await page.click('[data-testid=prompt-confirm]');
    await page.waitForSelector(`[data-testid=prompt-share] ${row(view.hash)}`, { state: 'detached' });
    const fresh = (await linksOf('/Inbox')).find((l) => l.mode === 'view')!;
    expect(fresh.hash).not.toBe(view.hash);
    expect((await visit(view.hash)).status).toBe(404);
    expect((await visit(fresh.hash)).status).toBe(200);

    // the log pages back by 50 lines
    for (let i = 0; i < 55; i++) await visit(fresh.hash);
    await page.click(`${row(fresh.hash)} [data-testid=share-log]`);
    await page.waitForSelector('[data-testid=share-log-older]');
    expect(await page.locator('[data-testid=share-log-line]').count()).toBe(50);
    await page.click('[data-testid=share-log-older]');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=share-log-line]').length >= 56);
    await page.click('[data-testid=prompt-confirm]');
    await page.waitForSelector(`${row(fresh.hash)} [data-testid=share-counters]`);
    await shot(page, 'shares-owner-prompt-1280-light');
    await page.setViewportSize({ width: 375, height: 740 });
    await page.waitForSelector('[data-testid=notice-success]', { state: 'detached' });
    await expectAccessible(page, 'share prompt at 375 px');
    await shot(page, 'shares-owner-prompt-375-light');
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.keyboard.press('Escape');
  }, 60_000);
});

describe('shares table', () => {
  test('new columns and the tools at 1280 and 375 px, light and dark; an edit from the table keeps the URL', async () => {
    const { context, page: p } = await newPage(s!.browser, { width: 375, height: 740 });
    try {
      await loginAs(p, base, 'admin', PW);
      for (const [width, scheme] of [[1280, 'light'], [1280, 'dark'], [375, 'light'], [375, 'dark']] as const) {
        await p.setViewportSize({ width, height: width === 375 ? 740 : 800 });
        await p.emulateMedia({ colorScheme: scheme });
        await p.goto(`${base}/settings/shares`);
        await p.waitForSelector('[data-testid=share-row]');
        expect(await p.locator('[data-testid=share-row][data-hash] [data-testid=share-mode]').allTextContents()).toContain('Upload');
        expect(await p.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
        const del = (await p.locator('[data-testid=share-delete]').first().boundingBox())!;
        expect(del.x + del.width).toBeLessThanOrEqual(width);
        await expectAccessible(p, `shares table ${width} ${scheme}`);
        await shot(p, `shares-owner-table-${width}-${scheme}`);
      }
      const [link] = await linksOf('/report.txt');
      await p.click(`[data-testid=share-row][data-hash="${link!.hash}"] [data-testid=share-edit]`);
      await p.waitForSelector('[data-testid=prompt-share-edit]');
      await p.fill('[data-testid=share-maxDownloads]', '5');
      await expectAccessible(p, 'share edit from the table at 375 px');
      await shot(p, 'shares-owner-table-edit-375-dark', { fullPage: false });
      await p.click('[data-testid=prompt-confirm]');
      await p.waitForSelector('[data-testid=prompt-share-edit]', { state: 'detached' });
      const [edited] = await linksOf('/report.txt');
      expect(edited).toMatchObject({ hash: link!.hash, maxDownloads: 5 });
      await p.waitForFunction((h) => document.querySelector(`[data-testid=share-row][data-hash="${h}"] [data-testid=share-use]`)?.textContent?.includes('/5'), link!.hash);
    } finally {
      await context.close();
    }
  }, 90_000);

  test('right to left (Hebrew): the table and the edit form', async () => {
    expect((await fd('users', 'update', 'admin', '--locale', 'he')).code).toBe(0);
    const { context, page: p } = await newPage(s!.browser, { width: 1280, height: 800 });
    try {
      await loginAs(p, base, 'admin', PW);
      await p.goto(`${base}/settings/shares`);
      await p.waitForFunction(() => document.documentElement.dir === 'rtl');
      await p.waitForSelector('[data-testid=share-row]');
      await expectAccessible(p, 'shares table in Hebrew');
      await shot(p, 'shares-owner-table-1280-he');
      await p.locator('[data-testid=share-edit]').first().click();
      await p.waitForSelector('[data-testid=prompt-share-edit]');
      await expectAccessible(p, 'edit form in Hebrew');
      await shot(p, 'shares-owner-edit-1280-he');
      await p.setViewportSize({ width: 375, height: 740 });
      await shot(p, 'shares-owner-edit-375-he');
    } finally {
      await context.close();
      expect((await fd('users', 'update', 'admin', '--locale', 'en')).code).toBe(0);
    }
  }, 60_000);
});
