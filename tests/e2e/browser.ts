import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { startServer, type RunningServer } from '../helpers/binary';
import { settled } from '../helpers/settle';
import { join, resolve } from 'node:path';

export const SCREENSHOTS = resolve(import.meta.dir, 'screenshots');
mkdirSync(SCREENSHOTS, { recursive: true });

/** Debian's Chromium, headless, with the flags this workplace's closed network needs. */
export function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
  });
}

/** `touch`: a phone (touch events, mobile viewport), for tests of touch gestures. */
export interface PageOptions {
  locale?: string;
  width?: number;
  height?: number;
  touch?: boolean;
}

export async function newPage(browser: Browser, opts: PageOptions = {}): Promise<{ context: BrowserContext; page: Page }> {
  const touch = opts.touch ? { hasTouch: true, isMobile: true } : {};
  const context = await browser.newContext({ locale: opts.locale ?? 'en-US', viewport: { width: opts.width ?? 1280, height: opts.height ?? 800 }, ...touch });
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  return { context, page };
}

/**
 * Saves a screenshot once the start-up loading indicator is gone: the whole page, or only the window with
 * `fullPage: false` (a virtualised listing makes the page far taller than Chromium can capture).
 */
export async function shot(page: Page, name: string, opts: { fullPage?: boolean } = {}): Promise<Buffer> {
  await page.waitForSelector('#loading', { state: 'detached' });
  return page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: opts.fullPage ?? true });
}

export async function loginThroughForm(page: Page, username: string, password: string): Promise<void> {
  await page.fill('input[name=username]', username);
  await page.fill('input[name=password]', password);
  await page.click('button[type=submit]');
}

/**
 * Logs in through the form and waits for the listing. When the listing never comes, the error says what the page
 * showed instead (its address, the form's message, what the login request answered) and where a screenshot of it
 * is: a rare CI timeout here could not be reproduced on demand, so the next one must explain itself.
 */
export async function loginAs(page: Page, base: string, username: string, password: string): Promise<void> {
  await page.goto(`${base}/login`);
  const answers: string[] = [];
  const onResponse = (r: { url(): string; status(): number }) => void (r.url().endsWith('/api/login') && answers.push(String(r.status())));
  page.on('response', onResponse);
  try {
    await loginThroughForm(page, username, password);
    await page.waitForURL(`${base}/files/`);
  } catch (e) {
    const shot = join(tmpdir(), `filedeck-login-timeout-${Date.now()}.png`);
    const seen = await page
      .evaluate(() => ({
        message: document.querySelector('[data-testid=login-error]')?.textContent ?? null,
        username: (document.querySelector('input[name=username]') as HTMLInputElement | null)?.value ?? null,
        busy: document.querySelector('form')?.getAttribute('aria-busy') ?? null,
      }))
      .catch(() => null);
    await page.screenshot({ path: shot }).catch(() => {});
    throw new Error(`login as ${username} did not reach /files/: at ${page.url()}, form ${JSON.stringify(seen)}, /api/login answered [${answers.join(', ')}], screenshot ${shot}\n${(e as Error).message}`);
  } finally {
    page.off('response', onResponse);
  }
}

/** A temp folder holding a files root and a database path for one test file. */
export interface Workspace {
  dir: string;
  db: string;
  root: string;
}

export function workspace(prefix: string): Workspace {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, db: join(dir, 'filedeck.db'), root: join(dir, 'files') };
}

export interface Session {
  server: RunningServer;
  browser: Browser;
  context: BrowserContext;
  page: Page;
}

/**
 * Starts `filedeck serve` on a workspace (the admin gets `password`), runs `setup` (CLI changes against the
 * running server), then opens Chromium with one page logged in as admin.
 */
export async function openSession(ws: Workspace, password: string, serverArgs: string[] = [], setup?: () => Promise<void>, pageOpts: PageOptions = {}): Promise<Session> {
  const server = await startServer(['-d', ws.db, '-r', ws.root, '--password', password, '--log', '', ...serverArgs], { cwd: ws.dir });
  await setup?.();
  const browser = await launch();
  const { context, page } = await newPage(browser, pageOpts);
  await loginAs(page, server.url, 'admin', password);
  return { server, browser, context, page };
}

/** Closes what openSession opened and removes the workspace. */
export async function closeSession(ws: Workspace, s: Session | undefined): Promise<void> {
  await s?.context.close();
  await s?.browser.close();
  await s?.server.stop();
  rmSync(ws.dir, { recursive: true, force: true });
}

/**
 * Selects exactly `names` in the listing (a click, then Ctrl+click on the rest) and waits until the page shows
 * that selection: a click that landed while the listing was still settling must not go unnoticed.
 */
export async function selectItems(page: Page, names: string[]): Promise<void> {
  await page.click(`[data-testid=item][data-name="${names[0]}"]`);
  for (const n of names.slice(1)) await page.click(`[data-testid=item][data-name="${n}"]`, { modifiers: ['Control'] });
  const want = [...names].sort();
  const selected = () => page.$$eval('[data-testid=item][aria-selected=true]', (els) => els.map((e) => e.getAttribute('data-name') ?? '').sort());
  const got = await settled(selected, want);
  if (!Bun.deepEquals(got, want)) throw new Error(`selected ${JSON.stringify(got)}, wanted ${JSON.stringify(want)}`);
}

/**
 * Runs a file action on the selection as a user of this width would: the header's button (wide screens), else the
 * selection bar's button, else the bar's More menu (a phone keeps the bar one row; what does not fit is in More).
 */
export async function runSelectionAction(page: Page, id: string): Promise<void> {
  const direct = page.locator(`[data-testid=action-${id}]:visible, [data-testid=bar-${id}]:visible`);
  await page.waitForSelector(`[data-testid=action-${id}]:visible, [data-testid=bar-${id}]:visible, [data-testid=selection-more]:visible`);
  if (await direct.count()) return direct.first().click();
  await page.click('[data-testid=selection-more]');
  await page.click(`[data-testid=menu-${id}]`);
}
