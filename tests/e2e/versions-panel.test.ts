import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import type { RunningServer } from '../helpers/binary';
import { shotsAround } from './account-fixture';
import { expectAccessible } from './axe';
import { closeSession, loginAs, openSession, runSelectionAction, selectItems, shot, workspace, type Session } from './browser';

// The Versions panel (issue 35): the list, an image version's preview, a text version's diff against the current
// content, restore and its undo; at 1280 and 375 px, light and dark, and in Arabic (RTL); axe on the open panel.
const ws = workspace('filedeck-versions-panel-');
const { root } = ws;
const PW = 'versions-admin-password-35';
let server: RunningServer;
let page: Page;
let session: Session | undefined;

/** A w×h PNG of one colour (the image versions differ by colour). */
function png(w: number, h: number, rgb: [number, number, number]): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (b: Buffer) => {
    let c = 0xffffffff;
    for (const x of b) c = crcTable[(c ^ x) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const td = Buffer.concat([Buffer.from(type), data]);
    const c = Buffer.alloc(4);
    c.writeUInt32BE(crc(td));
    return Buffer.concat([len, td, c]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr[8] = 8;
  ihdr[9] = 2;
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(w * 3).map((_, i) => rgb[i % 3]!)]);
  const raw = Buffer.concat(Array.from({ length: h }, () => row));
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

const V1 = 'alpha\nbeta\ngamma\ndelta\n';
const V2 = 'alpha\nBETA changed\ngamma\ndelta\nepsilon added\n';

const token = () => page.evaluate(() => localStorage.getItem('jwt')) as Promise<string>;
const api = async (method: string, path: string, body?: BodyInit, json?: unknown) =>
  fetch(`${server.url}/api${path}`, {
    method,
    headers: { 'X-Auth': await token(), ...(json !== undefined ? { 'Content-Type': 'application/json' } : {}) },
    body: json !== undefined ? JSON.stringify(json) : body,
  });

beforeAll(async () => {
  mkdirSync(join(root, 'Docs'), { recursive: true });
  writeFileSync(join(root, 'Docs', 'notes.txt'), V1);
  writeFileSync(join(root, 'Docs', 'photo.png'), png(64, 48, [220, 40, 40]));
  session = await openSession(ws, PW);
  ({ server, page } = session);
  // Overwrites through the API: an editor save of the text, an upload with override of the image.
  expect((await api('PUT', '/resources/Docs/notes.txt', V2)).status).toBeLessThan(300);
  expect((await api('POST', '/resources/Docs/photo.png?override=true', new Uint8Array(png(64, 48, [40, 90, 220])))).status).toBeLessThan(300);
});
afterAll(() => closeSession(ws, session));

async function openPanel(name: string): Promise<void> {
  await page.goto(`${server.url}/files/Docs/`);
  await page.waitForSelector('[data-testid=listing]');
  await selectItems(page, [name]);
  await runSelectionAction(page, 'versions');
  await page.waitForSelector('[data-testid=prompt-versions]');
  await page.waitForSelector('[data-testid=version-row]');
}

describe('versions panel', () => {
  test('lists the text file\'s version and diffs it against the current content (split wide, unified on a phone)', async () => {
    await openPanel('notes.txt');
    expect(await page.locator('[data-testid=version-row]').count()).toBe(1);
    expect(await page.textContent('[data-testid=version-row]')).toContain('saved in the editor');
    await page.click('[data-testid=version-diff-button]');
    await page.waitForSelector('[data-testid=version-diff]');
    expect(await page.getAttribute('[data-testid=version-diff]', 'data-layout')).toBe('split');
    const text = await page.textContent('[data-testid=version-diff]');
    expect(text).toContain('beta');
    expect(text).toContain('BETA changed');
    expect(text).toContain('epsilon added');
    expect(await page.locator('.vdiff__text--del').count()).toBeGreaterThan(0);
    expect(await page.locator('.vdiff__text--add').count()).toBeGreaterThan(0);
    await expectAccessible(page, 'versions panel with a diff');
    await shotsAround(page, 'versions-diff');
    await page.setViewportSize({ width: 375, height: 800 });
    await page.waitForSelector('[data-testid=version-diff][data-layout=unified]');
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  test('Escape closes the panel; the info prompt opens it too', async () => {
    await page.keyboard.press('Escape');
    await page.waitForSelector('[data-testid=prompt-versions]', { state: 'detached' });
    await runSelectionAction(page, 'info');
    await page.click('[data-testid=info-versions]');
    await page.waitForSelector('[data-testid=version-row]');
  });

  test('restore brings the old text back; Undo restores the content it replaced', async () => {
    await page.click('[data-testid=version-restore]');
    await page.waitForSelector('[data-testid=prompt-versions]', { state: 'detached' });
    await page.waitForSelector('[data-testid=undo-toast]');
    expect(await page.textContent('[data-testid=undo-toast]')).toContain('Version restored');
    expect(readFileSync(join(root, 'Docs', 'notes.txt'), 'utf8')).toBe(V1);
    await shot(page, 'versions-restored-toast');
    await page.click('[data-testid=undo-button]');
    for (let i = 0; i < 50 && readFileSync(join(root, 'Docs', 'notes.txt'), 'utf8') !== V2; i++) await page.waitForTimeout(100);
    expect(readFileSync(join(root, 'Docs', 'notes.txt'), 'utf8')).toBe(V2);
  });

  test('an image version shows as a picture', async () => {
    await openPanel('photo.png');
    await page.click('[data-testid=version-preview]');
    await page.waitForSelector('[data-testid=version-image]');
    await page.waitForFunction(() => (document.querySelector('[data-testid=version-image]') as HTMLImageElement | null)?.naturalWidth === 64);
    await expectAccessible(page, 'versions panel with an image');
    await shotsAround(page, 'versions-image');
  });

  test('in Arabic the panel reads right to left', async () => {
    const me = await api('GET', '/users/1');
    const user = (await me.json()) as Record<string, unknown>;
    const put = await api('PUT', '/users/1', undefined, { what: 'user', which: ['locale'], data: { ...user, id: 1, locale: 'ar' } });
    expect(put.status).toBeLessThan(300);
    // The signed-in session keeps the language it began with: sign in afresh.
    await page.evaluate(() => localStorage.clear());
    await page.context().clearCookies();
    await loginAs(page, server.url, 'admin', PW);
    await openPanel('notes.txt');
    expect(await page.evaluate(() => document.documentElement.dir)).toBe('rtl');
    await page.click('[data-testid=version-diff-button]');
    await page.waitForSelector('[data-testid=version-diff]');
    // Only the panel: behind it the Arabic selection bar's download button has a known label mismatch (not this panel's).
    await expectAccessible(page, 'versions panel in Arabic', { include: '[data-testid=prompt-versions]' });
    await shot(page, 'versions-diff-rtl-1280');
    await page.setViewportSize({ width: 375, height: 800 });
    await shot(page, 'versions-diff-rtl-375');
  });
});
