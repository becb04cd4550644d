import { afterAll, beforeAll, expect, test } from 'bun:test';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import type { RunningServer } from '../helpers/binary';
import { makeTree, tempsUnder } from '../helpers/jobs-fixture';
import { closeSession, newPage, openSession, shot, workspace, type Session } from './browser';

// The jobs panel on every screen: a big copy started as a job shows progress (files, bytes, rate, time left) and is
// cancelled from the panel, leaving nothing; "Extract here" on a zip runs as a job and the folder appears.
const ws = workspace('filedeck-jobs-panel-');
const { root } = ws;
const PW = 'jobs-panel-admin-password-7';
let server: RunningServer;
let page: Page;
let session: Session | undefined;

beforeAll(async () => {
  // Big enough (about 250 MB) that the copy is still running when the test clicks Cancel on a loaded machine.
  makeTree(join(root, 'src'), 16_000, 16 * 1024);
  mkdirSync(join(root, 'dst'));
  mkdirSync(join(root, 'pack', 'docs'), { recursive: true });
  for (let i = 0; i < 20; i++) writeFileSync(join(root, 'pack', 'docs', `d${i}.txt`), `doc ${i}\n`);
  Bun.spawnSync(['zip', '-qr', join(root, 'bundle.zip'), 'docs'], { cwd: join(root, 'pack') });
  session = await openSession(ws, PW);
  ({ server, page } = session);
}, 60_000);
afterAll(() => closeSession(ws, session));

const token = () => page.evaluate(() => localStorage.getItem('jwt')) as Promise<string>;

test('a copy job shows its progress in the panel and is cancelled from it; nothing half-copied is left', async () => {
  await page.goto(`${server.url}/files/`);
  await page.waitForSelector('[data-testid=listing]');
  const r = await fetch(`${server.url}/api/jobs`, { method: 'POST', headers: { 'X-Auth': await token() }, body: JSON.stringify({ kind: 'copy', items: ['/src'], destination: '/dst' }) });
  expect(r.status).toBe(202);
  await page.waitForSelector('[data-testid=job][data-state=running] [data-testid=job-detail]', { timeout: 20_000 });
  await page.waitForFunction(() => /files\/s|B\/s|bytes\/s/.test(document.querySelector('[data-testid=job-detail]')?.textContent ?? ''), null, { timeout: 20_000 });
  const detail = await page.textContent('[data-testid=job-detail]');
  expect(detail).toMatch(/of 16,000 files/);
  await shot(page, 'jobs-panel-running-1280');
  await page.click('[data-testid=job-cancel]');
  await page.waitForSelector('[data-testid=job][data-state=cancelled]', { timeout: 20_000 });
  expect(readdirSync(join(root, 'dst'))).toEqual([]);
  expect(tempsUnder(root)).toEqual([]);
}, 60_000);

test('Extract here runs as a job; the folder appears in the listing', async () => {
  await page.goto(`${server.url}/files/`);
  await page.waitForSelector('[data-name="bundle.zip"]');
  await page.click('[data-name="bundle.zip"]');
  await page.getByRole('button', { name: 'Extract here' }).first().click();
  await page.waitForSelector('[data-testid=job][data-state=done]', { timeout: 20_000 });
  await page.waitForSelector('[data-name="bundle"]', { timeout: 10_000 });
  expect(readdirSync(join(root, 'bundle', 'docs')).length).toBe(20);
  await shot(page, 'jobs-panel-done-1280');
}, 60_000);

test('the panel on a phone, in dark mode and right to left', async () => {
  const { context, page: small } = await newPage(session!.browser, { width: 375, height: 740, locale: 'ar' });
  await context.addInitScript((t) => localStorage.setItem('jwt', t as string), await token());
  await small.emulateMedia({ colorScheme: 'dark' });
  await small.goto(`${server.url}/files/`);
  await small.waitForSelector('[data-testid=jobs-panel]');
  await shot(small, 'jobs-panel-375-dark-rtl');
  expect(existsSync(join(root, 'bundle'))).toBe(true);
  await context.close();
}, 60_000);

test('a job ending in the background keeps the selection on the items still there', async () => {
  mkdirSync(join(root, 'keep'));
  for (const n of ['a.txt', 'b.txt', 'c.txt']) writeFileSync(join(root, 'keep', n), n);
  mkdirSync(join(root, 'keep', 'gone'));
  await page.goto(`${server.url}/files/keep/`);
  await page.waitForSelector('[data-name="c.txt"]');
  await page.click('[data-name="b.txt"]');
  await page.click('[data-name="c.txt"]', { modifiers: ['Control'] });
  await page.click('[data-name="gone"]', { modifiers: ['Control'] });
  const selected = () => page.$$eval('[data-testid=item][aria-selected=true]', (els) => els.map((e) => e.getAttribute('data-name')).sort());
  expect(await selected()).toEqual(['b.txt', 'c.txt', 'gone']);
  // A job started elsewhere (another tab, the CLI) adds a file here and another deletes a selected folder.
  const t = await token();
  const run = async (body: object) => {
    const r = await fetch(`${server.url}/api/jobs`, { method: 'POST', headers: { 'X-Auth': t }, body: JSON.stringify(body) });
    expect(r.status).toBe(202);
  };
  await run({ kind: 'copy', items: ['/keep/a.txt'], destination: '/dst' });
  await run({ kind: 'delete', items: ['/keep/gone'], permanent: true });
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=job][data-state=done]').length >= 2, null, { timeout: 20_000 });
  await page.waitForSelector('[data-name="gone"]', { state: 'detached' });
  expect(await selected()).toEqual(['b.txt', 'c.txt']);
}, 60_000);
