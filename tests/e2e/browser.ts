import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { mkdirSync } from 'node:fs';
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

export async function newPage(browser: Browser, opts: { locale?: string; width?: number; height?: number } = {}): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ locale: opts.locale ?? 'en-US', viewport: { width: opts.width ?? 1280, height: opts.height ?? 800 } });
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  return { context, page };
}

/** Saves a screenshot once the start-up loading indicator is gone. */
export async function shot(page: Page, name: string): Promise<Buffer> {
  await page.waitForSelector('#loading', { state: 'detached' });
  return page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

export async function loginThroughForm(page: Page, username: string, password: string): Promise<void> {
  await page.fill('input[name=username]', username);
  await page.fill('input[name=password]', password);
  await page.click('button[type=submit]');
}
