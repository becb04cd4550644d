import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { cli, type RunningServer } from '../helpers/binary';
import { namesOrNull, settled, textOrNull } from '../helpers/settle';
import { closeSession, loginAs, newPage, openSession, selectItems, shot, workspace, type Session } from './browser';

// Batch rename and the single rename's selection (issue 16 item 5), checked on the page and on disk.
const ws = workspace('filedeck-batch-rename-');
const { root } = ws;
const PW = 'batch-rename-admin-password-5';
let server: RunningServer;
let browser: Browser;
let page: Page;
let session: Session | undefined;

/** Each file holds its own first name, so a rename's mapping can be read back from the disk. */
const put = (folder: string, ...names: string[]) => {
  mkdirSync(join(root, folder), { recursive: true });
  for (const n of names) writeFileSync(join(root, folder, n), n);
};
const ls = (folder: string) => readdirSync(join(root, folder)).sort();
const body = (folder: string, name: string) => readFileSync(join(root, folder, name), 'utf8');
/** The bodies of names, null for one that is mid-rename (parked under its temporary name): a read for `settled`. */
const bodies = (folder: string, names: string[]) => names.map((n) => textOrNull(join(root, folder, n)));

beforeAll(async () => {
  put('Trip', 'beach.jpg', 'Airport.jpg', 'city.jpg', 'dinner.jpg', 'early.jpg', 'notes.txt');
  put('Docs', 'report.final.pdf', '.bashrc', 'README');
  mkdirSync(join(root, 'Docs', 'photos.2024'));
  put('Clash', 'a.txt', 'b.txt', 'c.txt');
  put('Swap', 'a-b.txt', 'b-a.txt', '1.txt', '2.txt', '3.txt');
  put('Slow', `${'a'.repeat(40)}!.txt`, 'x.txt');
  put('Stop', 'p.txt', 'q.txt');
  put('Part', 'x.txt', 'y.txt', 'z.txt');
  put('Back', 'm.txt', 'n.txt');
  session = await openSession(ws, PW);
  ({ server, browser, page } = session);
});
afterAll(() => closeSession(ws, session));

async function open(path: string, p = page): Promise<void> {
  await p.goto(`${server.url}/files${path}`);
  await p.waitForSelector('[data-testid=listing]');
}
const shownNames = (p = page) => p.locator('[data-testid=item]').evaluateAll((els) => els.map((e) => e.getAttribute('data-name')!));
const rows = (p = page) => p.locator('[data-testid=batch-row]').evaluateAll((els) => els.map((e) => [e.getAttribute('data-old'), e.getAttribute('data-new')]));

/** Selects the named items (click, then Ctrl+click) and presses F2 for the batch prompt. */
async function batchOf(names: string[], p = page): Promise<void> {
  await selectItems(p, names);
  await p.keyboard.press('F2');
  await p.waitForSelector('[data-testid=prompt-batchRename]');
}
const confirmDisabled = () => page.isDisabled('[data-testid=prompt-confirm]');

describe('single rename', () => {
  test('the name opens selected without its extension; folders, dot-names and dotless names whole', async () => {
    await open('/Docs/');
    for (const [name, end] of [['report.final.pdf', 12], ['.bashrc', 7], ['README', 6], ['photos.2024', 11]] as const) {
      await page.click(`[data-name="${name}"]`);
      await page.keyboard.press('F2');
      await page.waitForSelector('[data-testid=prompt-rename]');
      const sel = await page.locator('[data-testid=prompt-input]').evaluate((el: HTMLInputElement) => [el.selectionStart, el.selectionEnd, document.activeElement === el]);
      expect(sel).toEqual([0, end, true]);
      if (name === 'report.final.pdf') {
        await page.keyboard.type('summary');
        expect(await page.inputValue('[data-testid=prompt-input]')).toBe('summary.pdf');
      }
      await page.keyboard.press('Escape');
      await page.waitForSelector('[data-testid=prompt-rename]', { state: 'detached' });
    }
  });
});

describe('batch rename', () => {
  test('five photos become "Trip 01.jpg"…"Trip 05.jpg" in the listing order; the other file stays', async () => {
    await open('/Trip/');
    const photos = (await shownNames()).filter((n) => n.endsWith('.jpg'));
    expect(photos.length).toBe(5);
    // Picked out of order: the counter still follows the listing.
    await batchOf([photos[3]!, photos[0]!, photos[4]!, photos[1]!, photos[2]!]);
    expect(await page.textContent('[data-testid=prompt-batchRename] h2')).toBe('Rename 5 items');
    await page.fill('[data-testid=batch-pattern]', 'Trip {n:2}{ext}');
    const want = photos.map((_, k) => `Trip 0${k + 1}.jpg`);
    expect(await rows()).toEqual(photos.map((p, k) => [p, want[k]!]));
    expect(await confirmDisabled()).toBe(false);
    await shot(page, 'batch-rename-1280-light');
    await page.click('[data-testid=prompt-confirm]');
    await page.waitForSelector('[data-testid=prompt-batchRename]', { state: 'detached' });
    expect(ls('Trip')).toEqual([...want, 'notes.txt']);
    photos.forEach((p, k) => expect(body('Trip', want[k]!)).toBe(p));
    await page.waitForSelector('[data-name="Trip 05.jpg"]');
  });

  test('find/replace (plain and regex) applies to the result; an invalid or runaway regex is reported, not run', async () => {
    await open('/Trip/');
    await batchOf(['Trip 01.jpg', 'Trip 02.jpg', 'Trip 03.jpg']);
    await page.fill('[data-testid=batch-find]', 'trip ');
    await page.fill('[data-testid=batch-replace]', 'Holiday-');
    expect((await rows()).map((r) => r[1])).toEqual(['Holiday-01.jpg', 'Holiday-02.jpg', 'Holiday-03.jpg']);
    // Match case: "trip " no longer matches, so nothing changes and Apply is off.
    await page.check('[data-testid=batch-case]');
    await page.waitForFunction(() => document.querySelector('[data-testid=batch-row]')?.getAttribute('data-new') === 'Trip 01.jpg');
    expect(await confirmDisabled()).toBe(true);
    await page.uncheck('[data-testid=batch-case]');
    await page.check('[data-testid=batch-regex]');
    await page.fill('[data-testid=batch-find]', '(unclosed');
    await page.waitForSelector('[data-testid=batch-find-error]');
    expect(await page.textContent('[data-testid=batch-find-error]')).toContain('not valid');
    expect(await confirmDisabled()).toBe(true);
    await page.fill('[data-testid=batch-find]', '^Trip 0(\\d)');
    await page.fill('[data-testid=batch-replace]', 'Day $1');
    await page.waitForFunction(() => document.querySelector('[data-testid=batch-row]')?.getAttribute('data-new') === 'Day 1.jpg');
    await page.click('[data-testid=prompt-confirm]');
    await page.waitForSelector('[data-testid=prompt-batchRename]', { state: 'detached' });
    expect(ls('Trip')).toEqual(['Day 1.jpg', 'Day 2.jpg', 'Day 3.jpg', 'Trip 04.jpg', 'Trip 05.jpg', 'notes.txt']);

    await open('/Slow/');
    await batchOf([`${'a'.repeat(40)}!.txt`, 'x.txt']);
    await page.check('[data-testid=batch-regex]');
    await page.fill('[data-testid=batch-find]', '^(a+)+$');
    await page.waitForSelector('[data-testid=batch-find-error]');
    expect(await page.textContent('[data-testid=batch-find-error]')).toContain('too long');
    // The page stays responsive: typing goes on working.
    await page.fill('[data-testid=batch-find]', '^x');
    await page.fill('[data-testid=batch-replace]', 'y');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=batch-row]')[1]?.getAttribute('data-new') === 'y.txt');
    await page.keyboard.press('Escape');
  });

  test('conflicts block Apply: a name an item keeps, two items on one name, an invalid name; case-only differences warn', async () => {
    await open('/Clash/');
    await batchOf(['a.txt', 'b.txt']);
    await page.fill('[data-testid=batch-find]', 'a');
    await page.fill('[data-testid=batch-replace]', 'c');
    // a.txt → c.txt, which stays (not selected).
    expect(await page.locator('[data-testid=batch-problem]').allTextContents()).toEqual(['Already in this folder']);
    expect(await confirmDisabled()).toBe(true);
    await shot(page, 'batch-rename-conflict-1280-light');
    await page.fill('[data-testid=batch-find]', '');
    await page.fill('[data-testid=batch-pattern]', 'same{ext}');
    expect(await page.locator('[data-testid=batch-problem]').count()).toBe(2);
    expect(await confirmDisabled()).toBe(true);
    await page.fill('[data-testid=batch-pattern]', 'x/{name}');
    expect(await page.locator('[data-testid=batch-problem]').allTextContents()).toEqual(['Not a valid name', 'Not a valid name']);
    await page.fill('[data-testid=batch-pattern]', '{n}{ext}');
    await page.fill('[data-testid=batch-start]', '0');
    expect((await rows()).map((r) => r[1])).toEqual(['0.txt', '1.txt']);
    await page.fill('[data-testid=batch-pattern]', 'Same{n}');
    await page.fill('[data-testid=batch-step]', '0');
    expect(await page.locator('[data-testid=batch-problem]').count()).toBe(2);
    await page.fill('[data-testid=batch-step]', '1');
    await page.fill('[data-testid=batch-pattern]', '{name}{ext}');
    await page.fill('[data-testid=batch-find]', 'b.txt');
    await page.fill('[data-testid=batch-replace]', 'A.txt');
    // b.txt → A.txt beside a.txt (kept): a warning on the renamed row, and Apply stays possible.
    expect(await page.locator('[data-testid=batch-row][data-old="b.txt"] [data-testid=batch-warning]').count()).toBe(1);
    expect(await confirmDisabled()).toBe(false);
    await page.keyboard.press('Escape');
    expect(ls('Clash')).toEqual(['a.txt', 'b.txt', 'c.txt']);
  });

  test('a swap by regex groups and a reversal by counter step -1 go through a temporary name; Ctrl+Z undoes the batch', async () => {
    await open('/Swap/');
    await batchOf(['a-b.txt', 'b-a.txt']);
    await page.check('[data-testid=batch-regex]');
    await page.fill('[data-testid=batch-find]', '^(\\w)-(\\w)');
    await page.fill('[data-testid=batch-replace]', '$2-$1');
    await page.waitForFunction(() => document.querySelector('[data-testid=batch-row]')?.getAttribute('data-new') === 'b-a.txt');
    expect(await confirmDisabled()).toBe(false);
    await page.click('[data-testid=prompt-confirm]');
    await page.waitForSelector('[data-testid=prompt-batchRename]', { state: 'detached' });
    expect([body('Swap', 'a-b.txt'), body('Swap', 'b-a.txt')]).toEqual(['b-a.txt', 'a-b.txt']);

    await batchOf(['1.txt', '2.txt', '3.txt']);
    await page.fill('[data-testid=batch-pattern]', '{n}{ext}');
    await page.fill('[data-testid=batch-start]', '3');
    await page.fill('[data-testid=batch-step]', '-1');
    expect(await rows()).toEqual([['1.txt', '3.txt'], ['2.txt', '2.txt'], ['3.txt', '1.txt']]);
    await page.click('[data-testid=prompt-confirm]');
    await page.waitForSelector('[data-testid=prompt-batchRename]', { state: 'detached' });
    expect(['1.txt', '2.txt', '3.txt'].map((n) => body('Swap', n))).toEqual(['3.txt', '2.txt', '1.txt']);
    expect(ls('Swap')).toEqual(['1.txt', '2.txt', '3.txt', 'a-b.txt', 'b-a.txt']);
    // The toast offers the undo; Ctrl+Z takes the whole batch back.
    await page.waitForSelector('[data-testid=undo-toast]');
    await page.locator('[data-testid=listing]').focus();
    await page.keyboard.press('Control+z');
    await page.waitForFunction(() => !document.querySelector('[data-testid=undo-toast]'));
    // The undo is a batch of its own, through a temporary name: wait until every file reads back, not just the first.
    const names = ['1.txt', '2.txt', '3.txt'];
    expect(await settled(() => bodies('Swap', names), names)).toEqual(names);
    expect(ls('Swap')).toEqual(['1.txt', '2.txt', '3.txt', 'a-b.txt', 'b-a.txt']);
  });

  test('an error half-way stops the batch, says which were renamed, and leaves the rest', async () => {
    await open('/Stop/');
    await batchOf(['p.txt', 'q.txt']);
    await page.fill('[data-testid=batch-pattern]', '{name}-new{ext}');
    // Taken behind the page's back: the server refuses this one (409), after p.txt went through.
    writeFileSync(join(root, 'Stop', 'q-new.txt'), 'someone else');
    await page.click('[data-testid=prompt-confirm]');
    await page.waitForSelector('[data-testid=batch-stopped]');
    expect(await page.textContent('[data-testid=batch-stopped]')).toContain('1 of 2');
    expect(await page.locator('[data-testid=batch-row] .batch__status').allTextContents()).toEqual(['Renamed', expect.stringContaining('Failed')]);
    expect(ls('Stop')).toEqual(['p-new.txt', 'q-new.txt', 'q.txt']);
    expect(body('Stop', 'q-new.txt')).toBe('someone else');
    await shot(page, 'batch-rename-stopped-1280-light');
    await page.click('[data-testid=prompt-close]');
    await page.waitForSelector('[data-testid=prompt-batchRename]', { state: 'detached' });
  });

  test('a batch stopped at its 2nd of 3 offers to undo only the 1st, and the undo puts back only that one', async () => {
    await open('/Part/');
    await batchOf(['x.txt', 'y.txt', 'z.txt']);
    await page.fill('[data-testid=batch-pattern]', '{name}-new{ext}');
    // Taken behind the page's back: the 2nd rename is refused (409) and the 3rd never tried.
    writeFileSync(join(root, 'Part', 'y-new.txt'), 'someone else');
    await page.click('[data-testid=prompt-confirm]');
    await page.waitForSelector('[data-testid=batch-stopped]');
    expect(await page.textContent('[data-testid=batch-stopped]')).toContain('Stopped after 1 of 3');
    expect(await page.locator('[data-testid=batch-row] .batch__status').allTextContents()).toEqual(['Renamed', expect.stringContaining('Failed'), 'Not renamed']);
    // The toast is offered before the prompt reports the stop: it is up by now, and counts the one item renamed.
    expect(await page.textContent('[data-testid=undo-toast] .undo-toast__text')).toBe('1 item renamed');
    // Light first: after a switch back from dark, Chromium's shot showed stale text colours (the computed ones were right).
    for (const [width, scheme] of [[375, 'light'], [1280, 'light'], [1280, 'dark'], [375, 'dark']] as const) {
      await page.setViewportSize({ width, height: 800 });
      // Reduced motion: the colours change at once, not in a 0.15 s transition the shot would catch half-way.
      await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
      // The page repaints in its own matchMedia listener, after emulateMedia returns: wait for that.
      await page.waitForFunction((want) => document.documentElement.dataset.theme === want, scheme);
      await shot(page, `batch-rename-partial-${width}-${scheme}`, { fullPage: false });
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.emulateMedia({ colorScheme: 'light', reducedMotion: 'no-preference' });
    await page.click('[data-testid=prompt-close]');
    await page.waitForSelector('[data-testid=prompt-batchRename]', { state: 'detached' });
    await page.locator('[data-testid=listing]').focus();
    await page.keyboard.press('Control+z');
    // Only x-new.txt goes back: y.txt and z.txt were never renamed, and the newcomer keeps its name and content.
    const want = ['x.txt', 'y-new.txt', 'y.txt', 'z.txt'];
    expect(await settled(() => namesOrNull(join(root, 'Part')), want)).toEqual(want);
    expect(bodies('Part', want)).toEqual(['x.txt', 'someone else', 'y.txt', 'z.txt']);
  });

  test('the undo stops at its first refusal (in the reverse order) and says which item and how far it got', async () => {
    await open('/Back/');
    await batchOf(['m.txt', 'n.txt']);
    await page.fill('[data-testid=batch-pattern]', '{name}-new{ext}');
    await page.click('[data-testid=prompt-confirm]');
    await page.waitForSelector('[data-testid=prompt-batchRename]', { state: 'detached' });
    expect(await page.textContent('[data-testid=undo-toast] .undo-toast__text')).toBe('2 items renamed');
    expect(await settled(() => namesOrNull(join(root, 'Back')), ['m-new.txt', 'n-new.txt'])).toEqual(['m-new.txt', 'n-new.txt']);
    // n.txt, the old name of the item renamed last (the first the undo moves back), is taken meanwhile.
    writeFileSync(join(root, 'Back', 'n.txt'), 'someone else');
    await page.locator('[data-testid=listing]').focus();
    await page.keyboard.press('Control+z');
    // The error is shown once the undo has stopped: m-new.txt was not moved back after the refusal.
    await page.waitForSelector('[data-testid=notice-error]');
    expect(await page.textContent('[data-testid=notice-error]')).toContain('Undo stopped after 0 of 2: n-new.txt could not get its name n.txt back');
    expect(namesOrNull(join(root, 'Back'))).toEqual(['m-new.txt', 'n-new.txt', 'n.txt']);
    expect(textOrNull(join(root, 'Back', 'n.txt'))).toBe('someone else');
    await page.click('[data-testid=notice-close]');
  });

  test('screenshots at 375 and 1280, light and dark, and in Arabic', async () => {
    put('Mixed', '2024 Holiday.jpg', 'رحلة.jpg', 'notes.txt');
    for (const [width, scheme, locale] of [[375, 'light', 'en'], [375, 'dark', 'ar'], [1280, 'dark', 'ar'], [1280, 'light', 'ar']] as const) {
      expect((await cli(['-d', ws.db, '-r', root, 'users', 'update', 'admin', '--locale', locale])).code).toBe(0);
      const { context, page: p } = await newPage(browser, { width, height: 800 });
      try {
        await p.emulateMedia({ colorScheme: scheme });
        await loginAs(p, server.url, 'admin', PW);
        await open('/Mixed/', p);
        await p.keyboard.press('Control+a');
        await p.keyboard.press('F2');
        await p.waitForSelector('[data-testid=prompt-batchRename]');
        await p.fill('[data-testid=batch-pattern]', '{n:2} {name}{ext}');
        expect((await rows(p)).map((r) => r[1])).toEqual((await rows(p)).map((r, k) => `0${k + 1} ${r[0]}`));
        await p.locator('[data-testid=batch-preview]').scrollIntoViewIfNeeded();
        await shot(p, `batch-rename-${width}-${scheme}-${locale}`, { fullPage: false });
        await p.keyboard.press('Escape');
      } finally {
        await context.close();
      }
    }
  });
});
