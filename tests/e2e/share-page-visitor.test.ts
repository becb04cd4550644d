import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { startServer, type RunningServer } from '../helpers/binary';
import { expectAccessible } from './axe';
import { launch, newPage, shot } from './browser';

// The share page as a visitor meets it (issue 37 item 5): its own frame, the gallery and slideshow, inline viewers,
// the password card and ended links, at 1280 and 375 px, light and dark, and in Arabic (right to left).
const dir = mkdtempSync(join(tmpdir(), 'filedeck-e2e-visitor-'));
const root = join(dir, 'files');
const ADMIN_PW = 'e2e-admin-password-7702';
let server: RunningServer;
let browser: Browser;
let adminToken = '';

const { Transformer } = require('@napi-rs/image') as typeof import('@napi-rs/image');

/** A one-page PDF with a line of text; the cross-reference offsets are counted, so viewers need no repair. */
function tinyPdf(text: string): Buffer {
  const objs = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 200] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${`BT /F1 18 Tf 30 100 Td (${text}) Tj ET`.length} >>\nstream\nBT /F1 18 Tf 30 100 Td (${text}) Tj ET\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objs.forEach((o, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objs.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  out += `trailer\n<< /Size ${objs.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

async function png(r: number, g: number, b: number, w = 160, h = 120): Promise<Buffer> {
  const px = new Uint8Array(w * h * 4);
  for (let i = 0; i < w * h; i++) px.set([(r + (i % w)) % 256, (g + Math.floor(i / w)) % 256, b, 255], i * 4);
  return Transformer.fromRgbaPixels(px, w, h).png();
}

beforeAll(async () => {
  mkdirSync(join(root, 'Photos'), { recursive: true });
  mkdirSync(join(root, 'Docs'), { recursive: true });
  writeFileSync(join(root, 'Photos', 'a-sunrise.png'), await png(200, 80, 40));
  writeFileSync(join(root, 'Photos', 'b-forest.png'), await png(20, 160, 60));
  writeFileSync(join(root, 'Photos', 'c-lake.png'), await png(30, 90, 200));
  writeFileSync(join(root, 'Docs', 'guide.pdf'), tinyPdf('Shared guide'));
  writeFileSync(join(root, 'Docs', 'notes.md'), '# Trip notes\n\n- bring a **map**\n- water\n\n![the route](route.png)\n\n[Packing list](packing.md)\n');
  writeFileSync(join(root, 'Docs', 'packing.md'), '# Packing list\n\nBoots.\n\n[Back to the notes](notes.md)\n');
  writeFileSync(join(root, 'Docs', 'route.png'), await png(90, 90, 90, 80, 60));
  writeFileSync(join(root, 'Docs', 'clip.vtt'), 'WEBVTT\n\n00:00.000 --> 00:01.000\nHello there\n');
  const ff = Bun.spawnSync(['ffmpeg', '-loglevel', 'error', '-f', 'lavfi', '-i', 'testsrc=size=160x120:rate=10:duration=1', '-c:v', 'libvpx', '-b:v', '100k', join(root, 'Docs', 'clip.webm')]);
  expect(ff.exitCode).toBe(0);
  const tone = Bun.spawnSync(['ffmpeg', '-loglevel', 'error', '-f', 'lavfi', '-i', 'sine=frequency=440:duration=1', '-c:a', 'libvorbis', join(root, 'Docs', 'tone.ogg')]);
  expect(tone.exitCode).toBe(0);
  writeFileSync(join(root, 'guide.pdf'), tinyPdf('A file link'));
  server = await startServer(['-d', join(dir, 'filedeck.db'), '-r', root, '--password', ADMIN_PW, '--log', ''], { cwd: dir });
  const res = await fetch(`${server.url}/api/login`, { method: 'POST', body: JSON.stringify({ username: 'admin', password: ADMIN_PW }) });
  adminToken = await res.text();
  browser = await launch();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function share(path: string, body: Record<string, unknown> = {}): Promise<{ hash: string }> {
  const res = await fetch(`${server.url}/api/share${path}`, { method: 'POST', headers: { 'X-Auth': adminToken }, body: JSON.stringify(body) });
  expect(res.status).toBe(200);
  return res.json() as Promise<{ hash: string }>;
}

const fitsWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
const slideIndex = async (page: Page) => Number(await page.getAttribute('[data-testid=share-slideshow]', 'data-index'));

describe('the visitor share page', () => {
  test('no app sidebar or Login link: a slim header with the branding and the shared item', async () => {
    const { hash } = await share('/Photos');
    const { context, page } = await newPage(browser);
    await page.goto(`${server.url}/share/${hash}`);
    await page.waitForSelector('[data-testid=share-header]');
    expect(await page.locator('.sidebar, nav.nav, [data-testid=login]').count()).toBe(0);
    expect(await page.locator('a[href$="/login"]').count()).toBe(0);
    expect(await page.textContent('[data-testid=share-header] .brand__name')).toBe('Filedeck');
    expect(await page.textContent('[data-testid=share-header-item]')).toContain('Photos');
    await context.close();
  }, 30_000);

  test('a picture folder opens as a grid of thumbnails; the slideshow steps, plays, pauses and closes with Esc', async () => {
    const { hash } = await share('/Photos');
    const { context, page } = await newPage(browser);
    const asked: string[] = [];
    page.on('request', (r) => void asked.push(r.url()));
    await page.goto(`${server.url}/share/${hash}`);
    await page.waitForSelector('[data-testid=share-gallery]');
    expect(await page.getAttribute('[data-testid=share-folder]', 'data-view')).toBe('grid');
    expect(await page.locator('[data-testid=share-tile]').count()).toBe(3);
    // Tiles ask the link's thumbnail route, never the image itself.
    const thumb = page.locator('[data-name="b-forest.png"] img.share-tile__thumb');
    expect(await thumb.getAttribute('src')).toMatch(new RegExp(`^${server.url}/api/public/preview/thumb/${hash}/b-forest\\.png\\?key=\\d+$`));
    await page.waitForFunction(() => Array.from(document.querySelectorAll<HTMLImageElement>('img.share-tile__thumb')).every((i) => i.complete && i.naturalWidth > 0));
    const images = asked.filter((u) => /\.png(\?|$)/.test(u));
    expect(images.filter((u) => u.includes(`/api/public/preview/thumb/${hash}/`)).length).toBe(3);
    expect(images.filter((u) => u.includes('/api/public/dl/'))).toEqual([]);
    await shot(page, 'share-visitor-gallery');
    await expectAccessible(page, 'share page gallery');

    // a tile's checkbox selects it for the download
    await page.check('[data-name="c-lake.png"] [data-testid=share-tile-check]');
    expect(await page.textContent('[data-testid=share-download]')).toContain('Download 1 selected');
    expect(await page.getAttribute('[data-testid=share-download]', 'href')).toBe(`${server.url}/api/public/dl/${hash}?files=${encodeURIComponent('/c-lake.png')}&algo=zip`);

    await page.click('[data-name="b-forest.png"] [data-testid=share-tile-open]');
    await page.waitForSelector('[data-testid=share-slideshow]');
    expect(await slideIndex(page)).toBe(1);
    expect(await page.textContent('[data-testid=share-slide-name]')).toBe('b-forest.png');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('share-slide-close');
    expect(await page.getAttribute('.share-layout', 'inert')).toBe(''); // the page beneath takes no focus or clicks
    // The slideshow shows the big preview, as the signed-in viewer does.
    expect(await page.getAttribute('[data-testid=share-slide-image]', 'src')).toContain(`/api/public/preview/big/${hash}/b-forest.png?key=`);
    await page.waitForFunction(() => (document.querySelector('[data-testid=share-slide-image]') as HTMLImageElement | null)?.naturalWidth === 160);
    await shot(page, 'share-visitor-slideshow');
    await expectAccessible(page, 'slideshow');
    await page.keyboard.press('ArrowRight');
    expect(await slideIndex(page)).toBe(2);
    await page.click('[data-testid=share-slide-next]');
    expect(await slideIndex(page)).toBe(0); // wraps around
    await page.keyboard.press('ArrowLeft');
    expect(await slideIndex(page)).toBe(2);
    await page.click('[data-testid=share-slide-prev]');
    expect(await slideIndex(page)).toBe(1);

    // play at the shortest interval: it moves on by itself, and pausing stops it
    await page.selectOption('[data-testid=share-slide-interval]', '3');
    await page.click('[data-testid=share-slide-play]');
    expect(await page.getAttribute('[data-testid=share-slideshow]', 'data-playing')).toBe('true');
    await page.waitForFunction(() => document.querySelector('[data-testid=share-slideshow]')?.getAttribute('data-index') === '2', undefined, { timeout: 8000 });
    await page.click('[data-testid=share-slide-play]');
    expect(await page.getAttribute('[data-testid=share-slideshow]', 'data-playing')).toBe('false');
    await Bun.sleep(3500);
    expect(await slideIndex(page)).toBe(2);

    // a touch swipe towards the start asks for the next picture
    await page.evaluate(() => {
      const stage = document.querySelector('.share-slides__stage')!;
      const at = (type: string, x: number) => stage.dispatchEvent(new PointerEvent(type, { pointerType: 'touch', pointerId: 7, isPrimary: true, clientX: x, clientY: 300, bubbles: true }));
      at('pointerdown', 600);
      at('pointerup', 400);
    });
    expect(await slideIndex(page)).toBe(0);

    await page.keyboard.press('Escape');
    await page.waitForSelector('[data-testid=share-slideshow]', { state: 'detached' });
    expect(await page.locator('[data-testid=share-tile][data-selected=true]').count()).toBe(1); // Esc closed only the slideshow
    expect(await page.getAttribute('.share-layout', 'inert')).toBeNull();
    expect(await page.evaluate(() => document.activeElement?.closest('[data-testid=share-tile]')?.getAttribute('data-name'))).toBe('b-forest.png');
    await page.click('[data-testid=share-view-list]');
    await page.waitForSelector('[data-testid=share-items]');
    await context.close();
  }, 60_000);

  test('inline viewers: a PDF in the browser viewer, Markdown rendered, a video with its subtitles, audio', async () => {
    const { hash } = await share('/Docs');
    const { context, page } = await newPage(browser);
    await page.goto(`${server.url}/share/${hash}`);
    await page.waitForSelector('[data-testid=share-items]');

    await page.click('[data-name="guide.pdf"] [data-testid=share-item-preview]');
    await page.waitForSelector('[data-testid=share-viewer-dialog] [data-testid=share-pdf]');
    const pdfSrc = await page.getAttribute('[data-testid=share-pdf]', 'src');
    expect(pdfSrc).toBe(`${server.url}/api/public/dl/${hash}/guide.pdf?inline=true`);
    const pdf = await fetch(pdfSrc!);
    expect(pdf.headers.get('content-type')).toContain('application/pdf');
    expect(pdf.headers.get('content-disposition') ?? 'inline').toStartWith('inline');
    expect((await pdf.text()).startsWith('%PDF-1.4')).toBe(true);
    await shot(page, 'share-visitor-pdf');
    await expectAccessible(page, 'PDF viewer');
    await page.keyboard.press('Escape');
    await page.waitForSelector('[data-testid=share-viewer-dialog]', { state: 'detached' });

    await page.click('[data-name="notes.md"] [data-testid=share-item-preview]');
    await page.waitForSelector('[data-testid=share-viewer-dialog] [data-testid=markdown] h1');
    expect(await page.textContent('[data-testid=markdown] h1')).toBe('Trip notes');
    expect(await page.textContent('[data-testid=markdown] strong')).toBe('map');
    // its relative picture loads through the share, its relative link stays inside the share
    expect(await page.getAttribute('[data-testid=markdown] img', 'src')).toBe(`${server.url}/api/public/dl/${hash}/route.png?inline=true`);
    await page.waitForFunction(() => (document.querySelector('[data-testid=markdown] img') as HTMLImageElement | null)?.naturalWidth === 80);
    expect(await page.getAttribute('[data-testid=markdown] a', 'href')).toBe(`/share/${hash}/packing.md`);
    await shot(page, 'share-visitor-markdown');
    await page.click('[data-testid=markdown] a');
    await page.waitForURL(`${server.url}/share/${hash}/packing.md`);
    await page.waitForSelector('[data-testid=share-viewer] [data-testid=markdown] h1');
    expect(await page.textContent('[data-testid=share-viewer] [data-testid=markdown] h1')).toBe('Packing list');
    await page.click('[data-testid=share-viewer] [data-testid=markdown] a'); // from one shared file to another
    await page.waitForURL(`${server.url}/share/${hash}/notes.md`);
    await page.waitForFunction(() => document.querySelector('[data-testid=share-viewer] [data-testid=markdown] h1')?.textContent === 'Trip notes');
    await page.goBack();
    await page.goBack();
    await page.waitForSelector('[data-testid=share-items]');

    await page.click('[data-name="clip.webm"] [data-testid=share-item-preview]');
    await page.waitForSelector('[data-testid=share-video]');
    const track = await page.getAttribute('[data-testid=share-video] track', 'src');
    expect(track).toBe(`${server.url}/api/public/subtitle/${hash}/clip.vtt`);
    expect((await (await fetch(track!)).text()).startsWith('WEBVTT')).toBe(true);
    await page.waitForFunction(() => (document.querySelector('[data-testid=share-video]') as HTMLVideoElement | null)?.readyState! >= 1, undefined, { timeout: 10_000 });
    await page.keyboard.press('Escape');
    await page.waitForSelector('[data-testid=share-viewer-dialog]', { state: 'detached' });

    await page.click('[data-name="tone.ogg"] [data-testid=share-item-preview]');
    await page.waitForSelector('[data-testid=share-audio]');
    expect(await page.getAttribute('[data-testid=share-audio]', 'src')).toBe(`${server.url}/api/public/dl/${hash}/tone.ogg?inline=true`);
    await page.waitForFunction(() => (document.querySelector('[data-testid=share-audio]') as HTMLAudioElement | null)?.readyState! >= 1, undefined, { timeout: 10_000 });
    await page.keyboard.press('Escape');
    await context.close();
  }, 60_000);

  test('a PDF file link shows the PDF inline beside its download box', async () => {
    const { hash } = await share('/guide.pdf');
    const { context, page } = await newPage(browser);
    await page.goto(`${server.url}/share/${hash}`);
    await page.waitForSelector('[data-testid=share-pdf]');
    expect(await page.getAttribute('[data-testid=share-pdf]', 'src')).toBe(`${server.url}/api/public/dl/${hash}?inline=true`);
    await shot(page, 'share-visitor-pdf-link');
    await context.close();
  }, 30_000);

  test('dark at 375 px: the page follows the colour scheme and fits, gallery and slideshow included', async () => {
    const { hash } = await share('/Photos');
    const { context, page } = await newPage(browser, { width: 375, height: 740 });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto(`${server.url}/share/${hash}`);
    await page.waitForSelector('[data-testid=share-gallery]');
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    const bg = await page.evaluate(() => getComputedStyle(document.querySelector('.share-header')!).backgroundColor);
    const [r, g, b] = bg.match(/\d+/g)!.map(Number);
    expect(r! + g! + b!).toBeLessThan(200); // a dark surface
    expect(await fitsWidth(page)).toBe(true);
    await page.waitForFunction(() => Array.from(document.querySelectorAll<HTMLImageElement>('img.share-tile__thumb')).every((i) => i.complete));
    await shot(page, 'share-visitor-gallery-375-dark');
    await expectAccessible(page, 'dark gallery at 375 px');
    await page.click('[data-testid=share-slideshow-start]');
    await page.waitForSelector('[data-testid=share-slideshow]');
    expect(await fitsWidth(page)).toBe(true);
    await shot(page, 'share-visitor-slideshow-375-dark', { fullPage: false });
    // a light visitor gets the light page, live
    await page.emulateMedia({ colorScheme: 'light' });
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'light');
    await context.close();
  }, 60_000);

  test('in Arabic the page is right to left and the arrow keys follow the reading direction', async () => {
    const { hash } = await share('/Photos');
    const { context, page } = await newPage(browser, { locale: 'ar' });
    await page.goto(`${server.url}/share/${hash}`);
    await page.waitForSelector('[data-testid=share-gallery]');
    expect(await page.evaluate(() => document.documentElement.dir)).toBe('rtl');
    expect(await page.textContent('[data-testid=share-slideshow-start]')).toContain('عرض الشرائح');
    await shot(page, 'share-visitor-gallery-ar');
    await expectAccessible(page, 'Arabic gallery');
    await page.click('[data-testid=share-slideshow-start]');
    await page.waitForSelector('[data-testid=share-slideshow]');
    await page.keyboard.press('ArrowLeft'); // forward in right-to-left reading
    expect(await slideIndex(page)).toBe(1);
    await page.keyboard.press('ArrowRight');
    expect(await slideIndex(page)).toBe(0);
    await shot(page, 'share-visitor-slideshow-ar', { fullPage: false });
    await context.close();
  }, 60_000);

  test('the password card, light at 1280 and dark at 375 px, then the folder', async () => {
    const { hash } = await share('/Photos', { password: 'lantern 42' });
    for (const [width, scheme] of [[1280, 'light'], [375, 'dark']] as const) {
      const { context, page } = await newPage(browser, { width, height: 760 });
      await page.emulateMedia({ colorScheme: scheme });
      await page.goto(`${server.url}/share/${hash}`);
      await page.waitForSelector('[data-testid=share-password]');
      await expectAccessible(page, `password card ${width} ${scheme}`);
      await page.fill('input[name=share-password]', 'wrong');
      await page.click('[data-testid=share-password] button[type=submit]');
      await page.waitForSelector('[data-testid=share-password-error]');
      expect(await fitsWidth(page)).toBe(true);
      await shot(page, `share-visitor-password-${width}-${scheme}`);
      await page.fill('input[name=share-password]', 'lantern 42');
      await page.click('[data-testid=share-password] button[type=submit]');
      await page.waitForSelector('[data-testid=share-gallery]');
      const src = await page.getAttribute('[data-name="a-sunrise.png"] img.share-tile__thumb', 'src');
      expect(new URL(src!).searchParams.get('token')?.length).toBeGreaterThan(20);
      expect((await fetch(src!)).status).toBe(200);
      await context.close();
    }
  }, 60_000);

  test('ended links say why: switched off, used up, unknown', async () => {
    const off = await share('/Photos');
    const patched = await fetch(`${server.url}/api/share/${off.hash}`, { method: 'PATCH', headers: { 'X-Auth': adminToken }, body: JSON.stringify({ disabled: true }) });
    expect(patched.status).toBe(200);
    const once = await share('/guide.pdf', { maxDownloads: 1 });
    expect((await fetch(`${server.url}/api/public/dl/${once.hash}`)).status).toBe(200);
    const { context, page } = await newPage(browser);
    await page.goto(`${server.url}/share/${off.hash}`);
    await page.waitForSelector('[data-testid=share-status][data-state=disabled]');
    expect(await page.textContent('[data-testid=share-status]')).toContain('Link switched off');
    await shot(page, 'share-visitor-disabled');
    await expectAccessible(page, 'disabled link');
    await page.goto(`${server.url}/share/${once.hash}`);
    await page.waitForSelector('[data-testid=share-status][data-status="404"]');
    expect(await page.textContent('[data-testid=share-status]')).toContain('Link not found');
    await page.goto(`${server.url}/share/nothing-here`);
    await page.waitForSelector('[data-testid=share-status][data-state=missing]');
    await context.close();
  }, 30_000);

  // Last: it changes the instance's branding for every later page.
  test("the owner's branding: its name, its colour, and a theme it forces over the visitor's preference", async () => {
    const current = (await (await fetch(`${server.url}/api/settings`, { headers: { 'X-Auth': adminToken } })).json()) as { branding: Record<string, unknown> };
    const body = { ...current, branding: { ...current.branding, name: 'Acme Files', color: '#f48fb1', theme: 'dark' } };
    const put = await fetch(`${server.url}/api/settings`, { method: 'PUT', headers: { 'X-Auth': adminToken }, body: JSON.stringify(body) });
    expect(put.status).toBeLessThan(300);
    const { hash } = await share('/Photos');
    const { context, page } = await newPage(browser);
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto(`${server.url}/share/${hash}`);
    await page.waitForSelector('[data-testid=share-gallery]');
    expect(await page.textContent('[data-testid=share-header] .brand__name')).toBe('Acme Files');
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    expect(await page.evaluate(() => getComputedStyle(document.querySelector('.share-header')!).borderTopColor)).toBe('rgb(244, 143, 177)');
    expect(await page.title()).toContain('Acme Files');
    await shot(page, 'share-visitor-branding');
    await expectAccessible(page, 'branded share page');
    await context.close();
  }, 30_000);
});
