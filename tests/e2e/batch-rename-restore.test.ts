import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdirSync, readFileSync, readdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page, Route } from 'playwright-core';
import type { RunningServer } from '../helpers/binary';
import { closeSession, openSession, shot, workspace, type Session } from './browser';

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
/** The folder's contents once `ok` accepts them, or as they are at the deadline (the assertion then shows them). */
async function contentsWhen(folder: string, ok: (c: string[][]) => boolean, ms = 10_000): Promise<string[][]> {
  const until = Date.now() + ms;
  for (;;) {
    const c = contents(folder);
    if (ok(c) || Date.now() > until) return c;
    await page.waitForTimeout(50);
  }
}

beforeAll(async () => {
  put('Gone', 'a-b.txt', 'b-a.txt');
  put('Taken', 'a-b.txt', 'b-a.txt');
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
 * Swaps a-b.txt and b-a.txt in `folder` by a regex batch rename; before the step that follows the parking goes to the
 * server, `meddle` changes the disk. Answers every rename request the page made, in order, with its status.
 */
async function swapWith(folder: string, meddle: () => void): Promise<Rename[]> {
  const seen: Rename[] = [];
  const isRename = (url: URL) => url.pathname.startsWith(`/api/resources/${folder}/`);
  await page.route(isRename, async (route: Route) => {
    const req = route.request();
    if (req.method() !== 'PATCH') return route.continue();
    const url = new URL(req.url());
    const name = (p: string) => decodeURIComponent(p).split('/').pop()!;
    const step: Rename = { from: name(url.pathname), to: name(url.searchParams.get('destination')!), status: 0 };
    seen.push(step);
    if (seen.length === 2) meddle();
    const response = await route.fetch();
    step.status = response.status();
    await route.fulfill({ response });
  });
  try {
    await page.goto(`${server.url}/files/${folder}/`);
    await page.waitForSelector('[data-name="b-a.txt"]');
    await page.click('[data-name="a-b.txt"]');
    await page.click('[data-name="b-a.txt"]', { modifiers: ['Control'] });
    await page.keyboard.press('F2');
    await page.waitForSelector('[data-testid=prompt-batchRename]');
    await page.check('[data-testid=batch-regex]');
    await page.fill('[data-testid=batch-find]', '^(\\w)-(\\w)');
    await page.fill('[data-testid=batch-replace]', '$2-$1');
    await page.waitForFunction(() => document.querySelector('[data-testid=batch-row]')?.getAttribute('data-new') === 'b-a.txt');
    await page.click('[data-testid=prompt-confirm]');
    // Shown once the batch and its restore have run and the listing has reloaded.
    await page.waitForSelector('[data-testid=batch-stopped]');
  } finally {
    await page.unroute(isRename);
  }
  return seen;
}

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
    expect(await contentsWhen('Gone', (c) => JSON.stringify(c) === JSON.stringify(want))).toEqual(want);
    const text = await page.textContent('[data-testid=batch-stopped]');
    expect(text).toContain('Stopped after 0 of 2: b-a.txt could not be renamed');
    expect(text).toContain('The other items were left as they were.');
    expect(text).not.toContain('could not get its name back');
    expect(await statuses()).toEqual([['a-b.txt', 'Not renamed'], ['b-a.txt', expect.stringMatching(/^Failed: .+/)]]);
    await page.click('[data-testid=prompt-close]');
    await page.waitForSelector('[data-testid=prompt-batchRename]', { state: 'detached' });
    await page.waitForSelector('[data-name="moved by someone.txt"]');
    expect(await listed()).toEqual(['a-b.txt', 'moved by someone.txt']);
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
    expect(await contentsWhen('Taken', (c) => JSON.stringify(c) === JSON.stringify(want))).toEqual(want);
    expect(await statuses()).toEqual([['a-b.txt', `Left as ${temp}`], ['b-a.txt', expect.stringMatching(/^Failed: .+/)]]);
    const text = await page.textContent('[data-testid=batch-stopped]');
    expect(text).toContain('Stopped after 0 of 2: b-a.txt could not be renamed');
    // The alert does not say everything else was left as it was without naming the file under a temporary name.
    expect(text).toContain(`a-b.txt could not get its name back and is now ${temp}.`);
    await shot(page, 'batch-rename-parked-1280-light');
    await page.click('[data-testid=prompt-close]');
    await page.waitForSelector('[data-testid=prompt-batchRename]', { state: 'detached' });
    await page.waitForSelector(`[data-name="${temp}"]`);
    expect(await listed()).toEqual(['a-b.txt', 'b-a.txt', temp].sort());
  });
});
