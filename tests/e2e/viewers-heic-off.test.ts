import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { Page } from 'playwright-core';
import { cli, type RunningServer } from '../helpers/binary';
import { closeSession, loginAs, newPage, openSession, shot, workspace, type Session } from './browser';
import { heic, png, put } from './viewers-fixture';

// A server started with thumbnails off: its preview gate (server/services/preview/preview-gate.ts) lets no HEIC
// decoder run, so the previewer must offer the download instead of a broken image.
const HAVE = !!Bun.which('heif-enc');
const ws = workspace('filedeck-viewers-heic-off-');
const { db, root } = ws;
const PW = 'viewers-heic-off-password-62';
let server: RunningServer;
let page: Page;
let session: Session | undefined;

beforeAll(async () => {
  if (!HAVE) return;
  put(root, 'Photos/beach.png', await png(400, 300));
  await heic(ws.dir, root, 'Photos/IMG_0420.heic', 640, 480);
  session = await openSession(ws, PW, ['--enableThumbnails', 'false']);
  ({ server, page } = session);
}, 60_000);
afterAll(() => closeSession(ws, session));

/** Opens the previewer on the HEIC and waits for its no-preview card (the state asserted). */
async function openHeic(p: Page): Promise<void> {
  await p.goto(`${server.url}/files/Photos/`);
  await p.dblclick('[data-testid=item][data-name="IMG_0420.heic"]');
  await p.waitForSelector('[data-testid=previewer] [data-testid=preview-name]:text-is("IMG_0420.heic")');
  await p.locator('[data-testid=preview-none]').waitFor();
}

describe.skipIf(!HAVE)('HEIC photos with thumbnails off', () => {
  test('the previewer says HEIC previews are off and offers the download; no preview image is requested', async () => {
    const asked: string[] = [];
    page.on('request', (r) => r.url().includes('/api/preview/') && asked.push(r.url()));
    await openHeic(page);
    expect(await page.locator('[data-testid=preview-none]').textContent()).toContain('Previews of HEIC photos are turned off on this server');
    expect(await page.locator('[data-testid=preview-image]').count()).toBe(0);
    expect(await page.locator('[data-testid=preview-none-download]').getAttribute('href')).toContain('/api/raw/Photos/IMG_0420.heic');
    expect(asked).toEqual([]);
    // The server refuses it as the previewer expects (the same 501 a PDF thumbnail gets with thumbnails off); the
    // page's own auth cookie authorises this GET as it does the media URLs.
    const status = await page.evaluate(async () => (await fetch('/api/preview/big/Photos/IMG_0420.heic')).status);
    expect(status).toBe(501);
    for (const theme of ['light', 'dark']) {
      await page.evaluate((t) => (document.documentElement.dataset.theme = t), theme);
      for (const width of [1280, 375]) {
        await page.setViewportSize({ width, height: 800 });
        await shot(page, `viewers-heic-off-${theme}-${width}`);
      }
    }
  }, 60_000);

  test('the same card in an RTL locale', async () => {
    expect((await cli(['-d', db, '-r', root, 'users', 'update', 'admin', '--locale', 'ar'])).code).toBe(0);
    const { context, page: p } = await newPage(session!.browser, { width: 375, height: 800 });
    try {
      await loginAs(p, server.url, 'admin', PW);
      await p.waitForFunction(() => document.documentElement.dir === 'rtl');
      await openHeic(p);
      expect(await p.locator('[data-testid=preview-none-download]').count()).toBe(1);
      await shot(p, 'viewers-heic-off-ar-375');
    } finally {
      await context.close();
    }
  }, 60_000);
});
