import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { cli } from '../helpers/binary';
import { closeSession, openSession, shot, workspace, type Session } from './browser';

// States (issue 16 item 9): an empty folder invites an upload, error pages offer Retry and Home, skeletons while
// loading, and the upload panel's bytes, speed and time left.
const ws = workspace('filedeck-ux-states-');
const PW = 'ux-states-admin-password-38';
const CHUNK = 1024 * 1024;
let session: Session | undefined;
let page: Page;
let base = '';
const errors: string[] = [];

beforeAll(async () => {
  mkdirSync(join(ws.root, 'Empty'), { recursive: true });
  writeFileSync(join(ws.root, 'keep.txt'), 'x');
  session = await openSession(ws, PW, [], async () => {
    expect((await cli(['-d', ws.db, '-r', ws.root, 'config', 'set', 'tus.chunkSize', String(CHUNK)])).code).toBe(0);
  });
  page = session.page;
  base = session.server.url;
  page.on('pageerror', (e) => errors.push(String(e)));
});
afterAll(() => closeSession(ws, session));

describe('states', () => {
  test('an empty folder offers an upload button that uploads into it; the listing loads behind a skeleton', async () => {
    // hold the listing answer back to see the skeleton
    let release = () => {};
    const held = new Promise<void>((r) => (release = r));
    await page.route('**/api/resources/Empty/**', async (route) => {
      await held;
      await route.continue().catch(() => {});
    });
    // When the skeleton and the progress stripe first appear, by the page's own clock (Playwright's polling adds its own delays).
    await page.addInitScript(() => {
      if (!location.pathname.startsWith('/files/Empty')) return;
      const seen: Record<string, number> = {};
      (window as unknown as { seen: typeof seen }).seen = seen;
      new MutationObserver(() => {
        if (!seen.skeleton && document.querySelector('[data-testid=files-loading]')) seen.skeleton = performance.now();
        if (!seen.progress && document.querySelector('[data-testid=progress]')) seen.progress = performance.now();
      }).observe(document, { childList: true, subtree: true });
    });
    await page.goto(`${base}/files/Empty/`);
    await page.waitForSelector('[data-testid=files-loading].skeleton--listing');
    expect(await page.locator('[data-testid=files-loading] .skeleton__row').count()).toBeGreaterThan(3);
    expect(await page.getAttribute('[data-testid=files-loading]', 'role')).toBe('status');
    // A still skeleton; the stripe only once the load has taken 400 ms, moving in steps (no redraw on every frame).
    await page.waitForSelector('[data-testid=progress].is-indeterminate');
    const seen = await page.evaluate(() => (window as unknown as { seen: { skeleton: number; progress: number } }).seen);
    expect(seen.progress - seen.skeleton).toBeGreaterThanOrEqual(350);
    expect(await page.$eval('.skeleton__block', (e) => getComputedStyle(e).animationName)).toBe('none');
    expect(await page.$eval('.progress__fill', (e) => getComputedStyle(e).animationTimingFunction)).toContain('steps');
    // Asked for less motion, it stands still.
    await page.emulateMedia({ reducedMotion: 'reduce' });
    expect(await page.$eval('.progress__fill', (e) => getComputedStyle(e).animationName)).toBe('none');
    await page.emulateMedia({ reducedMotion: null });
    release();
    await page.unroute('**/api/resources/Empty/**');

    await page.waitForSelector('[data-testid=empty]');
    expect(await page.textContent('[data-testid=empty]')).toContain('It feels lonely here');
    expect(await page.textContent('[data-testid=empty]')).toContain('Drop files or folders here');
    await shot(page, 'ux-states-empty');
    await page.click('[data-testid=empty-upload]');
    await page.waitForSelector('[data-testid=prompt-upload]');
    const picked = join(ws.dir, 'picked');
    mkdirSync(picked, { recursive: true });
    writeFileSync(join(picked, 'first.txt'), 'into the empty folder');
    await page.setInputFiles('[data-testid=upload-input-files]', [join(picked, 'first.txt')]);
    await page.waitForSelector('[data-testid=item][data-name="first.txt"]');
    expect(readFileSync(join(ws.root, 'Empty', 'first.txt'), 'utf8')).toBe('into the empty folder');
  });

  test('the error page and a failed folder load offer Retry and Home', async () => {
    await page.goto(`${base}/files/No such folder/`);
    await page.waitForSelector('[data-testid=error-state][data-status="404"]');
    expect(await page.isVisible('[data-testid=error-retry]')).toBe(true);
    // the folder appears meanwhile: Retry loads it without leaving the page
    mkdirSync(join(ws.root, 'No such folder'));
    writeFileSync(join(ws.root, 'No such folder', 'now.txt'), 'here');
    await page.click('[data-testid=error-retry]');
    await page.waitForSelector('[data-testid=item][data-name="now.txt"]');

    await page.goto(`${base}/500`);
    await page.waitForSelector('[data-testid=error-state]');
    await shot(page, 'ux-states-error');
    await page.click('[data-testid=error-home]');
    await page.waitForURL(`${base}/files/`);
    await page.waitForSelector('[data-testid=item][data-name="keep.txt"]');
  });

  test('the upload panel shows bytes, speed and time left per file and in total', async () => {
    await page.goto(`${base}/files/`);
    await page.waitForSelector('[data-testid=listing]');
    // slow chunks: 1 MiB each ~700 ms, so the panel has time to measure
    await page.route('**/api/tus/**', async (route) => {
      if (route.request().method() === 'PATCH') await new Promise((r) => setTimeout(r, 700));
      await route.continue().catch(() => {});
    });
    const picked = join(ws.dir, 'big');
    mkdirSync(picked, { recursive: true });
    writeFileSync(join(picked, 'big.bin'), Buffer.alloc(8 * CHUNK, 7));
    await page.click('[data-testid=action-upload]');
    await page.waitForSelector('[data-testid=prompt-upload]');
    await page.setInputFiles('[data-testid=upload-input-files]', [join(picked, 'big.bin')]);
    await page.waitForSelector('[data-testid=upload-job-figures]');
    // a speed is measured and a time left shown, per file and in total
    await page.waitForFunction(() => Number(document.querySelector('[data-testid=upload-job-figures]')?.getAttribute('data-rate')) > 0, undefined, { timeout: 15_000 });
    const job = (await page.textContent('[data-testid=upload-job-figures]')) ?? '';
    const total = (await page.textContent('[data-testid=upload-total-figures]')) ?? '';
    expect(job).toMatch(/^[\d.]+\s*(kB|KB|MB|bytes?)\b.* of 8\s*MB/);
    expect(job).toMatch(/(kB|KB|MB)\/s, .*(sec|min|s)\b.* left/);
    expect(total).toMatch(/ of 8\s*MB/);
    expect(total).toContain('left');
    await shot(page, 'ux-states-upload');
    await page.unroute('**/api/tus/**');
    await page.waitForSelector('[data-testid=upload-panel]', { state: 'detached', timeout: 30_000 });
    expect(existsSync(join(ws.root, 'big.bin'))).toBe(true);
    expect(errors).toEqual([]);
  });
});
