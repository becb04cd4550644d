import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { CDPSession, Page } from 'playwright-core';
import { cli } from '../helpers/binary';
import { closeSession, loginAs, newPage, openSession, shot, workspace, type Session } from './browser';
import { jpeg, png, put } from './viewers-fixture';

// Touch (issue 16 item 2) on a 375 px phone with Playwright's touch emulation: taps open, a long-press selects,
// swipes step through photos and a pinch zooms. Gestures Playwright has no helper for go through CDP.
const ws = workspace('filedeck-touch-');
const PW = 'touch-admin-password-64';
const PHONE = { width: 375, height: 812, touch: true } as const;
let session: Session | undefined;
let page: Page;
let cdp: CDPSession;
let base = '';
const fd = (...args: string[]) => cli(['-d', ws.db, '-r', ws.root, ...args]);

beforeAll(async () => {
  put(ws.root, 'Album/a-harbour.png', await png(800, 500));
  put(ws.root, 'Album/b-meadow.jpg', await jpeg(600, 600));
  put(ws.root, 'cover.png', await png(200, 120, [60, 200, 250]));
  for (const n of ['one.txt', 'two.txt', 'three.txt', 'four.txt']) put(ws.root, n, n);
  for (let i = 0; i < 80; i++) put(ws.root, `Album/Many/item-${String(i).padStart(2, '0')}.txt`, String(i));
  session = await openSession(ws, PW, [], undefined, PHONE);
  page = session.page;
  base = session.server.url;
  cdp = await page.context().newCDPSession(page);
});
afterAll(() => closeSession(ws, session));

type Point = { x: number; y: number };
const item = (name: string) => `[data-testid=item][data-name="${name}"]`;
const selectedNames = () => page.$$eval('[data-testid=item][aria-selected=true]', (els) => els.map((e) => e.getAttribute('data-name')));

/** A point of the element that a finger can reach: scrolled to the middle, and not under a bar or a toast. */
async function centre(selector: string): Promise<Point> {
  const el = page.locator(selector);
  await el.evaluate((e) => e.scrollIntoView({ block: 'center' }));
  const p = await el.evaluate((e) => {
    const r = e.getBoundingClientRect();
    const x = Math.round(r.left + r.width / 2);
    for (let y = Math.round(r.top + r.height / 2); y > r.top; y -= 4) if (e.contains(document.elementFromPoint(x, y))) return { x, y };
    return null;
  });
  if (!p) throw new Error(`${selector} is covered or not on screen`);
  return p;
}

/** Waits until the page has stopped scrolling (a fling from an earlier stroke may still be moving it). */
async function settled(): Promise<void> {
  for (let i = 0; i < 40; i++) {
    const a = await page.evaluate(() => window.scrollY);
    await page.waitForTimeout(100);
    if ((await page.evaluate(() => window.scrollY)) === a) return;
  }
}

async function tapOn(selector: string): Promise<void> {
  await settled();
  const c = await centre(selector);
  await page.touchscreen.tap(c.x, c.y);
}

const touch = (type: 'touchStart' | 'touchMove' | 'touchEnd', points: Point[]) => cdp.send('Input.dispatchTouchEvent', { type, touchPoints: points.map((p, id) => ({ ...p, id })) });

/**
 * A finger held still. Chrome on a phone also fires `contextmenu` (pointerType 'touch') at the target when a
 * press lasts; the emulated touchscreen does not, so it is sent here. Returns whether the page refused it.
 */
async function longPress(p: Point): Promise<boolean> {
  await touch('touchStart', [p]);
  await page.waitForTimeout(600);
  const refused = await page.evaluate(({ x, y }) => {
    const e = new PointerEvent('contextmenu', { bubbles: true, cancelable: true, pointerType: 'touch', clientX: x, clientY: y });
    document.elementFromPoint(x, y)?.dispatchEvent(e);
    return e.defaultPrevented;
  }, p);
  await page.waitForTimeout(150);
  await touch('touchEnd', []);
  return refused;
}

/** One finger from `from` to `to` in steps, as a real stroke arrives. */
async function stroke(from: Point, to: Point, steps = 8): Promise<void> {
  await touch('touchStart', [from]);
  for (let i = 1; i <= steps; i++) {
    await touch('touchMove', [{ x: from.x + ((to.x - from.x) * i) / steps, y: from.y + ((to.y - from.y) * i) / steps }]);
    await page.waitForTimeout(16);
  }
  await touch('touchEnd', []);
}

/** Two fingers moving apart from `from` to `to` px on either side of `c`. */
async function pinch(c: Point, from: number, to: number, steps = 8): Promise<void> {
  const at = (d: number) => [
    { x: c.x - d, y: c.y },
    { x: c.x + d, y: c.y },
  ];
  await touch('touchStart', at(from));
  for (let i = 1; i <= steps; i++) {
    await touch('touchMove', at(from + ((to - from) * i) / steps));
    await page.waitForTimeout(16);
  }
  await touch('touchEnd', []);
}

/** Loads a page and waits for the start-up overlay to go: until then it takes every touch. */
async function home(path = '/files/'): Promise<void> {
  await page.goto(`${base}${path}`);
  await page.waitForSelector('[data-testid=item]');
  await page.waitForSelector('#loading', { state: 'detached' });
}

describe('touch in the listing', () => {
  test('a tap opens a folder, and a file in the previewer, without selecting anything', async () => {
    await home();
    await tapOn(item('Album'));
    await page.waitForURL(`${base}/files/Album/`);
    await page.waitForSelector(item('a-harbour.png'));
    expect(await selectedNames()).toEqual([]);
    await home();
    await tapOn(item('cover.png'));
    await page.waitForURL(`${base}/files/cover.png`);
    await page.waitForSelector('[data-testid=previewer] [data-testid=preview-image]');
  });

  test('a long-press selects; then taps add and remove; the bar counts them and deletes them on disk; empty again, a tap opens', async () => {
    await home();
    expect(await longPress(await centre(item('one.txt')))).toBe(true); // no browser callout
    await page.waitForSelector('[data-testid=selection-bar]', { state: 'visible' });
    expect(await selectedNames()).toEqual(['one.txt']);
    expect(await page.textContent('[data-testid=selection-count]')).toBe('1 item selected');
    // neither the app's context menu nor a navigation came with it
    expect(await page.locator('[data-testid=context-menu]').count()).toBe(0);
    expect(page.url()).toBe(`${base}/files/`);

    for (const n of ['two.txt', 'three.txt', 'four.txt']) await tapOn(item(n));
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=item][aria-selected=true]').length === 4);
    await tapOn(item('three.txt')); // out again
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=item][aria-selected=true]').length === 3);
    expect((await selectedNames()).sort()).toEqual(['four.txt', 'one.txt', 'two.txt']);
    expect(await page.textContent('[data-testid=selection-count]')).toBe('3 items selected');
    // the item touched last has the focus (keys go on from there) but shows no focus ring
    expect(await page.evaluate(() => [document.activeElement?.getAttribute('data-name'), document.activeElement?.matches(':focus-visible')])).toEqual(['three.txt', false]);
    expect(page.url()).toBe(`${base}/files/`);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.waitForTimeout(400); // the header slides back in after a scroll up
    await shot(page, 'touch-selection-375-light', { fullPage: false });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
    await shot(page, 'touch-selection-375-dark', { fullPage: false });
    await page.emulateMedia({ colorScheme: 'light' });

    // One row at 375 px: with "3 items selected" beside it, Delete is in the bar's More menu.
    expect(await page.locator('[data-testid=bar-delete]').count()).toBe(0);
    await tapOn('[data-testid=selection-more]');
    await tapOn('[data-testid=menu-delete]');
    await page.waitForSelector('[data-testid=prompt-delete]');
    await tapOn('[data-testid=prompt-confirm]');
    await page.waitForSelector(item('one.txt'), { state: 'detached' });
    for (const n of ['one.txt', 'two.txt', 'four.txt']) expect(existsSync(join(ws.root, n))).toBe(false);
    expect(existsSync(join(ws.root, 'three.txt'))).toBe(true);
    expect(await page.isVisible('[data-testid=selection-bar]')).toBe(false);

    // nothing selected: a tap opens again (once the undo toast over the last row is closed)
    await tapOn('[data-testid=undo-close]');
    await page.waitForSelector('[data-testid=undo-toast]', { state: 'detached' });
    await tapOn(item('three.txt'));
    await page.waitForURL(`${base}/files/three.txt`);
  });

  test('a scroll by touch is neither a tap nor a long-press, and the virtualised rows follow it', async () => {
    await home('/files/Album/Many/');
    const start = await centre(item('item-05.txt'));
    await stroke(start, { x: start.x, y: start.y - 400 }, 12);
    await page.waitForFunction(() => window.scrollY > 100);
    // a slow scroll that ends after the long-press time is no long-press either
    const again = await centre(item('item-10.txt'));
    await touch('touchStart', [again]);
    for (let i = 1; i <= 6; i++) {
      await touch('touchMove', [{ x: again.x, y: again.y - 30 * i }]);
      await page.waitForTimeout(120);
    }
    await touch('touchEnd', []);
    await page.waitForTimeout(300);
    expect(page.url()).toBe(`${base}/files/Album/Many/`);
    expect(await selectedNames()).toEqual([]);
    // the rows in view are rendered, and a tap opens the one under the finger
    const later = 'item-40.txt';
    // Stroke towards it until it is rendered once the page has come to rest (a fling on a slow machine may carry
    // past it: then the next stroke goes back).
    const rendered = () => page.$$eval('[data-testid=item]', (els) => els.map((e) => Number(/item-(\d+)/.exec(e.getAttribute('data-name') ?? '')?.[1] ?? -1)));
    for (let i = 0; i < 20; i++) {
      await settled();
      const shown = await rendered();
      if (shown.includes(40)) break;
      const down = Math.max(...shown) < 40;
      await stroke({ x: 180, y: down ? 600 : 300 }, { x: 180, y: down ? 300 : 600 });
    }
    expect(await selectedNames()).toEqual([]);
    await tapOn(item(later));
    await page.waitForURL(`${base}/files/Album/Many/${later}`);
  });
});

describe('touch in the previewer', () => {
  const shown = () => page.textContent('[data-testid=preview-name]');
  const zoom = async () => Number(await page.getAttribute('[data-testid=zoom-surface]', 'data-zoom'));

  test('a swipe steps between photos, a pinch zooms, and a swipe on a zoomed photo pans instead', async () => {
    await page.goto(`${base}/files/Album/a-harbour.png`);
    await page.waitForSelector('[data-testid=preview-image]');
    await page.waitForSelector('#loading', { state: 'detached' });
    await page.waitForSelector('[data-testid=preview-next]', { state: 'attached' });
    const c = await centre('[data-testid=zoom-surface]');
    await stroke({ x: c.x + 120, y: c.y }, { x: c.x - 120, y: c.y + 10 });
    await page.waitForURL(`${base}/files/Album/b-meadow.jpg`);
    await page.waitForFunction(() => document.querySelector('[data-testid=preview-name]')?.textContent === 'b-meadow.jpg');
    expect(await page.getAttribute('[data-testid=preview-image]', 'alt')).toBe('b-meadow.jpg');
    await page.waitForSelector('[data-testid=preview-prev]', { state: 'attached' });
    await stroke({ x: c.x - 120, y: c.y }, { x: c.x + 120, y: c.y });
    await page.waitForURL(`${base}/files/Album/a-harbour.png`);
    expect(await shown()).toBe('a-harbour.png');

    // a mostly vertical stroke is not a swipe
    await stroke({ x: c.x, y: c.y - 100 }, { x: c.x + 60, y: c.y + 100 });
    await page.waitForTimeout(200);
    expect(await shown()).toBe('a-harbour.png');

    expect(await zoom()).toBe(1);
    await pinch(c, 40, 130);
    await page.waitForFunction(() => Number(document.querySelector('[data-testid=zoom-surface]')?.getAttribute('data-zoom')) > 2);
    const scale = await zoom();
    expect(scale).toBeGreaterThan(2);
    expect(await shown()).toBe('a-harbour.png'); // the pinch moved to no other photo
    const before = await page.locator('.zoom__content').evaluate((el) => el.style.transform);
    await stroke({ x: c.x + 120, y: c.y }, { x: c.x - 120, y: c.y });
    await page.waitForTimeout(300);
    expect(page.url()).toBe(`${base}/files/Album/a-harbour.png`);
    expect(await zoom()).toBe(scale);
    expect(await page.locator('.zoom__content').evaluate((el) => el.style.transform)).not.toBe(before);
  });
});

describe('right to left', () => {
  test('in Arabic the swipes are mirrored, and the selection mode looks right', async () => {
    expect((await fd('users', 'update', 'admin', '--locale', 'ar')).code).toBe(0);
    const { context, page: ar } = await newPage(session!.browser, { ...PHONE, locale: 'ar' });
    const arCdp = await context.newCDPSession(ar);
    const arTouch = (type: 'touchStart' | 'touchMove' | 'touchEnd', points: Point[]) => arCdp.send('Input.dispatchTouchEvent', { type, touchPoints: points.map((p, id) => ({ ...p, id })) });
    try {
      await loginAs(ar, base, 'admin', PW);
      await ar.goto(`${base}/files/Album/`);
      await ar.waitForSelector(item('a-harbour.png'));
      await ar.waitForSelector('#loading', { state: 'detached' });
      expect(await ar.getAttribute('html', 'dir')).toBe('rtl');
      const box = (await ar.locator(item('a-harbour.png')).boundingBox())!;
      const p = { x: Math.round(box.x + box.width / 2), y: Math.round(box.y + box.height / 2) };
      await arTouch('touchStart', [p]);
      await ar.waitForTimeout(750);
      await arTouch('touchEnd', []);
      await ar.waitForSelector('[data-testid=selection-bar]', { state: 'visible' });
      await shot(ar, 'touch-selection-375-ar', { fullPage: false });

      await ar.goto(`${base}/files/Album/a-harbour.png`);
      await ar.waitForSelector('[data-testid=preview-next]', { state: 'attached' });
      await ar.waitForSelector('#loading', { state: 'detached' });
      const s = (await ar.locator('[data-testid=zoom-surface]').boundingBox())!;
      const c = { x: Math.round(s.x + s.width / 2), y: Math.round(s.y + s.height / 2) };
      // right to left: the next photo comes from the left, so the finger moves to the right
      await arTouch('touchStart', [{ x: c.x - 120, y: c.y }]);
      for (let i = 1; i <= 8; i++) {
        await arTouch('touchMove', [{ x: c.x - 120 + 30 * i, y: c.y }]);
        await ar.waitForTimeout(16);
      }
      await arTouch('touchEnd', []);
      await ar.waitForURL(`${base}/files/Album/b-meadow.jpg`);
    } finally {
      await context.close();
      await fd('users', 'update', 'admin', '--locale', 'en');
    }
  });
});
