import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { cli, type RunningServer } from '../helpers/binary';
import { closeSession, openSession, shot, workspace, type Session } from './browser';
import { png, put } from './viewers-fixture';

// The search overlay and the shell panel (spec §2 Search, Shell panel; §7 search and command calls).
const ws = workspace('filedeck-viewers-search-');
const { db, root } = ws;
const PW = 'viewers-admin-password-53';
let server: RunningServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let session: Session | undefined;

beforeAll(async () => {
  put(root, 'Trips/2024 holiday/beach #1.png', await png(64, 48));
  put(root, 'Trips/2024 holiday/notes.txt', 'sun');
  put(root, 'Trips/holiday-budget.csv', 'a,b');
  put(root, 'Trips/mountain.png', await png(64, 48, [90, 160, 250]));
  for (let i = 0; i < 120; i++) put(root, `Logs/report-${String(i).padStart(3, '0')}.log`, `entry ${i}`);
  put(root, 'Work/readme.md', '# work');
  session = await openSession(ws, PW, ['--enableExec', 'true'], async () => {
    const update = await cli(['-d', db, '-r', root, 'users', 'update', 'admin', '--commands', 'ls,echo', '--perm.execute', 'true']);
    expect(update.code).toBe(0);
  });
  ({ server, browser, context, page } = session);
});
afterAll(() => closeSession(ws, session));

const hits = (p: Page) => p.locator('[data-testid=search-hit]').evaluateAll((els) => els.map((e) => e.getAttribute('data-path')));

/** Holds back the next search answer after its first lines until `window.__releaseSearch()` is called. */
async function holdSearchStream(p: Page, firstLines: number): Promise<void> {
  await p.evaluate((n) => {
    const w = window as unknown as { fetch: typeof fetch; __releaseSearch?: () => void };
    const original = w.fetch.bind(window);
    w.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
      const res = await original(input, init);
      if (!String(input).includes('/api/search')) return res;
      w.fetch = original; // only this one search is held
      const lines = (await res.text()).split('\n').filter(Boolean);
      const gate = new Promise<void>((resolve) => (w.__releaseSearch = resolve));
      const enc = new TextEncoder();
      const body = new ReadableStream<Uint8Array>({
        async start(c) {
          c.enqueue(enc.encode(`${lines.slice(0, n).join('\n')}\n`));
          await gate;
          c.enqueue(enc.encode(`${lines.slice(n).join('\n')}\n`));
          c.close();
        },
      });
      return new Response(body, { status: res.status, headers: res.headers });
    }) as typeof fetch;
  }, firstLines);
}

describe('search', () => {
  test('results stream in, type shortcuts filter, and a result opens the item', async () => {
    await page.goto(`${server.url}/files/Trips/`);
    await page.waitForSelector('[data-testid=item]');
    await page.keyboard.press('Control+f');
    await page.waitForSelector('[data-testid=search-overlay]');
    expect(await page.textContent('[data-testid=search-overlay]')).toContain('/Trips/');
    await shot(page, 'viewers-search-open');

    await holdSearchStream(page, 1);
    await page.fill('[data-testid=search-input]', 'holiday');
    await page.press('[data-testid=search-input]', 'Enter');
    // the first line is on screen while the rest of the answer is still held back
    await page.waitForSelector('[data-testid=search-hit]');
    expect(await hits(page)).toHaveLength(1);
    expect(await page.locator('.search__spinner').count()).toBe(1);
    await page.evaluate(() => (window as unknown as { __releaseSearch: () => void }).__releaseSearch());
    // Names that match, then entries below a folder whose name matches (the index and the walk answer alike).
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=search-hit]').length === 4);
    expect((await hits(page)).sort()).toEqual(['2024 holiday', '2024 holiday/beach #1.png', '2024 holiday/notes.txt', 'holiday-budget.csv']);
    expect(await page.getAttribute('[data-testid=search-hit][data-path="2024 holiday"]', 'data-dir')).toBe('true');
    expect(await page.textContent('[data-testid=search-hit][data-path="2024 holiday"]')).toContain('Folder');
    await page.waitForSelector('.search__spinner', { state: 'detached' });

    await page.click('[data-testid=search-type-image]');
    expect(await page.inputValue('[data-testid=search-input]')).toBe('type:image holiday');
    await page.fill('[data-testid=search-input]', 'type:image');
    await page.press('[data-testid=search-input]', 'Enter');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=search-hit]').length === 2);
    expect((await hits(page)).sort()).toEqual(['2024 holiday/beach #1.png', 'mountain.png']);
    await shot(page, 'viewers-search-results');

    await page.click('[data-testid=search-hit][data-path="2024 holiday/beach #1.png"]');
    await page.waitForURL(`${server.url}/files/Trips/2024%20holiday/beach%20%231.png`);
    await page.waitForSelector('[data-testid=previewer] [data-testid=preview-name]:text-is("beach #1.png")');
    expect(await page.locator('[data-testid=search-overlay]').count()).toBe(0);
  });

  test('50 results at first, 50 more when scrolled near the end; a folder result opens the folder; Esc closes', async () => {
    await page.goto(`${server.url}/files/`);
    await page.waitForSelector('[data-testid=item]');
    await page.click('[data-testid=action-search]');
    await page.fill('[data-testid=search-input]', 'report');
    await page.press('[data-testid=search-input]', 'Enter');
    await page.waitForFunction(() => document.querySelector('[data-testid=search-count]')?.textContent?.startsWith('120 results'));
    expect(await page.locator('[data-testid=search-hit]').count()).toBe(50);
    // ↑ from the input goes to the last result shown (never renders all of them); ↓ past it shows 50 more.
    await page.press('[data-testid=search-input]', 'ArrowUp');
    expect(await page.getAttribute('[data-testid=search-input]', 'aria-activedescendant')).toBe('search-hit-49');
    // The list scrolled to that result: once its scroll event has been handled (two frames), still 50.
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    expect(await page.locator('[data-testid=search-hit]').count()).toBe(50);
    await page.press('[data-testid=search-input]', 'ArrowDown');
    expect(await page.getAttribute('[data-testid=search-input]', 'aria-activedescendant')).toBe('search-hit-50');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=search-hit]').length === 100);
    await page.press('[data-testid=search-input]', 'ArrowUp');
    await page.press('[data-testid=search-input]', 'ArrowUp');
    expect(await page.getAttribute('[data-testid=search-input]', 'aria-activedescendant')).toBe('search-hit-48');
    await page.locator('[data-testid=search-results]').evaluate((el) => el.scrollTo(0, el.scrollHeight));
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=search-hit]').length === 120);

    await page.fill('[data-testid=search-input]', 'work');
    await page.press('[data-testid=search-input]', 'Enter');
    await page.waitForSelector('[data-testid=search-hit][data-path="Work"]');
    await page.click('[data-testid=search-hit][data-path="Work"]');
    await page.waitForURL(`${server.url}/files/Work/`);
    await page.waitForSelector('[data-testid=item][data-name="readme.md"]');

    await page.keyboard.press('Control+f');
    await page.waitForSelector('[data-testid=search-overlay]');
    expect(await page.textContent('.search__scope')).toContain('/Work/');
    await page.keyboard.press('Escape');
    await page.waitForSelector('[data-testid=search-overlay]', { state: 'detached' });
  });
});

describe('shell', () => {
  test('commands run in the current folder and stream their output; built-ins, refusals and history work', async () => {
    await page.goto(`${server.url}/files/Trips/`);
    await page.waitForSelector('[data-testid=item]');
    await page.click('[data-testid=action-shell]');
    await page.waitForSelector('[data-testid=shell-panel]');
    const input = page.locator('[data-testid=shell-input]');

    await input.fill('ls');
    await input.press('Enter');
    await page.waitForSelector('[data-testid=shell-panel][data-running=false] [data-testid=shell-line-output]');
    const out = await page.locator('[data-testid=shell-line-output]').allTextContents();
    expect(out.sort()).toEqual(['2024 holiday', 'holiday-budget.csv', 'mountain.png']);

    await input.fill('echo hello   viewers');
    await input.press('Enter');
    await page.waitForSelector('[data-testid=shell-line-output]:text-is("hello viewers")');
    await page.waitForSelector('[data-testid=shell-panel][data-running=false]');

    await input.fill('rm -rf /');
    await input.press('Enter');
    await page.waitForSelector('[data-testid=shell-line-error]:text-is("Command not allowed.")');
    await page.waitForSelector('[data-testid=shell-panel][data-running=false]');
    await shot(page, 'viewers-shell');

    // history: up goes back through the commands, down returns to the line being typed
    await input.fill('ec');
    await input.press('ArrowUp');
    expect(await input.inputValue()).toBe('rm -rf /');
    await input.press('ArrowUp');
    expect(await input.inputValue()).toBe('echo hello   viewers');
    await input.press('ArrowDown');
    await input.press('ArrowDown');
    expect(await input.inputValue()).toBe('ec');

    // the folder is read when the command is sent
    await page.evaluate(() => window.history.pushState(null, '', '/files/Trips/2024%20holiday/'));
    await page.waitForSelector('[data-testid=item][data-name="notes.txt"]');
    await input.fill('ls');
    await input.press('Enter');
    await page.waitForSelector('[data-testid=shell-line-output]:text-is("beach #1.png")');

    await input.fill('clear');
    await input.press('Enter');
    expect(await page.locator('[data-testid^=shell-line-]').count()).toBe(0);
    await input.fill('exit');
    await input.press('Enter');
    await page.waitForSelector('[data-testid=shell-panel]', { state: 'detached' });
  });
});
