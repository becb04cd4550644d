import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { Page } from 'playwright-core';
import { closeSession, openSession, shot, workspace, type Session } from './browser';
import { png, put } from './viewers-fixture';

// Search as you type (issue 16 item 6): no lost keys after Ctrl+F, debounced requests, best match first,
// highlighted matches, thumbnails, keyboard navigation.
const ws = workspace('filedeck-ux-search-');
const PW = 'ux-search-admin-password-71';
let session: Session | undefined;
let page: Page;
let base = '';
const errors: string[] = [];

beforeAll(async () => {
  put(ws.root, 'Archive/2023/old-invoice-copy.txt', 'old');
  put(ws.root, 'Archive/invoice.txt', 'deeper exact');
  put(ws.root, 'invoice.txt', 'exact');
  put(ws.root, 'my invoice <b>.txt', 'contains');
  put(ws.root, 'invoices-2024/notes.txt', 'path only');
  put(ws.root, 'Photos/invoice-scan.png', await png(40, 30));
  for (let i = 0; i < 30; i++) put(ws.root, `Other/file-${i}.txt`, `${i}`);
  session = await openSession(ws, PW);
  page = session.page;
  base = session.server.url;
  page.on('pageerror', (e) => errors.push(String(e)));
});
afterAll(() => closeSession(ws, session));

const hitPaths = (p: Page) => p.locator('[data-testid=search-hit]').evaluateAll((els) => els.map((e) => e.getAttribute('data-path')));

describe('search as you type', () => {
  test('"invoice" typed right after Ctrl+F arrives whole, one request after the pause, results best first and highlighted', async () => {
    await page.goto(`${base}/files/`);
    await page.waitForSelector('[data-testid=item]');
    const requests: string[] = [];
    page.on('request', (r) => r.url().includes('/api/search') && requests.push(decodeURIComponent(r.url())));
    // No waiting between Ctrl+F and the first key: every keystroke must reach the query.
    await page.keyboard.press('Control+f');
    await page.keyboard.type('invoice', { delay: 15 });
    await page.waitForSelector('[data-testid=search-overlay]');
    expect(await page.inputValue('[data-testid=search-input]')).toBe('invoice');
    await page.waitForSelector('[data-testid=search-hit]');
    await page.waitForSelector('.search__spinner', { state: 'detached' });
    // typed quickly, so only the whole word was sent (debounced)
    expect(requests.length).toBe(1);
    expect(requests[0]).toContain('query=invoice');

    // Name matches best first. The name index also reports entries below a matching folder (path-only matches);
    // the walk does not: when present, they come last.
    const ranked = ['invoice.txt', 'Archive/invoice.txt', 'invoices-2024', 'Photos/invoice-scan.png', 'my invoice <b>.txt', 'Archive/2023/old-invoice-copy.txt'];
    const got = await hitPaths(page);
    expect(got.slice(0, 6)).toEqual(ranked);
    expect(got.slice(6)).toEqual(got.length > 6 ? ['invoices-2024/notes.txt'] : []);
    // highlighted, and the name's markup is text, not HTML
    const marks = await page.locator('[data-testid=search-hit][data-path="my invoice <b>.txt"] mark').allTextContents();
    expect(marks).toEqual(['invoice']);
    expect(await page.locator('.search__hit b').count()).toBe(0);
    expect(await page.textContent('[data-testid=search-hit][data-path="my invoice <b>.txt"] [data-testid=search-hit-name]')).toBe('my invoice <b>.txt');
    // an image has its thumbnail, which loads
    const thumb = page.locator('[data-testid=search-hit][data-path="Photos/invoice-scan.png"] [data-testid=search-thumb]');
    await thumb.waitFor();
    await page.waitForFunction(() => {
      const img = document.querySelector<HTMLImageElement>('[data-testid=search-thumb]');
      return !!img && img.complete && img.naturalWidth > 0;
    });
    await shot(page, 'ux-search-results');
    expect(errors).toEqual([]);
  });

  test('a later query aborts the earlier one; ↓/↑ choose a result and Enter opens it; Esc closes', async () => {
    const input = page.locator('[data-testid=search-input]');
    await input.press('ArrowDown');
    await input.press('ArrowDown');
    await input.press('ArrowUp');
    await input.press('ArrowDown');
    expect(await page.getAttribute('.search__hit.is-active', 'data-path')).toBe('Archive/invoice.txt');
    expect(await input.getAttribute('aria-activedescendant')).toBe('search-hit-1');
    expect(await page.getAttribute('#search-hit-1', 'aria-selected')).toBe('true');
    await input.press('Enter');
    await page.waitForURL(`${base}/files/Archive/invoice.txt`);
    expect(await page.locator('[data-testid=search-overlay]').count()).toBe(0);

    await page.goto(`${base}/files/`);
    await page.waitForSelector('[data-testid=item]');
    await page.keyboard.press('Control+f');
    await page.waitForSelector('[data-testid=search-input]');
    // the old query is selected: typing replaces it. Each search request's signal is recorded: typing on after
    // a request went out must abort it.
    await page.evaluate(() => {
      const w = window as unknown as { fetch: typeof fetch; __searches: { url: string; signal: AbortSignal }[] };
      const original = w.fetch.bind(window);
      w.__searches = [];
      w.fetch = ((input: RequestInfo | URL, init?: RequestInit) => {
        if (!String(input).includes('/api/search') || !init?.signal) return original(input, init);
        const signal = init.signal;
        w.__searches.push({ url: decodeURIComponent(String(input)), signal });
        if (w.__searches.length > 1) return original(input, init);
        // the first search is held until it is aborted (as a slow server would be)
        return new Promise<Response>((_resolve, reject) => signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))));
      }) as typeof fetch;
    });
    await page.keyboard.type('file', { delay: 10 });
    await page.waitForFunction(() => (window as unknown as { __searches: unknown[] }).__searches.length === 1);
    await page.keyboard.type('-2', { delay: 10 });
    expect(await input.inputValue()).toBe('file-2');
    await page.waitForFunction(() => document.querySelector('[data-testid=search-count]')?.textContent?.startsWith('11 results'));
    expect((await hitPaths(page))[0]).toBe('Other/file-2.txt');
    const searches = await page.evaluate(() => (window as unknown as { __searches: { url: string; signal: AbortSignal }[] }).__searches.map((s) => [s.url.replace(/^.*query=/, ''), s.signal.aborted]));
    // 'file' was aborted when 'file-2' started; 'file-2' ran to its end
    expect(searches).toEqual([
      ['file', true],
      ['file-2', false],
    ]);
    await page.keyboard.press('Escape');
    await page.waitForSelector('[data-testid=search-overlay]', { state: 'detached' });
    expect(errors).toEqual([]);
  });
});
