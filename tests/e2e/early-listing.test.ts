import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Request as PwRequest } from 'playwright-core';
import { closeSession, loginAs, newPage, openSession, workspace, type Session } from './browser';

// The page's inline start-up script (web/early.ts) asks for the folder's first page while the app's script loads, and
// the app takes that answer over (web/api/early-request.ts); the app starts with the stored token and renews it
// meanwhile (auth.state.ts). A folder bigger than the page is then asked for whole, once the page is painted
// (web/api/resource-stream.ts).
const ws = workspace('filedeck-e2e-early-');
const PW = 'e2e-early-password-5521';
const FOLDER = 'Ünïcode 100% #1 & co';
const BIG = 'big folder';
/** web/api/resources.ts FIRST_PAGE */
const PAGE = 256;
let s: Session;

beforeAll(async () => {
  s = await openSession(ws, PW, [], async () => {
    mkdirSync(join(ws.root, FOLDER, 'inner'), { recursive: true });
    for (let i = 0; i < 5; i++) writeFileSync(join(ws.root, FOLDER, `file ${i}.txt`), 'x');
    mkdirSync(join(ws.root, BIG));
    for (let i = 0; i < PAGE + 44; i++) writeFileSync(join(ws.root, BIG, `item ${String(i).padStart(3, '0')}.txt`), 'x');
  });
});
afterAll(() => closeSession(ws, s));

const folderUrl = () => `${s.server.url}/files/${encodeURIComponent(FOLDER)}/`;
const apiCalls = (page: import('playwright-core').Page) => {
  const seen: string[] = [];
  page.on('request', (r: PwRequest) => {
    const u = new URL(r.url());
    if (u.pathname.startsWith('/api/')) seen.push(`${r.method()} ${u.pathname}${u.search}`);
  });
  return seen;
};

describe('the first listing asked for by the start-up script', () => {
  test('a reload asks for the folder once, before the app renews its session, and shows it', async () => {
    const { page } = s;
    await page.goto(folderUrl());
    await page.waitForSelector('[data-name="file 4.txt"]');
    const before = await page.evaluate(() => localStorage.getItem('jwt'));
    const seen = apiCalls(page);
    await page.reload();
    await page.waitForSelector('[data-name="file 4.txt"]');
    expect(await page.locator('[data-testid=item]').count()).toBe(6);
    // The first page holds the whole of this folder: one request.
    const listing = `GET /api/resources/${encodeURIComponent(FOLDER)}/?limit=${PAGE}`;
    const lists = seen.filter((c) => c.startsWith('GET /api/resources/'));
    expect(lists).toEqual([listing]);
    // Sent by the page's own inline script: before anything the app asks.
    expect(seen[0]).toBe(listing);
    expect(seen).toContain('POST /api/renew');
    // The renewal, run while the folder was shown, replaced the stored token; the page goes on with the new one.
    await page.waitForFunction((old) => localStorage.getItem('jwt') !== old, before);
    await page.dblclick('[data-name="inner"]');
    await page.waitForSelector('[data-testid=empty]');
  });

  test('with a token the server no longer accepts the page goes to the login page once, the folder kept for after', async () => {
    const { context, page } = await newPage(s.browser);
    await loginAs(page, s.server.url, 'admin', PW);
    const token = (await page.evaluate(() => localStorage.getItem('jwt')))!;
    // Ended elsewhere (another tab's logout): the stored token is still there but revoked.
    expect((await fetch(`${s.server.url}/api/logout`, { method: 'POST', headers: { 'X-Auth': token } })).status).toBe(200);
    const seen = apiCalls(page);
    await page.goto(folderUrl());
    await page.waitForURL(/\/login\?redirect=/);
    expect(new URL(page.url()).searchParams.get('redirect')).toBe(`/files/${encodeURIComponent(FOLDER)}/`);
    await page.waitForSelector('input[name=username]');
    expect(await page.evaluate(() => localStorage.getItem('jwt'))).toBeFalsy();
    // The early answer (401) was dropped; the app asked once more, and that answer ended the session: no error toast.
    expect(seen.filter((c) => c.startsWith('GET /api/resources/')).length).toBeLessThanOrEqual(2);
    expect(await page.locator('[data-testid=notice-error]').count()).toBe(0);
    await context.close();
  });

  test('a folder bigger than the first page shows that page, then asks for the whole folder once and shows all of it', async () => {
    const { page } = s;
    await page.goto(`${s.server.url}/files/`);
    await page.waitForSelector('[data-testid=item]');
    const seen = apiCalls(page);
    // Each time the listing's count changes: never, it is the whole folder's from the first page on (issue 39).
    await page.addInitScript(() => {
      const counts: number[] = [];
      (window as unknown as { counts: number[] }).counts = counts;
      new MutationObserver(() => {
        const n = Number(document.querySelector('[data-testid=item-count]')?.getAttribute('data-count') ?? 0);
        if (n && n !== counts.at(-1)) counts.push(n);
      }).observe(document, { childList: true, subtree: true, attributes: true });
    });
    await page.goto(`${s.server.url}/files/${encodeURIComponent(BIG)}/`);
    await page.waitForFunction((n) => document.querySelector('[data-testid=item-count]')?.getAttribute('data-count') === String(n) && !document.querySelector('.listing-toolbar__loading'), PAGE + 44);
    const lists = seen.filter((c) => c.startsWith('GET /api/resources/'));
    expect(lists).toEqual([`GET /api/resources/big%20folder/?limit=${PAGE}`, 'GET /api/resources/big%20folder/']);
    const counts = await page.evaluate(() => (window as unknown as { counts: number[] }).counts);
    expect(counts).toEqual([PAGE + 44]);
    // Every item is there, in order, down to the last one.
    await page.keyboard.press('End');
    await page.waitForSelector(`[data-name="item ${PAGE + 43}.txt"]`);
  });
});

describe('the start-up indicator', () => {
  test('never appears over a mounted view: not shown by then, it is gone before the view is painted', async () => {
    const { context, page } = await newPage(s.browser, { width: 375, height: 812 });
    try {
      // Each frame of the first 1.5 s: whether the login form is there, and the indicator's state.
      await page.addInitScript(() => {
        const frames: string[] = [];
        (window as unknown as { indicatorFrames: string[] }).indicatorFrames = frames;
        const t0 = performance.now();
        const look = () => {
          const el = document.getElementById('loading');
          const form = !!document.querySelector('input[name=username]');
          frames.push(`${form ? 'form' : 'none'}:${el ? getComputedStyle(el).visibility : 'gone'}`);
          if (performance.now() - t0 < 1500) requestAnimationFrame(look);
        };
        requestAnimationFrame(look);
      });
      for (let i = 0; i < 3; i++) {
        await page.goto(`${s.server.url}/login`);
        await page.waitForSelector('input[name=username]');
        await page.waitForFunction(() => (window as unknown as { indicatorFrames: string[] }).indicatorFrames.length > 60);
        const frames = await page.evaluate(() => (window as unknown as { indicatorFrames: string[] }).indicatorFrames);
        expect(frames.some((f) => f.startsWith('form:'))).toBe(true);
        // A hidden indicator left over the form could still turn visible (its 300 ms delay) and take the clicks.
        expect(frames.filter((f) => f === 'form:hidden')).toEqual([]);
        // One shown before the view mounted may stay its 200 ms; it never comes back once gone.
        const gone = frames.indexOf('form:gone');
        expect(gone).toBeGreaterThanOrEqual(0);
        expect(frames.slice(gone).every((f) => f === 'form:gone')).toBe(true);
      }
    } finally {
      await context.close();
    }
  });
});
