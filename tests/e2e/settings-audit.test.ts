import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { Database } from 'bun:sqlite';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { cli } from '../helpers/binary';
import { closeSession, loginAs, newPage, openSession, shot, workspace, type Session } from './browser';

// Settings → Audit in Chromium: the table, filters, paging, a non-admin kept out, 1280/375 px, dark and RTL.
const ws = workspace('filedeck-e2e-audit-');
const ADMIN_PW = 'e2e-audit-admin-password-1';
const BOB_PW = 'bob-audit-password-1234';
let s: Session;
const fd = (...args: string[]) => cli(['-d', ws.db, '-r', ws.root, ...args], { cwd: ws.dir });
const fitsWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
const rows = (page: Page) => page.locator('[data-testid=audit-row]');
/** Waits (up to 5 s) until `read` gives a value `ok` accepts; returns the last value either way. */
async function until<T>(read: () => Promise<T>, ok: (v: T) => boolean): Promise<T> {
  let v = await read();
  for (let i = 0; i < 50 && !ok(v); i++) {
    await Bun.sleep(100);
    v = await read();
  }
  return v;
}

beforeAll(async () => {
  mkdirSync(join(ws.root, 'docs'), { recursive: true });
  writeFileSync(join(ws.root, 'docs', 'report.txt'), 'x');
  s = await openSession(ws, ADMIN_PW, [], async () => {
    expect((await fd('users', 'add', 'bob', BOB_PW)).code).toBe(0);
    expect((await fd('shares', 'add', '/docs', '--user', 'admin', '--expires', '2d')).code).toBe(0);
  });
  await fetch(`${s.server.url}/api/login`, { method: 'POST', body: JSON.stringify({ username: 'admin', password: 'not-the-password' }) });
  // Enough older entries for a second page (written beside the running server, as another process would).
  const db = new Database(ws.db);
  const insert = db.prepare("INSERT INTO audit (time, user_id, user_name, address, action, target, detail, outcome) VALUES (?, 1, 'admin', '192.0.2.7', 'file.delete', ?, '{}', 'ok')");
  for (let i = 0; i < 60; i++) insert.run(Date.now() - 86_400_000 - i * 60_000, `/old/file-${i}.txt`);
  db.close();
}, 60_000);
afterAll(async () => {
  await closeSession(ws, s);
});

describe('settings → audit', () => {
  test('the table, filters and "load more"; it fits 375 px; dark and RTL look right', async () => {
    const { page } = s;
    await page.goto(`${s.server.url}/settings/audit`);
    await page.waitForSelector('[data-testid=audit-table]');
    expect(await rows(page).count()).toBe(50);
    await page.click('[data-testid=audit-more]');
    expect(await until(() => rows(page).count(), (n) => n > 60)).toBeGreaterThan(60);
    expect(await page.locator('[data-testid=audit-more]').count()).toBe(0);
    await shot(page, 'audit-1280');

    await page.selectOption('select[name=action]', 'login');
    await page.click('[data-testid=audit-apply]');
    const actions = async () => [...new Set(await rows(page).evaluateAll((els) => els.map((e) => e.getAttribute('data-action'))))].join();
    expect(await until(actions, (a) => a === 'login')).toBe('login');
    const outcomes = await page.locator('[data-testid=audit-row] .audit-outcome').allTextContents();
    expect(outcomes).toContain('Failed');
    expect(outcomes).toContain('OK');

    await page.click('[data-testid=audit-reset]');
    await page.fill('input[name=text]', 'docs');
    await page.fill('input[name=user]', 'admin');
    await page.click('[data-testid=audit-apply]');
    expect(await until(() => rows(page).count(), (n) => n === 1)).toBe(1);
    expect(await rows(page).first().textContent()).toContain('Link created');

    await page.click('[data-testid=audit-reset]');
    await page.fill('input[name=user]', 'nobody-at-all');
    await page.click('[data-testid=audit-apply]');
    await page.waitForSelector('[data-testid=audit-empty]');
    await page.click('[data-testid=audit-reset]');
    await page.waitForSelector('[data-testid=audit-table]');
    // Newest first by time: the entries written just now come before the 60 backdated ones.
    expect(await rows(page).first().getAttribute('data-action')).not.toBe('file.delete');

    // The phone-sized shots show a short list (logins only).
    await page.selectOption('select[name=action]', 'login');
    await page.click('[data-testid=audit-apply]');
    expect(await until(actions, (a) => a === 'login')).toBe('login');
    await page.setViewportSize({ width: 375, height: 800 });
    expect(await fitsWidth(page)).toBe(true);
    await shot(page, 'audit-375');
    await page.evaluate(() => (document.documentElement.dataset.theme = 'dark'));
    await shot(page, 'audit-375-dark');
    await page.setViewportSize({ width: 1280, height: 800 });
    await shot(page, 'audit-1280-dark');
  }, 60_000);

  test('RTL: an Arabic-speaking admin gets a right-to-left screen', async () => {
    expect((await fd('users', 'update', 'admin', '--locale', 'ar')).code).toBe(0);
    const { context, page } = await newPage(s.browser);
    try {
      await loginAs(page, s.server.url, 'admin', ADMIN_PW);
      await page.goto(`${s.server.url}/settings/audit`);
      await page.waitForSelector('[data-testid=audit-table]');
      expect(await page.getAttribute('html', 'dir')).toBe('rtl');
      await shot(page, 'audit-1280-rtl');
    } finally {
      await context.close();
    }
  }, 60_000);

  test('a non-admin has no Audit tab and is kept off the page', async () => {
    const { context, page } = await newPage(s.browser);
    try {
      await loginAs(page, s.server.url, 'bob', BOB_PW);
      await page.goto(`${s.server.url}/settings/profile`);
      await page.waitForSelector('[data-testid=settings-nav]');
      expect(await page.locator('[data-testid=tab-audit]').count()).toBe(0);
      await page.goto(`${s.server.url}/settings/audit`);
      await page.waitForTimeout(500);
      expect(await page.locator('[data-testid=audit-table]').count()).toBe(0);
    } finally {
      await context.close();
    }
  }, 60_000);
});
