import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { LOCALE_INFO } from '../../server/contract/locales';
import { startServer, type RunningServer } from '../helpers/binary';
import { catalogueFiles, pluralParts, readCatalogue } from '../helpers/catalogues';
import { launch, loginThroughForm, newPage, shot } from './browser';

// Languages in Chromium: <html lang dir> carry the BCP 47 tag (fa → rtl, the stored "ua" → lang="uk"), Intl formats
// with it, the language select marks each option with its tag, and Chromium's plural rules match the catalogues.
const dir = mkdtempSync(join(tmpdir(), 'filedeck-e2e-locales-'));
const db = join(dir, 'filedeck.db');
const root = join(dir, 'files');
const PW = 'locales-admin-password-5120';
let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  mkdirSync(join(root, 'Documents'), { recursive: true });
  mkdirSync(join(root, 'Photos 2024'));
  writeFileSync(join(root, 'report 2024 Q1.pdf'), 'x'.repeat(1_234_567));
  writeFileSync(join(root, 'notes.txt'), 'hello');
  server = await startServer(['-d', db, '-r', root, '--password', PW, '--log', ''], { cwd: dir });
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const docLang = (page: Page) => page.evaluate(() => ({ lang: document.documentElement.lang, dir: document.documentElement.dir }));

async function token(): Promise<string> {
  return (await fetch(`${server.url}/api/login`, { method: 'POST', body: JSON.stringify({ username: 'admin', password: PW }) })).text();
}

/** Sets the admin's stored language through the API, as the reference's client or a script would. */
async function storeLocale(locale: string): Promise<string> {
  const res = await fetch(`${server.url}/api/users/1`, {
    method: 'PUT', headers: { 'X-Auth': await token() },
    body: JSON.stringify({ what: 'user', which: ['locale'], data: { id: 1, locale } }),
  });
  expect(res.status).toBe(200);
  return ((await (await fetch(`${server.url}/api/users/1`, { headers: { 'X-Auth': await token() } })).json()) as { locale: string }).locale;
}

async function openListing(page: Page): Promise<void> {
  await page.goto(`${server.url}/login`);
  await loginThroughForm(page, 'admin', PW);
  await page.waitForURL(`${server.url}/files/`);
  await page.waitForSelector('[data-testid=item]');
}

async function shots(page: Page, name: string): Promise<void> {
  for (const theme of ['light', 'dark']) {
    await page.evaluate((t) => (document.documentElement.dataset.theme = t), theme);
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: 800 });
      await shot(page, `${name}-${theme}-${width}`);
    }
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

describe('locales in the browser', () => {
  test("Chromium's plural categories are the ones each catalogue provides", async () => {
    const { context, page } = await newPage(browser);
    await page.goto(`${server.url}/login`);
    const tags = LOCALE_INFO.map((l) => l.tag);
    const inBrowser = await page.evaluate((ts) => Object.fromEntries(ts.map((t) => [t, new Intl.PluralRules(t).resolvedOptions().pluralCategories.sort()])), tags);
    for (const l of LOCALE_INFO) {
      const forms = Object.keys(readCatalogue(l.code)).filter((k) => k.startsWith('files.items_')).map((k) => pluralParts(k).form!).sort();
      expect({ tag: l.tag, forms }).toEqual({ tag: l.tag, forms: inBrowser[l.tag]! });
    }
    expect(catalogueFiles()).toHaveLength(33);
    await context.close();
  });

  test('the login page follows the browser language: fa-IR is Persian, right to left; el-GR is Greek', async () => {
    for (const [browserLang, tag, dirn, name] of [['fa-IR', 'fa', 'rtl', 'locale-fa-login'], ['el-GR', 'el', 'ltr', 'locale-el-login']] as const) {
      const context = await browser.newContext({ locale: browserLang, viewport: { width: 1280, height: 800 } });
      const page = await context.newPage();
      await page.goto(`${server.url}/login`);
      await page.waitForFunction((t) => document.documentElement.lang === t, tag);
      expect(await docLang(page)).toEqual({ lang: tag, dir: dirn });
      const title = await page.locator('h1').first().textContent();
      expect(title).toBe(readCatalogue(tag)['login.signInTitle']!);
      await shots(page, name);
      await context.close();
    }
  });

  test('switching to fa in the profile: lang="fa" dir="rtl", Persian digits from Intl, options tagged with BCP 47', async () => {
    await storeLocale('en');
    const { context, page } = await newPage(browser);
    await openListing(page);
    await page.goto(`${server.url}/settings/profile`);
    await page.waitForSelector('select[name=locale]');
    const tagsOfOptions = await page.locator('select[name=locale] option').evaluateAll((els) => Object.fromEntries(els.map((e) => [(e as HTMLOptionElement).value, e.getAttribute('lang')])));
    expect(Object.keys(tagsOfOptions)).toHaveLength(33);
    expect(tagsOfOptions).toMatchObject({ ua: 'uk', no: 'nb', pt: 'pt-PT', 'pt-br': 'pt-BR', 'zh-tw': 'zh-TW', fa: 'fa', el: 'el' });

    await page.selectOption('select[name=locale]', 'fa');
    await page.click('[data-testid=profile-save]');
    await page.waitForFunction(() => document.documentElement.dir === 'rtl' && document.documentElement.lang === 'fa');
    expect(await page.evaluate(() => document.body.classList.contains('rtl'))).toBe(true);

    await page.goto(`${server.url}/files/`);
    await page.waitForSelector('[data-testid=item]');
    expect(await docLang(page)).toEqual({ lang: 'fa', dir: 'rtl' });
    // The 1.2 MB file's size is formatted by Intl for "fa": Persian digits, not "1.2".
    const row = page.locator('[data-testid=item][data-name="report 2024 Q1.pdf"]');
    expect(await row.textContent()).toMatch(/[۰-۹]/);
    await shots(page, 'locale-fa-listing');
    await context.close();
  });

  test('Greek listing: lang="el", Greek labels', async () => {
    expect(await storeLocale('el')).toBe('el');
    const { context, page } = await newPage(browser);
    await openListing(page);
    await page.waitForFunction(() => document.documentElement.lang === 'el');
    expect(await docLang(page)).toEqual({ lang: 'el', dir: 'ltr' });
    expect(await page.locator('body').textContent()).toContain(readCatalogue('el')['sidebar.myFiles']!);
    await shots(page, 'locale-el-listing');
    await context.close();
  });

  test('Ukrainian: stored as "ua" (the reference code) whether sent as ua or uk, shown with lang="uk"', async () => {
    for (const sent of ['ua', 'uk']) {
      expect(await storeLocale(sent)).toBe('ua');
      const { context, page } = await newPage(browser);
      await openListing(page);
      await page.waitForFunction(() => document.documentElement.lang === 'uk');
      expect(await docLang(page)).toEqual({ lang: 'uk', dir: 'ltr' });
      expect(await page.locator('body').textContent()).toContain(readCatalogue('ua')['sidebar.myFiles']!);
      await context.close();
    }
    await storeLocale('en');
  });
});
