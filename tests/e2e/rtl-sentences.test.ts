import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { Page } from 'playwright-core';
import { cli } from '../helpers/binary';
import { expectAccessible } from './axe';
import { closeSession, loginAs, newPage, openSession, runSelectionAction, shot, workspace, type Session } from './browser';
import { put } from './viewers-fixture';

// Names inside translated sentences and numbers by Intl (issue 16 item 7): a name put into a sentence keeps its own
// visual order whatever the sentence's direction, in the DOM and in document.title; counts and percents follow the
// language's digits and grouping.
const ws = workspace('filedeck-rtl-sentences-');
const PW = 'rtl-sentences-admin-password-31';
const MANY = 1234;
const HEBREW_DIR = 'חופשה 2024';
const HEBREW_FILE = 'שלום 2024.txt';
const FSI = '\u2068';
const PDI = '\u2069';
let session: Session | undefined;
let base = '';
const fd = (...args: string[]) => cli(['-d', ws.db, '-r', ws.root, ...args]);

beforeAll(async () => {
  put(ws.root, '2024 Trip/2024 Holiday.jpg', 'not really a photo');
  put(ws.root, `${HEBREW_DIR}/${HEBREW_FILE}`, 'shalom');
  for (let i = 0; i < MANY; i++) put(ws.root, `many/f${String(i).padStart(4, '0')}.txt`, '');
  session = await openSession(ws, PW);
  base = session.server.url;
});
afterAll(() => closeSession(ws, session));

/**
 * Where two words of an isolated name sit on screen: finds, under `root`, the text node holding `FSI name PDI` (the
 * name as it was put into a sentence) and returns the left edge of each word's laid-out box.
 */
async function wordsLeft(p: Page, root: string, name: string, words: [string, string]): Promise<[number, number]> {
  return p.locator(root).first().evaluate(
    (el, [isolated, a, b]) => {
      const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        const text = n.textContent ?? '';
        const at = text.indexOf(isolated!);
        if (at < 0) continue;
        const left = (w: string) => {
          const i = text.indexOf(w, at);
          const r = document.createRange();
          r.setStart(n, i);
          r.setEnd(n, i + w.length);
          return r.getBoundingClientRect().left;
        };
        return [left(a!), left(b!)] as [number, number];
      }
      throw new Error(`no isolated "${isolated}" under ${el.outerHTML.slice(0, 200)}`);
    },
    [`${FSI}${name}${PDI}`, ...words],
  );
}

/** Selects one item by name and runs an action from the header (wide) or the selection bar or its More menu (375 px). */
async function act(p: Page, name: string, action: 'delete' | 'rename'): Promise<void> {
  const item = `[data-testid=item][data-name="${name}"]`;
  if ((await p.getAttribute(item, 'aria-selected')) !== 'true') await p.click(item);
  await runSelectionAction(p, action);
  await p.waitForSelector(`[data-testid=prompt-${action}]`);
}

const closePrompt = async (p: Page, id: string) => {
  await p.keyboard.press('Escape');
  await p.waitForSelector(`[data-testid=prompt-${id}]`, { state: 'detached' });
};

const intl = (p: Page, n: number, opts: Intl.NumberFormatOptions = {}) => p.evaluate(([v, o]) => new Intl.NumberFormat(document.documentElement.lang, o as Intl.NumberFormatOptions).format(v as number), [n, opts] as const);

describe('right-to-left languages', () => {
  for (const lng of ['ar', 'he']) {
    test(`${lng}: "2024 Holiday.jpg" keeps "2024" on the left in prompts and the title; counts and percent by Intl`, async () => {
      expect((await fd('users', 'update', 'admin', '--locale', lng)).code).toBe(0);
      for (const [width, scheme] of [
        [1280, 'light'],
        [375, 'dark'],
        [1280, 'dark'],
        [375, 'light'],
      ] as const) {
        const { context, page } = await newPage(session!.browser, { width, height: 800 });
        try {
          await page.emulateMedia({ colorScheme: scheme });
          await loginAs(page, base, 'admin', PW);
          await page.goto(`${base}/files/2024%20Trip/`);
          await page.waitForSelector('[data-testid=item][data-name="2024 Holiday.jpg"]');
          expect(await page.getAttribute('html', 'dir')).toBe('rtl');
          // document.title is plain text: the folder name in it is isolated by the characters themselves
          expect(await page.title()).toStartWith(`${FSI}2024 Trip${PDI}`);

          // the delete prompt names the file on a line of its own, in its own direction
          await act(page, '2024 Holiday.jpg', 'delete');
          const subject = '[data-testid=prompt-delete] .prompt__subject';
          const [s2024, sHoliday] = await page.locator(subject).evaluate((el) => {
            const n = el.firstChild!;
            const box = (from: number, len: number) => {
              const r = document.createRange();
              r.setStart(n, from);
              r.setEnd(n, from + len);
              return r.getBoundingClientRect().left;
            };
            return [box(0, 4), box(5, 7)];
          });
          expect(s2024).toBeLessThan(sHoliday);
          await shot(page, `rtl-sentences-${lng}-delete-${width}-${scheme}`, { fullPage: false });
          await closePrompt(page, 'delete');

          // the rename prompt puts the name into a sentence ("Insert a new name for {{name}}:")
          await act(page, '2024 Holiday.jpg', 'rename');
          const [r2024, rHoliday] = await wordsLeft(page, '[data-testid=prompt-rename]', '2024 Holiday.jpg', ['2024', 'Holiday']);
          expect(r2024).toBeLessThan(rHoliday);
          await shot(page, `rtl-sentences-${lng}-rename-${width}-${scheme}`, { fullPage: false });
          await closePrompt(page, 'rename');

          // usage meter (in the sidebar on wide screens): the percent as Intl writes it, isolated
          if (width === 1280) {
            const now = Number(await page.getAttribute('[data-testid=usage] [role=meter]', 'aria-valuenow'));
            const percent = await intl(page, now / 100, { style: 'percent', maximumFractionDigits: 0 });
            expect(await page.textContent('[data-testid=usage-text]')).toContain(`${FSI}${percent}${PDI}`);
          }

          // 1,234 selected items: the count with the language's digits and grouping, in the bar and the toolbar
          await page.goto(`${base}/files/many/`);
          await page.waitForSelector('[data-testid=item]');
          const grouped = await intl(page, MANY);
          expect(grouped).not.toBe(String(MANY));
          await page.waitForFunction((g) => document.querySelector('[data-testid=item-count]')?.textContent?.includes(g), grouped);
          if (width < 700) {
            await page.click('[data-testid=item] >> nth=0');
            await page.keyboard.press('Control+a');
            await page.waitForFunction((g) => document.querySelector('[data-testid=selection-count]')?.textContent?.includes(g), grouped);
            await shot(page, `rtl-sentences-${lng}-count-${width}-${scheme}`, { fullPage: false });
          }
        } finally {
          await context.close();
        }
      }
    }, 120_000);
  }
});

describe('left-to-right language (en)', () => {
  test('a Hebrew name in an English sentence keeps its own order; counts read "1,234"', async () => {
    expect((await fd('users', 'update', 'admin', '--locale', 'en')).code).toBe(0);
    for (const width of [1280, 375]) {
      const { context, page } = await newPage(session!.browser, { width, height: 800 });
      try {
        await loginAs(page, base, 'admin', PW);
        await page.goto(`${base}/files/${encodeURIComponent(HEBREW_DIR)}/`);
        await page.waitForSelector(`[data-testid=item][data-name="${HEBREW_FILE}"]`);
        expect(await page.getAttribute('html', 'dir')).toBe('ltr');
        expect(await page.title()).toStartWith(`${FSI}${HEBREW_DIR}${PDI}`);
        await act(page, HEBREW_FILE, 'rename');
        // isolated, the name is a right-to-left run of its own: "txt.2024 םולש" with "txt" at its left end;
        // unisolated in English it would fall apart into "2024 םולש.txt" with "txt" at the right.
        const [txt, shalom] = await wordsLeft(page, '[data-testid=prompt-rename]', HEBREW_FILE, ['txt', 'שלום']);
        expect(txt).toBeLessThan(shalom);
        await shot(page, `rtl-sentences-en-hebrew-rename-${width}`, { fullPage: false });
        await closePrompt(page, 'rename');

        // a Latin name in an English sentence gets no invisible characters (nothing to reorder)
        await page.goto(`${base}/files/2024%20Trip/`);
        await page.waitForSelector('[data-testid=item][data-name="2024 Holiday.jpg"]');
        expect(await page.title()).toStartWith('2024 Trip - ');

        await page.goto(`${base}/files/many/`);
        await page.waitForFunction(() => document.querySelector('[data-testid=item-count]')?.textContent === '1,234 items');
        if (width < 700) {
          await page.click('[data-testid=item] >> nth=0');
          await page.keyboard.press('Control+a');
          await page.waitForFunction(() => document.querySelector('[data-testid=selection-count]')?.textContent === '1,234 items selected');
        } else {
          const now = Number(await page.getAttribute('[data-testid=usage] [role=meter]', 'aria-valuenow'));
          expect(await page.textContent('[data-testid=usage-text]')).toEndWith(`(${now}%)`);
        }
      } finally {
        await context.close();
      }
    }
  }, 90_000);
});

describe('phone layout (375 px)', () => {
  test('an open prompt hides the jobs panel instead of covering part of it; Settings → Shares fits', async () => {
    put(ws.root, 'dst/keep.txt', '');
    expect((await fd('shares', 'add', '/2024 Trip/2024 Holiday.jpg', '--user', 'admin', '--json')).code).toBe(0);
    for (const scheme of ['light', 'dark'] as const) {
      const { context, page } = await newPage(session!.browser, { width: 375, height: 740 });
      try {
        await page.emulateMedia({ colorScheme: scheme });
        await loginAs(page, base, 'admin', PW);
        const token = (await page.evaluate(() => localStorage.getItem('jwt'))) as string;
        const r = await fetch(`${base}/api/jobs`, { method: 'POST', headers: { 'X-Auth': token }, body: JSON.stringify({ kind: 'copy', items: ['/2024 Trip'], destination: '/dst' }) });
        expect(r.status).toBe(202);
        await page.waitForSelector('[data-testid=jobs-panel]', { state: 'visible' });
        await act(page, 'many', 'delete');
        await page.waitForSelector('[data-testid=jobs-panel]', { state: 'hidden' });
        await shot(page, `rtl-sentences-jobs-prompt-375-${scheme}`, { fullPage: false });
        await closePrompt(page, 'delete');
        await page.waitForSelector('[data-testid=jobs-panel]', { state: 'visible' });

        await page.goto(`${base}/settings/shares`);
        await page.waitForSelector('[data-testid=share-row]');
        expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
        // each row's buttons are on screen, the path wraps by words, and the table keeps its rows for screen readers
        const del = (await page.locator('[data-testid=share-delete]').first().boundingBox())!;
        expect(del.x + del.width).toBeLessThanOrEqual(375);
        const path = (await page.locator('[data-testid=share-row] .settings-table__main').first().boundingBox())!;
        expect(path.width).toBeGreaterThan(200);
        expect(await page.getByRole('row').count()).toBeGreaterThanOrEqual(2);
        await expectAccessible(page, `shares at 375 px, ${scheme}`);
        await shot(page, `rtl-sentences-shares-375-${scheme}`);
      } finally {
        await context.close();
      }
    }
  }, 60_000);
});
