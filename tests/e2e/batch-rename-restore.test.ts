import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdirSync, readFileSync, readdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page, Route } from 'playwright-core';
import type { RunningServer } from '../helpers/binary';
import { settled } from '../helpers/settle';
import { closeSession, openSession, selectItems, shot, workspace, type Session } from './browser';

// Batch rename breaks a cycle (a swap) by parking one item under a visible temporary name (web/actions/batch-rename.ts).
// When a later step fails, the parked item goes back to its old name if it can, and the prompt says where it is if it
// cannot. The failure is real: the page's own rename request is held, the disk is changed behind the page's back, and
// the request then goes on to the real server, which refuses it.
const ws = workspace('filedeck-batch-restore-');
const { root } = ws;
const PW = 'batch-restore-admin-password-8';
const TEMP = /^batch-rename-[a-z0-9]+\.tmp$/;
let server: RunningServer;
let page: Page;
let session: Session | undefined;

/** Each file holds its own first name, so where every file went can be read back from the disk. */
const put = (folder: string, ...names: string[]) => {
  mkdirSync(join(root, folder), { recursive: true });
  for (const n of names) writeFileSync(join(root, folder, n), n);
};
/** Every file of a folder with its body, sorted by name. */
const contents = (folder: string) => readdirSync(join(root, folder)).sort().map((n) => [n, readFileSync(join(root, folder, n), 'utf8')]);

beforeAll(async () => {
  put('Gone', 'a-b.txt', 'b-a.txt');
  put('Taken', 'a-b.txt', 'b-a.txt');
  put('Cycle', '1-2-3.txt', '2-3-1.txt', '3-1-2.txt');
  session = await openSession(ws, PW);
  ({ server, page } = session);
});
afterAll(() => closeSession(ws, session));

interface Rename {
  from: string;
  to: string;
  status: number;
}

/**
 * Renames `names` in `folder` by the regex batch rename `find` → `replace` (the first row's new name is `first`);
 * before the page's `at`-th rename request goes to the server, `meddle` changes the disk. Answers every rename
 * request the page made, in order, with its status.
 */
async function batchWith(folder: string, names: string[], find: string, replace: string, first: string, at: number, meddle: () => void): Promise<Rename[]> {
  const { seen, stop } = await recordRenames(folder, (n) => n === at && meddle());
  try {
    await page.goto(`${server.url}/files/${folder}/`);
    for (const n of names) await page.waitForSelector(`[data-name="${n}"]`);
    await selectItems(page, names);
    await page.keyboard.press('F2');
    await page.waitForSelector('[data-testid=prompt-batchRename]');
    await page.check('[data-testid=batch-regex]');
    await page.fill('[data-testid=batch-find]', find);
    await page.fill('[data-testid=batch-replace]', replace);
    await page.waitForFunction((want) => document.querySelector('[data-testid=batch-row]')?.getAttribute('data-new') === want, first);
    await page.click('[data-testid=prompt-confirm]');
    // Shown once the batch and its restore have run, any undo has been offered and the listing has reloaded.
    await page.waitForSelector('[data-testid=batch-stopped]');
  } finally {
    await stop();
  }
  return seen;
}

/**
 * Records the page's rename requests (PATCH) in `folder`, in order, each with the status the real server answered;
 * `before(n)` runs before the n-th goes on to the server. `stop` ends the recording.
 */
async function recordRenames(folder: string, before?: (n: number) => void): Promise<{ seen: Rename[]; stop: () => Promise<void> }> {
  const seen: Rename[] = [];
  const isRename = (url: URL) => url.pathname.startsWith(`/api/resources/${folder}/`);
  await page.route(isRename, async (route: Route) => {
    const req = route.request();
    if (req.method() !== 'PATCH') return route.continue();
    const url = new URL(req.url());
    const name = (p: string) => decodeURIComponent(p).split('/').pop()!;
    const step: Rename = { from: name(url.pathname), to: name(url.searchParams.get('destination')!), status: 0 };
    seen.push(step);
    before?.(seen.length);
    const response = await route.fetch();
    step.status = response.status();
    await route.fulfill({ response });
  });
  return { seen, stop: () => page.unroute(isRename) };
}

/** Swaps a-b.txt and b-a.txt; `meddle` runs before the step that follows the parking. */
const swapWith = (folder: string, meddle: () => void) => batchWith(folder, ['a-b.txt', 'b-a.txt'], '^(\\w)-(\\w)', '$2-$1', 'b-a.txt', 2, meddle);
/** The undo toast's text, or null when none is offered. */
const toast = async () => ((await page.locator('[data-testid=undo-toast]').count()) ? page.textContent('[data-testid=undo-toast] .undo-toast__text') : null);

const statuses = () => page.locator('[data-testid=batch-row]').evaluateAll((els) => els.map((e) => [e.getAttribute('data-old'), e.querySelector('.batch__status')?.textContent ?? '']));
const listed = () => page.locator('[data-testid=item]').evaluateAll((els) => els.map((e) => e.getAttribute('data-name')).sort());

describe('batch rename, a step failing after an item was parked', () => {
  test('the other file was moved away meanwhile: the parked file goes back to its name, nothing is left under a temporary one', async () => {
    const seen = await swapWith('Gone', () => renameSync(join(root, 'Gone', 'b-a.txt'), join(root, 'Gone', 'moved by someone.txt')));
    // Parked, refused (the source is gone), parked file back home.
    expect(seen.map((s) => s.status)).toEqual([200, 404, 200]);
    expect(seen[0]!.from).toBe('a-b.txt');
    expect(seen[0]!.to).toMatch(TEMP);
    expect(seen[1]).toMatchObject({ from: 'b-a.txt', to: 'a-b.txt' });
    expect(seen[2]).toEqual({ from: seen[0]!.to, to: 'a-b.txt', status: 200 });

    // No file lost, none under a temporary name.
    const want = [['a-b.txt', 'a-b.txt'], ['moved by someone.txt', 'b-a.txt']];
    expect(await settled(() => contents('Gone'), want)).toEqual(want);
    const text = await page.textContent('[data-testid=batch-stopped]');
    expect(text).toContain('Stopped after 0 of 2: b-a.txt could not be renamed');
    expect(text).toContain('The other items were left as they were.');
    expect(text).not.toContain('could not get its name back');
    expect(await statuses()).toEqual([['a-b.txt', 'Not renamed'], ['b-a.txt', expect.stringMatching(/^Failed: .+/)]]);
    // Nothing was renamed and nothing is left parked: there is nothing to undo, so no toast offers it.
    expect(await toast()).toBeNull();
    await page.click('[data-testid=prompt-close]');
    await page.waitForSelector('[data-testid=prompt-batchRename]', { state: 'detached' });
    await page.waitForSelector('[data-name="moved by someone.txt"]');
    expect(await listed()).toEqual(['a-b.txt', 'moved by someone.txt']);
    expect(await toast()).toBeNull();
    expect(seen.length).toBe(3);
  });

  test('a file took the parked one\'s name meanwhile: it stays under its temporary name, and the prompt names it', async () => {
    const seen = await swapWith('Taken', () => writeFileSync(join(root, 'Taken', 'a-b.txt'), 'someone else'));
    // Parked, refused (the name is taken), and the way back refused for the same reason: never replaced.
    expect(seen.map((s) => s.status)).toEqual([200, 409, 409]);
    const temp = seen[0]!.to;
    expect(temp).toMatch(TEMP);
    expect(seen[2]).toEqual({ from: temp, to: 'a-b.txt', status: 409 });

    // No file lost: the newcomer kept its content, the parked file is whole under the name the prompt shows.
    const want = [['a-b.txt', 'someone else'], ['b-a.txt', 'b-a.txt'], [temp, 'a-b.txt']].sort((x, y) => (x[0]! < y[0]! ? -1 : 1));
    expect(await settled(() => contents('Taken'), want)).toEqual(want);
    expect(await statuses()).toEqual([['a-b.txt', `Left as ${temp}`], ['b-a.txt', expect.stringMatching(/^Failed: .+/)]]);
    const text = await page.textContent('[data-testid=batch-stopped]');
    expect(text).toContain('Stopped after 0 of 2: b-a.txt could not be renamed');
    // The alert does not say everything else was left as it was without naming the file under a temporary name.
    expect(text).toContain(`a-b.txt could not get its name back and is now ${temp}.`);
    // Nothing reached its new name: no "Renamed" toast, whose undo could only retry the way back just refused.
    expect(await toast()).toBeNull();
    await shot(page, 'batch-rename-parked-1280-light');
    await page.click('[data-testid=prompt-close]');
    await page.waitForSelector('[data-testid=prompt-batchRename]', { state: 'detached' });
    await page.waitForSelector(`[data-name="${temp}"]`);
    expect(await listed()).toEqual(['a-b.txt', 'b-a.txt', temp].sort());
    expect(await toast()).toBeNull();
    expect(seen.length).toBe(3);
  });

  test('a three-cycle stopped after one item took the parked one\'s name: the toast counts that one, its undo puts both back', async () => {
    // 1-2-3 → 2-3-1 → 3-1-2 → 1-2-3: 1-2-3.txt is parked, 3-1-2.txt takes its name, then 2-3-1.txt is moved away by
    // someone before its step, which the server refuses; the parked file cannot go home (its name is taken now).
    const cycle = join(root, 'Cycle');
    const seen = await batchWith('Cycle', ['1-2-3.txt', '2-3-1.txt', '3-1-2.txt'], '^(\\d)-(\\d)-(\\d)', '$2-$3-$1', '2-3-1.txt', 3, () => renameSync(join(cycle, '2-3-1.txt'), join(cycle, 'moved by someone.txt')));
    expect(seen.map((s) => s.status)).toEqual([200, 200, 404, 409]);
    const temp = seen[0]!.to;
    expect(temp).toMatch(TEMP);
    expect(seen.slice(1).map((s) => [s.from, s.to])).toEqual([['3-1-2.txt', '1-2-3.txt'], ['2-3-1.txt', '3-1-2.txt'], [temp, '1-2-3.txt']]);
    expect(await statuses()).toEqual([['1-2-3.txt', `Left as ${temp}`], ['2-3-1.txt', expect.stringMatching(/^Failed: .+/)], ['3-1-2.txt', 'Renamed']]);
    expect(await toast()).toBe('1 item renamed');
    await shot(page, 'batch-rename-cycle-stopped-1280-light');
    await page.click('[data-testid=prompt-close]');
    await page.waitForSelector('[data-testid=prompt-batchRename]', { state: 'detached' });
    const undo = await recordRenames('Cycle');
    try {
      await page.click('[data-testid=undo-button]');
      // Both files back under their own names (polled: the toast leaves when the undo starts, not when it ends).
      const want = [['1-2-3.txt', '1-2-3.txt'], ['3-1-2.txt', '3-1-2.txt'], ['moved by someone.txt', '2-3-1.txt']];
      expect(await settled(() => contents('Cycle'), want)).toEqual(want);
      await page.waitForSelector('[data-name="3-1-2.txt"]');
    } finally {
      await undo.stop();
    }
    // Exactly the forward steps that went through, reversed: the renamed file first, then the parked one home.
    expect(undo.seen).toEqual([{ from: '1-2-3.txt', to: '3-1-2.txt', status: 200 }, { from: temp, to: '1-2-3.txt', status: 200 }]);
  });
});
