import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { Page } from 'playwright-core';
import { cli, type RunningServer } from '../helpers/binary';
import { closeSession, openSession, shot, workspace, type Session } from './browser';
import { heic, png, put } from './viewers-fixture';

// HEIC photos in Debian's Chromium (which cannot decode HEIC): the mosaic shows the server's thumbnail and the
// previewer the server's big preview, never the original (issue 16 item 1).
const HAVE = !!Bun.which('heif-convert') && !!Bun.which('heif-enc');
const ws = workspace('filedeck-viewers-heic-');
const { db, root } = ws;
const PW = 'viewers-heic-password-61';
let server: RunningServer;
let page: Page;
let session: Session | undefined;

beforeAll(async () => {
  if (!HAVE) return;
  put(root, 'Photos/beach.png', await png(400, 300));
  await heic(ws.dir, root, 'Photos/IMG_0420.heic', 1600, 1200);
  session = await openSession(ws, PW, [], async () => {
    expect((await cli(['-d', db, '-r', root, 'users', 'update', 'admin', '--viewMode', 'mosaic'])).code).toBe(0);
  });
  ({ server, page } = session);
}, 60_000);
afterAll(() => closeSession(ws, session));

const thumbLoaded = (p: Page, name: string) =>
  p.waitForFunction((n) => {
    const img = document.querySelector(`[data-testid=item][data-name="${n}"] img.item__thumb`) as HTMLImageElement | null;
    return !!img && img.complete && img.naturalWidth > 0;
  }, name);

describe.skipIf(!HAVE)('HEIC photos in the browser', () => {
  test('a .heic shows its thumbnail in the mosaic and opens in the previewer as the big preview', async () => {
    await page.goto(`${server.url}/files/Photos/`);
    await thumbLoaded(page, 'IMG_0420.heic');
    await thumbLoaded(page, 'beach.png');
    const natural = await page.$eval('[data-testid=item][data-name="IMG_0420.heic"] img.item__thumb', (i) => [(i as HTMLImageElement).naturalWidth, (i as HTMLImageElement).naturalHeight]);
    expect(natural).toEqual([256, 256]);
    for (const theme of ['light', 'dark']) {
      await page.evaluate((t) => (document.documentElement.dataset.theme = t), theme);
      for (const width of [1280, 375]) {
        await page.setViewportSize({ width, height: 800 });
        await shot(page, `viewers-heic-mosaic-${theme}-${width}`);
      }
    }
    await page.evaluate(() => delete document.documentElement.dataset.theme);
    await page.setViewportSize({ width: 1280, height: 800 });

    await page.dblclick('[data-testid=item][data-name="IMG_0420.heic"]');
    await page.waitForSelector('[data-testid=previewer] [data-testid=preview-name]:text-is("IMG_0420.heic")');
    const img = page.locator('[data-testid=preview-image]');
    await img.waitFor();
    expect(await img.getAttribute('src')).toContain('/api/preview/big/Photos/IMG_0420.heic?inline=true&key=');
    await page.waitForFunction(() => (document.querySelector('[data-testid=preview-image]') as HTMLImageElement | null)?.naturalWidth === 1080);
    // No "show the original" toggle: the original is of no use to this browser.
    expect(await page.locator('[data-testid=preview-resize]').count()).toBe(0);
    expect(await page.locator('[data-testid=preview-none]').count()).toBe(0);
    await shot(page, 'viewers-heic-preview');
  }, 60_000);
});
