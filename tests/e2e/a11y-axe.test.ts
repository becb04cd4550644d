import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { closeSession, openSession, workspace, type Session } from './browser';
import { axeFindings } from './axe';

// Issue 16 item 10: axe-core on every screen, light and dark, 0 critical and 0 serious violations.
const ws = workspace('filedeck-a11y-');
const PW = 'a11y-admin-password-61';
let session: Session | undefined;
let page: Page;
let base = '';
let shareHash = '';

beforeAll(async () => {
  mkdirSync(join(ws.root, 'Projects'), { recursive: true });
  writeFileSync(join(ws.root, 'Projects', 'plan.txt'), 'the plan\n');
  writeFileSync(join(ws.root, 'notes.md'), '# Notes\n\nSome *text* and a [link](https://example.org).\n');
  writeFileSync(join(ws.root, 'data.csv'), 'name,size\nalpha,1\nbeta,2\n');
  writeFileSync(join(ws.root, 'code.ts'), 'export const answer = 42;\n');
  writeFileSync(join(ws.root, 'report.txt'), 'quarterly numbers\n');
  writeFileSync(join(ws.root, 'old.txt'), 'to the trash\n');
  // A small PNG for the image previewer, and a zip for the extract prompt.
  Bun.spawnSync(['ffmpeg', '-loglevel', 'error', '-f', 'lavfi', '-i', 'color=c=teal:s=64x48', '-frames:v', '1', join(ws.root, 'dot.png')]);
  Bun.spawnSync(['zip', '-q', join(ws.root, 'bundle.zip'), 'plan.txt'], { cwd: join(ws.root, 'Projects') });
  session = await openSession(ws, PW);
  page = session.page;
  base = session.server.url;
  const token = await page.evaluate(() => localStorage.getItem('jwt') ?? '');
  const res = await fetch(`${base}/api/share/report.txt`, { method: 'POST', headers: { 'X-Auth': token }, body: '{}' });
  if (res.ok) shareHash = ((await res.json()) as { hash: string }).hash;
  // Something in the trash, so that its screen has rows.
  const del = await fetch(`${base}/api/resources/old.txt`, { method: 'DELETE', headers: { 'X-Auth': token } });
  expect(del.ok).toBe(true);
});
afterAll(() => closeSession(ws, session));

/** Every finding of one theme, by screen, so that one run shows all that is left to fix. */
async function scan(found: string[], where: string, include?: string): Promise<void> {
  for (const f of await axeFindings(page, { include })) found.push(`${where}: ${f}`);
}

async function listing(path = '/'): Promise<void> {
  await page.goto(`${base}/files${path}`);
  await page.waitForSelector('[data-testid=listing]');
  await page.waitForSelector('[data-testid=item]');
}

async function prompt(found: string[], action: string, testId: string, select?: string): Promise<void> {
  await listing();
  if (select) await page.click(`[data-testid=item][data-name="${select}"]`);
  await page.click(`[data-testid=action-${action}]`);
  await page.waitForSelector(`[data-testid=prompt-${testId}]`);
  await scan(found, `prompt ${testId}`);
  await page.keyboard.press('Escape');
}

for (const theme of ['light', 'dark'] as const) {
  describe(`axe, ${theme} theme`, () => {
    test('every screen has no critical or serious violation', async () => {
      const found: string[] = [];
      await page.emulateMedia({ colorScheme: theme });

      // A second context: no session, as a visitor sees the login and share pages.
      const visitor = await session!.browser.newContext({ viewport: { width: 1280, height: 800 } });
      const anon = await visitor.newPage();
      await anon.emulateMedia({ colorScheme: theme });
      await anon.goto(`${base}/login`);
      await anon.waitForSelector('input[name=username]');
      for (const f of await axeFindings(anon)) found.push(`login: ${f}`);
      if (shareHash) {
        await anon.goto(`${base}/share/${shareHash}`);
        await anon.waitForSelector('[data-testid=share-page], main');
        for (const f of await axeFindings(anon)) found.push(`share page: ${f}`);
      }
      await visitor.close();

      await listing();
      await page.waitForFunction((t) => document.documentElement.dataset.theme === t, theme);
      // Every view mode (list, mosaic, gallery), with a selection of two.
      await page.click('[data-testid=item][data-name="report.txt"]');
      await page.click('[data-testid=item][data-name="notes.md"]', { modifiers: ['Control'] });
      for (let i = 0; i < 3; i++) {
        const mode = (await page.getAttribute('[data-testid=listing]', 'data-mode')) ?? '';
        await scan(found, `listing (${mode})`);
        await page.click('[data-testid=action-view]');
        await page.waitForFunction((m) => document.querySelector('[data-testid=listing]')?.getAttribute('data-mode') !== m, mode);
      }

      await page.goto(`${base}/files/notes.md`);
      await page.waitForSelector('[data-testid=markdown] h1');
      await scan(found, 'markdown viewer');
      await page.goto(`${base}/files/data.csv`);
      await page.waitForSelector('[data-testid=csv] tbody tr');
      await scan(found, 'csv viewer');
      await page.goto(`${base}/files/code.ts`);
      await page.waitForSelector('[data-testid=editor][data-readonly=false] [data-testid=editor-host][data-status=ready] .cm-content');
      await scan(found, 'editor');

      await listing();
      await page.click('[data-testid=action-search]');
      await page.waitForSelector('[data-testid=search-input]');
      await page.keyboard.type('report');
      await page.waitForSelector('[data-testid=search-hit]');
      await scan(found, 'search');
      await page.keyboard.press('Escape');

      await prompt(found, 'info', 'info');
      await prompt(found, 'upload', 'upload');
      await prompt(found, 'rename', 'rename', 'report.txt');
      await prompt(found, 'delete', 'delete', 'report.txt');
      await prompt(found, 'copy', 'copy', 'report.txt');
      await prompt(found, 'share', 'share', 'report.txt');
      await prompt(found, 'move', 'move', 'report.txt');
      await prompt(found, 'download', 'download', 'Projects');
      await prompt(found, 'extractTo', 'extract', 'bundle.zip');
      for (const [button, testId] of [['new-folder', 'newDir'], ['new-file', 'newFile']] as const) {
        await listing();
        await page.click(`[data-testid=${button}]`);
        await page.waitForSelector(`[data-testid=prompt-${testId}]`);
        await scan(found, `prompt ${testId}`);
        await page.keyboard.press('Escape');
      }
      await page.goto(`${base}/files/dot.png`);
      await page.waitForSelector('[data-testid=previewer] img');
      await scan(found, 'image previewer');
      // Batch rename (two items selected) and the shortcut help ('?').
      await listing();
      await page.click('[data-testid=item][data-name="report.txt"]');
      await page.click('[data-testid=item][data-name="notes.md"]', { modifiers: ['Control'] });
      await page.click('[data-testid=action-rename]');
      await page.waitForSelector('[data-testid=prompt-batchRename]');
      await scan(found, 'prompt batchRename');
      await page.keyboard.press('Escape');
      await page.click('[data-testid=item][data-name="report.txt"]');
      await page.keyboard.press('?');
      await page.waitForSelector('[data-testid=prompt-help]');
      await scan(found, 'prompt help');
      await page.keyboard.press('Escape');

      for (const screen of ['profile', 'shares', 'global', 'users', 'users/new', 'audit', 'api']) {
        await page.goto(`${base}/settings/${screen}`);
        await page.waitForSelector('main form, main table, main section, main h1, main h2');
        await page.waitForTimeout(150);
        await scan(found, `settings/${screen}`);
      }
      await page.goto(`${base}/trash`);
      await page.waitForSelector('main');
      await page.waitForTimeout(200);
      await scan(found, 'trash');
      for (const code of ['403', '404', '500']) {
        await page.goto(`${base}/${code}`);
        await page.waitForSelector('main, h1, h2');
        await scan(found, `error ${code}`);
      }
      expect(found).toEqual([]);
    }, 120_000);
  });
}
