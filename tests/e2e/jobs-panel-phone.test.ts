import { afterAll, beforeAll, expect, test } from 'bun:test';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page, Route } from 'playwright-core';
import { AUTO_COLLAPSE_MS } from '../../web/components/layout/use-auto-collapse';
import { cli, type RunningServer } from '../helpers/binary';
import { closeSession, loginAs, newPage, openSession, shot, workspace, type Session } from './browser';

// The panel dock on a phone (issue: panels covering the page's own controls): the jobs panel (and the upload panel)
// stack at the bottom, above the selection bar, clear of the header, breadcrumbs, count, filter and sort chips; the
// last item scrolls clear of them; a panel whose jobs have ended folds by itself, but not a failure nobody has seen.
const ws = workspace('filedeck-jobs-panel-phone-');
const { root } = ws;
const PW = 'jobs-panel-phone-password-3';
let server: RunningServer;
let session: Session | undefined;

beforeAll(async () => {
  mkdirSync(join(root, 'pack', 'docs'), { recursive: true });
  for (let i = 0; i < 5; i++) writeFileSync(join(root, 'pack', 'docs', `d${i}.txt`), `doc ${i}\n`);
  mkdirSync(join(root, 'phone'));
  Bun.spawnSync(['zip', '-qr', join(root, 'phone', 'p.zip'), 'docs'], { cwd: join(root, 'pack') });
  for (let i = 0; i < 30; i++) writeFileSync(join(root, 'phone', `f${String(i).padStart(2, '0')}.txt`), `${i}\n`);
  mkdirSync(join(root, 'bad'));
  writeFileSync(join(root, 'bad', 'broken.zip'), 'this is not a zip archive\n'.repeat(20));
  copyFileSync(join(root, 'phone', 'p.zip'), join(root, 'bad', 'good.zip'));
  // Amira reads the app in Arabic (right to left): the language is the user's.
  const amira = () => cli(['-d', ws.db, '-r', ws.root, 'users', 'add', 'amira', PW, '--locale', 'ar', '--scope', '/', '--perm.admin', 'true']);
  session = await openSession(ws, PW, [], async () => void expect((await amira()).code).toBe(0));
  server = session.server;
}, 60_000);
afterAll(() => closeSession(ws, session));

type Box = { top: number; bottom: number; left: number; right: number };
const overlaps = (a: Box, b: Box) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

/** The boxes of the given test ids (null when absent), measured in one go. */
const boxes = (page: Page, ids: string[]) =>
  page.evaluate((list) => {
    const out: Record<string, Box | null> = {};
    for (const id of list) {
      const b = document.querySelector(`[data-testid="${id}"]`)?.getBoundingClientRect();
      out[id] = b ? { top: b.top, bottom: b.bottom, left: b.left, right: b.right } : null;
    }
    return out;
  }, ids);

/** A page of its own, logged in through the form (a page renews its token, which retires the one it had). */
async function opened(opts: { width: number; height: number; rtl?: boolean; dark?: boolean }) {
  const { context, page } = await newPage(session!.browser, opts);
  if (opts.dark) await page.emulateMedia({ colorScheme: 'dark' });
  await loginAs(page, server.url, opts.rtl ? 'amira' : 'admin', PW);
  return { context, page };
}
const phone = (opts: { rtl?: boolean; dark?: boolean } = {}) => opened({ width: 375, height: 740, ...opts });

/** Starts a real job with the page's current token, as another tab or the CLI would. */
async function startJob(page: Page, body: object): Promise<void> {
  const token = (await page.evaluate(() => localStorage.getItem('jwt'))) as string;
  const r = await fetch(`${server.url}/api/jobs`, { method: 'POST', headers: { 'X-Auth': token }, body: JSON.stringify(body) });
  expect(r.status).toBe(202);
}

const panelOpen = (page: Page, open: boolean, timeout = 10_000) => page.waitForSelector(`[data-testid=jobs-panel][data-open=${open}]`, { state: 'attached', timeout });

test('on a phone the jobs panel sits above the selection bar, clear of the page controls, and folds once its job is done', async () => {
  const { context, page } = await phone();
  try {
    await page.goto(`${server.url}/files/phone/`);
    await page.waitForSelector('[data-name="f00.txt"]');
    await page.click('[data-name="f00.txt"]');
    await page.waitForSelector('[data-testid=selection-bar]');
    await startJob(page, { kind: 'extract', items: ['/phone/p.zip'], conflict: 'rename' });
    await page.waitForSelector('[data-testid=jobs-panel] [data-testid=job][data-state=done]');
    const doneAt = Date.now();
    await panelOpen(page, true, 1000);
    await page.evaluate(() => window.scrollTo(0, 0));
    // The dock is placed from the bar's measured height: wait until the panel's bottom has reached its place.
    await page.waitForFunction(() => {
      const p = document.querySelector('[data-testid=jobs-panel]')!.getBoundingClientRect();
      const bar = document.querySelector('[data-testid=selection-bar]')!.getBoundingClientRect();
      return p.bottom <= bar.top;
    });
    const b = await boxes(page, ['jobs-panel', 'selection-bar', 'breadcrumbs', 'item-count', 'listing-filter', 'sort-name', 'header-actions']);
    const panel = b['jobs-panel']!;
    for (const id of ['breadcrumbs', 'item-count', 'listing-filter', 'sort-name', 'header-actions']) {
      expect({ id, overlaps: overlaps(panel, b[id]!) }).toEqual({ id, overlaps: false });
    }
    const bar = b['selection-bar']!;
    expect(bar.top - panel.bottom).toBeGreaterThanOrEqual(4); // a gap, not touching
    expect(bar.top - panel.bottom).toBeLessThanOrEqual(12); // directly above it, not floating higher
    expect(panel.left).toBeGreaterThanOrEqual(0);
    expect(panel.right).toBeLessThanOrEqual(375);
    await shot(page, 'jobs-panel-phone-375-light', { fullPage: false });

    // The last item scrolls clear of the panel and the bar.
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await page.waitForFunction(() => {
      const items = [...document.querySelectorAll('[data-testid=item]')];
      const last = items[items.length - 1];
      return last?.getAttribute('data-name') === 'p.zip' && Math.abs(window.scrollY + innerHeight - document.documentElement.scrollHeight) < 2;
    });
    const last = (await page.locator('[data-testid=item][data-name="p.zip"]').boundingBox())!;
    const dockTop = (await boxes(page, ['jobs-panel']))['jobs-panel']!.top;
    expect(last.y + last.height).toBeLessThanOrEqual(dockTop);
    await page.evaluate(() => window.scrollTo(0, 0));

    // It folds to its header by itself, about AUTO_COLLAPSE_MS after the job ended.
    await panelOpen(page, false, AUTO_COLLAPSE_MS + 15_000);
    expect(Date.now() - doneAt).toBeGreaterThanOrEqual(AUTO_COLLAPSE_MS - 1500);
    expect(await page.isVisible('[data-testid=job]')).toBe(false);
    expect(await page.getAttribute('[data-testid=jobs-toggle]', 'aria-expanded')).toBe('false');
    await shot(page, 'jobs-panel-phone-folded-375-light', { fullPage: false });

    // Opened again by the user, it stays open (this wait proves that nothing happens: it must outlast the timer).
    // (The focus leaves the panel: a focused panel is held open anyway, and this is about the user's "open".)
    await page.click('[data-testid=jobs-toggle]');
    await panelOpen(page, true);
    await page.mouse.move(5, 5);
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.waitForTimeout(AUTO_COLLAPSE_MS + 1000);
    expect(await page.getAttribute('[data-testid=jobs-panel]', 'data-open')).toBe('true');
  } finally {
    await context.close();
  }
}, 90_000);

test('a failed job keeps the panel open until it has been seen, then it folds', async () => {
  const { context, page } = await phone();
  try {
    await page.goto(`${server.url}/files/bad/`);
    await page.waitForSelector('[data-name="broken.zip"]');
    await page.mouse.move(5, 5);
    await startJob(page, { kind: 'extract', items: ['/bad/broken.zip'], conflict: 'rename' });
    await page.waitForSelector('[data-testid=job][data-state=failed] [data-testid=job-error]');
    // Past the time it would have folded: still open (a fixed wait, as this proves that nothing happens).
    await page.waitForTimeout(AUTO_COLLAPSE_MS + 1000);
    expect(await page.getAttribute('[data-testid=jobs-panel]', 'data-open')).toBe('true');
    await shot(page, 'jobs-panel-phone-failed-375-light', { fullPage: false });
    // Pointing at it is seeing it; once the pointer has left, it folds.
    const seenAt = Date.now();
    await page.hover('[data-testid=job-error]');
    await page.mouse.move(5, 5);
    await panelOpen(page, false, AUTO_COLLAPSE_MS + 15_000);
    expect(Date.now() - seenAt).toBeGreaterThanOrEqual(AUTO_COLLAPSE_MS - 1500);
    // New work opens the folded panel again.
    await startJob(page, { kind: 'extract', items: ['/bad/good.zip'], conflict: 'rename' });
    await panelOpen(page, true);
  } finally {
    await context.close();
  }
}, 90_000);

test('jobs and uploads stack above each other and above the selection bar; screenshots light, dark and right to left', async () => {
  for (const [rtl, dark] of [[false, false], [false, true], [true, false], [true, true]] as const) {
    const { context, page } = await phone({ rtl, dark });
    // Hold the upload's data so that the upload panel stays while we look at it.
    let release = () => {};
    const held = new Promise<void>((r) => (release = r));
    await page.route('**/api/tus/**', async (route: Route) => {
      if (route.request().method() === 'PATCH') await held;
      await route.continue().catch(() => {}); // cancelled meanwhile
    });
    try {
      await page.goto(`${server.url}/files/phone/`);
      await page.waitForSelector('[data-name="f01.txt"]');
      if (rtl) await startJob(page, { kind: 'extract', items: ['/phone/p.zip'], conflict: 'rename' });
      await page.waitForSelector('[data-testid=jobs-panel]');
      await page.click('[data-testid=action-upload]');
      await page.waitForSelector('[data-testid=prompt-upload]');
      const file = join(ws.dir, 'held.bin');
      writeFileSync(file, Buffer.alloc(64 * 1024, 7));
      await page.setInputFiles('[data-testid=upload-input-files]', file);
      await page.waitForSelector('[data-testid=upload-job][data-state=active]');
      await page.waitForSelector('[data-testid=prompt-upload]', { state: 'detached' });
      await page.click('[data-name="f01.txt"]');
      await page.waitForSelector('[data-testid=selection-bar]');
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.waitForFunction(() => {
        const up = document.querySelector('[data-testid=upload-panel]')!.getBoundingClientRect();
        return up.bottom <= document.querySelector('[data-testid=selection-bar]')!.getBoundingClientRect().top;
      });
      const b = await boxes(page, ['jobs-panel', 'upload-panel', 'selection-bar', 'item-count', 'listing-filter']);
      expect(b['jobs-panel']!.bottom).toBeLessThanOrEqual(b['upload-panel']!.top);
      expect(b['upload-panel']!.bottom).toBeLessThanOrEqual(b['selection-bar']!.top);
      for (const id of ['item-count', 'listing-filter']) expect(overlaps(b['jobs-panel']!, b[id]!)).toBe(false);
      await shot(page, `jobs-panel-phone-stack-375-${rtl ? 'ar' : 'en'}-${dark ? 'dark' : 'light'}`, { fullPage: false });
      await page.click('[data-testid=upload-cancel-all]');
      await page.waitForSelector('[data-testid=upload-panel]', { state: 'detached' });
    } finally {
      release();
      await context.close();
    }
  }
}, 120_000);

test('on a wide screen the dock sits in the end corner: bottom right, and bottom left in Arabic', async () => {
  for (const [rtl, dark] of [[false, false], [true, true]] as const) {
    const { context, page } = await opened({ width: 1280, height: 800, rtl, dark });
    try {
      await page.goto(`${server.url}/files/phone/`);
      await page.waitForSelector('[data-name="f01.txt"]');
      await startJob(page, { kind: 'extract', items: ['/phone/p.zip'], conflict: 'rename' });
      await page.waitForSelector('[data-testid=jobs-panel] [data-testid=job][data-state=done]');
      const p = (await boxes(page, ['jobs-panel']))['jobs-panel']!;
      const width = await page.evaluate(() => document.documentElement.clientWidth);
      expect(800 - p.bottom).toBeCloseTo(16, 0);
      // The end edge, whichever side the scroll bar is on.
      if (rtl) expect(p.left).toBeLessThanOrEqual(32);
      else expect(width - p.right).toBeCloseTo(16, 0);
      expect(p.right - p.left).toBeLessThanOrEqual(400);
      await shot(page, `jobs-panel-dock-1280-${rtl ? 'ar-dark' : 'en-light'}`, { fullPage: false });
    } finally {
      await context.close();
    }
  }
}, 60_000);
