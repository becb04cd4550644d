import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import jsQR from 'jsqr';
import type { Browser, Page } from 'playwright-core';
import { startServer, type RunningServer } from '../helpers/binary';
import { launch, newPage, shot } from './browser';

// The public share page, opened by anonymous visitors in Chromium: file and folder shares, passwords, expiry, QR.
const dir = mkdtempSync(join(tmpdir(), 'filedeck-e2e-share-'));
const db = join(dir, 'filedeck.db');
const root = join(dir, 'files');
const ADMIN_PW = 'e2e-admin-password-5531';
let server: RunningServer;
let browser: Browser;
let adminToken = '';

const { Transformer } = require('@napi-rs/image') as typeof import('@napi-rs/image');

beforeAll(async () => {
  mkdirSync(join(root, 'Projects', 'Drafts'), { recursive: true });
  mkdirSync(join(root, 'Big'), { recursive: true });
  writeFileSync(join(root, 'Projects', 'plan.txt'), 'the plan');
  writeFileSync(join(root, 'Projects', 'Drafts', 'draft one.txt'), 'draft');
  const pixels = new Uint8Array(64 * 48 * 4).map((_, i) => (i % 4 === 3 ? 255 : (i * 7) % 256));
  writeFileSync(join(root, 'Projects', 'photo.png'), await Transformer.fromRgbaPixels(pixels, 64, 48).png());
  for (let i = 0; i < 130; i++) writeFileSync(join(root, 'Big', `file-${String(i).padStart(3, '0')}.txt`), `n${i}`);
  writeFileSync(join(root, 'report.txt'), 'quarterly numbers\n');
  server = await startServer(['-d', db, '-r', root, '--password', ADMIN_PW, '--log', ''], { cwd: dir });
  const res = await fetch(`${server.url}/api/login`, { method: 'POST', body: JSON.stringify({ username: 'admin', password: ADMIN_PW }) });
  adminToken = await res.text();
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function share(path: string, body: Record<string, string> = {}): Promise<{ hash: string }> {
  const res = await fetch(`${server.url}/api/share${path}`, { method: 'POST', headers: { 'X-Auth': adminToken }, body: JSON.stringify(body) });
  expect(res.status).toBe(200);
  return res.json() as Promise<{ hash: string }>;
}

/** Decodes the QR image on the page: its data URL's pixels go through jsQR. */
async function readQr(page: Page): Promise<string> {
  const src = await page.getAttribute('[data-testid=share-qr]', 'src');
  expect(src).toStartWith('data:image/png;base64,');
  const t = new Transformer(Buffer.from(src!.split(',')[1]!, 'base64'));
  const { width, height } = await t.metadata();
  expect([width, height]).toEqual([200, 200]);
  const px = await t.rawPixels();
  const code = jsQR(new Uint8ClampedArray(px.buffer, px.byteOffset, px.length), width, height);
  expect(code).not.toBeNull();
  return code!.data;
}

const fitsWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

describe('public share page', () => {
  test('a file share shows the download box, its QR code encodes the download link, and the link downloads', async () => {
    const { hash } = await share('/report.txt');
    const { context, page } = await newPage(browser);
    await page.goto(`${server.url}/share/${hash}`);
    await page.waitForSelector('[data-testid=share-box]');
    expect(await page.textContent('[data-testid=share-kind]')).toBe('File');
    expect(await page.textContent('[data-testid=share-name]')).toBe('report.txt');
    expect(await page.textContent('[data-testid=share-size]')).toMatch(/^18\s*(B|byte)/); // 18 bytes, in the browser's unit wording
    expect(await page.getAttribute('[data-testid=share-modified]', 'title')).toMatch(/\d{4}/); // exact date on hover
    expect(await page.title()).toContain('report.txt');
    const href = await page.getAttribute('[data-testid=share-download]', 'href');
    expect(href).toBe(`${server.url}/api/public/dl/${hash}`);
    expect(await page.getAttribute('[data-testid=share-open]', 'href')).toBe(`${href}?inline=true`);
    expect(await page.getAttribute('[data-testid=share-open]', 'target')).toBe('_blank');
    expect(await readQr(page)).toBe(href!);
    const dl = await fetch(href!);
    expect(dl.status).toBe(200);
    expect(await dl.text()).toBe('quarterly numbers\n');
    expect(await page.evaluate(() => localStorage.getItem('jwt'))).toBeNull(); // no login involved
    expect(await page.locator('[data-testid=share-items]').count()).toBe(0);
    await shot(page, 'share-file');
    await context.close();
  });

  test('a folder share lists its items, opens subfolders, previews images, selects and downloads', async () => {
    const { hash } = await share('/Projects');
    const { context, page } = await newPage(browser);
    await page.goto(`${server.url}/share/${hash}/`);
    await page.waitForSelector('[data-testid=share-item]');
    expect(await page.textContent('[data-testid=share-kind]')).toBe('Folder');
    expect(await page.textContent('[data-testid=share-name]')).toBe('Projects');
    expect(await page.textContent('[data-testid=share-size]')).toBe('3 items');
    const names = await page.locator('[data-testid=share-item]').evaluateAll((els) => els.map((e) => e.getAttribute('data-name')));
    expect(names.sort()).toEqual(['Drafts', 'photo.png', 'plan.txt']);
    const folderUrl = `${server.url}/api/public/dl/${hash}`;
    expect(await readQr(page)).toBe(folderUrl);

    // the archive format is chosen before downloading
    expect(await page.getAttribute('[data-testid=share-download]', 'href')).toBe(`${folderUrl}?algo=zip`);
    await page.selectOption('[data-testid=share-format]', 'tar.gz');
    const tarHref = await page.getAttribute('[data-testid=share-download]', 'href');
    expect(tarHref).toBe(`${folderUrl}?algo=tar.gz`);
    const tar = await fetch(tarHref!);
    expect(tar.status).toBe(200);
    expect(tar.headers.get('content-disposition')).toContain('.tar.gz');

    // selection narrows the download; Esc clears it
    await page.click('[data-name="plan.txt"] .share-item__select');
    expect(await page.getAttribute('[data-name="plan.txt"]', 'data-selected')).toBe('true');
    expect(await page.textContent('[data-testid=share-download]')).toContain('Download 1 selected');
    const selHref = await page.getAttribute('[data-testid=share-download]', 'href');
    expect(selHref).toBe(`${folderUrl}?files=${encodeURIComponent('/plan.txt')}&algo=tar.gz`);
    expect((await fetch(selHref!)).status).toBe(200);
    await page.click('[data-name="photo.png"] .share-item__select', { modifiers: ['Control'] });
    expect(await page.textContent('[data-testid=share-download]')).toContain('Download 2 selected');
    await shot(page, 'share-folder-selected');
    await page.keyboard.press('Escape');
    expect(await page.locator('[data-testid=share-item][data-selected=true]').count()).toBe(0);
    expect(await page.textContent('[data-testid=share-download]')).toBe('Download');

    // a file inside downloads directly
    const fileHref = await page.getAttribute('[data-name="plan.txt"] [data-testid=share-item-download]', 'href');
    expect(await (await fetch(fileHref!)).text()).toBe('the plan');

    // images open in the slideshow, as the link's big preview (the single-image preview it replaced)
    await page.click('[data-name="photo.png"] [data-testid=share-item-preview]');
    await page.waitForSelector('[data-testid=share-slideshow]');
    expect(await page.getAttribute('[data-testid=share-slide-image]', 'src')).toContain(`/api/public/preview/big/${hash}/photo.png?key=`);
    await page.waitForFunction(() => (document.querySelector('[data-testid=share-slide-image]') as HTMLImageElement | null)?.naturalWidth === 64);
    await shot(page, 'share-image-preview');
    await page.keyboard.press('Escape');
    await page.waitForSelector('[data-testid=share-slideshow]', { state: 'detached' });

    // folders navigate inside the share
    await page.click('[data-name="Drafts"] [data-testid=share-item-link]');
    await page.waitForURL(`${server.url}/share/${hash}/Drafts/`);
    await page.waitForSelector('[data-name="draft one.txt"]');
    expect(await page.textContent('[data-testid=share-name]')).toBe('Drafts');
    expect(await readQr(page)).toBe(`${folderUrl}/Drafts`);
    await shot(page, 'share-folder-sub');
    await page.click('[data-testid=share-crumbs] a');
    await page.waitForURL(`${server.url}/share/${hash}/`);
    await page.waitForSelector('[data-name="plan.txt"]');
    await shot(page, 'share-folder');
    await context.close();
  });

  test('a long folder shows 100 items, and the +N item adds the rest', async () => {
    const { hash } = await share('/Big');
    const { context, page } = await newPage(browser);
    await page.goto(`${server.url}/share/${hash}`);
    await page.waitForSelector('[data-testid=share-more]');
    expect(await page.locator('[data-testid=share-item]').count()).toBe(100);
    expect(await page.textContent('[data-testid=share-more]')).toBe('+30');
    expect(await page.textContent('[data-testid=share-size]')).toBe('130 items');
    await page.click('[data-testid=share-more]');
    await page.waitForSelector('[data-name="file-129.txt"]');
    expect(await page.locator('[data-testid=share-item]').count()).toBe(130);
    expect(await page.locator('[data-testid=share-more]').count()).toBe(0);
    await context.close();
  });

  test('a password share asks for the password, refuses a wrong one, then adds the token to its links', async () => {
    const { hash } = await share('/Projects', { password: 'open sesame%' });
    const { context, page } = await newPage(browser);
    await page.goto(`${server.url}/share/${hash}`);
    await page.waitForSelector('[data-testid=share-password]');
    expect(await page.locator('[data-testid=share-password-error]').count()).toBe(0);
    await page.click('[data-testid=share-password] button[type=submit]'); // empty: nothing is sent
    expect(await page.locator('[data-testid=share-password-error]').count()).toBe(0);
    await page.fill('input[name=share-password]', 'not it');
    await page.click('[data-testid=share-password] button[type=submit]');
    await page.waitForSelector('[data-testid=share-password-error]');
    expect(await page.textContent('[data-testid=share-password-error]')).toContain('Wrong credentials');
    await shot(page, 'share-password-wrong');
    await page.fill('input[name=share-password]', 'open sesame%');
    await page.click('[data-testid=share-password] button[type=submit]');
    await page.waitForSelector('[data-testid=share-box]');
    const href = await page.getAttribute('[data-testid=share-download]', 'href');
    const token = new URL(href!).searchParams.get('token');
    expect(token?.length).toBeGreaterThan(20);
    expect(await readQr(page)).toBe(`${server.url}/api/public/dl/${hash}?token=${encodeURIComponent(token!)}`);
    expect((await fetch(href!)).status).toBe(200);
    expect((await fetch(`${server.url}/api/public/dl/${hash}?algo=zip`)).status).toBe(401);
    const fileHref = await page.getAttribute('[data-name="plan.txt"] [data-testid=share-item-download]', 'href');
    expect(await (await fetch(fileHref!)).text()).toBe('the plan');
    // moving inside the share keeps access
    await page.click('[data-name="Drafts"] [data-testid=share-item-link]');
    await page.waitForSelector('[data-name="draft one.txt"]');
    await context.close();
  });

  test('an expired share and an unknown hash say the link leads nowhere', async () => {
    const { hash } = await share('/report.txt', { expires: '1', unit: 'seconds' });
    await Bun.sleep(2000);
    const { context, page } = await newPage(browser);
    await page.goto(`${server.url}/share/${hash}`);
    // The share page's own card (no app error page with its Home link, which leads a visitor to a login)
    await page.waitForSelector('[data-testid=share-status]');
    expect(await page.getAttribute('[data-testid=share-status]', 'data-status')).toBe('404');
    expect(['missing', 'expired']).toContain((await page.getAttribute('[data-testid=share-status]', 'data-state'))!);
    await shot(page, 'share-expired');
    await page.goto(`${server.url}/share/no-such-hash`);
    await page.waitForSelector('[data-testid=share-status][data-status="404"][data-state=missing]');
    expect(await page.textContent('[data-testid=share-status]')).toContain('Link not found');
    await context.close();
  });

  test('the share page holds at 375 px, for a file and a folder', async () => {
    const file = await share('/report.txt');
    const folder = await share('/Projects');
    const { context, page } = await newPage(browser, { width: 375, height: 740 });
    await page.goto(`${server.url}/share/${file.hash}`);
    await page.waitForSelector('[data-testid=share-qr]');
    expect(await fitsWidth(page)).toBe(true);
    await shot(page, 'share-file-375');
    await page.goto(`${server.url}/share/${folder.hash}`);
    await page.waitForSelector('[data-testid=share-item]');
    await page.waitForSelector('[data-testid=share-qr]');
    expect(await fitsWidth(page)).toBe(true);
    await shot(page, 'share-folder-375');
    await context.close();
  });
});
