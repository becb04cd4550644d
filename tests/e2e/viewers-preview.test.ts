import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { RunningServer } from '../helpers/binary';
import { closeSession, openSession, shot, workspace, type Session } from './browser';
import { jpeg, listing, pdf, png, put, tiff, wav } from './viewers-fixture';

// The previewer and image viewer (spec §2 Previewer, Image viewer; §4 Preview) in Debian's Chromium.
const ws = workspace('filedeck-viewers-preview-');
const { root } = ws;
const PW = 'viewers-admin-password-51';
let server: RunningServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let session: Session | undefined;

beforeAll(async () => {
  put(root, 'Gallery/a sunset #1.png', await png(1600, 1000));
  put(root, 'Gallery/b-forest.jpg', await jpeg(900, 600));
  put(root, 'Gallery/c-scan.tiff', await tiff(320, 200));
  put(root, 'Gallery/d-song.wav', wav(1.5));
  put(root, 'Gallery/e-report.pdf', pdf('Hello from the previewer test'));
  put(root, 'Gallery/f-data.bin', new Uint8Array([0, 1, 2, 3, 255, 254, 0, 0, 7]));
  put(root, 'Gallery/g-notes.txt', 'text is not previewed');
  put(root, 'Gallery/h-last.png', await png(300, 300, [120, 220, 255]));
  session = await openSession(ws, PW);
  ({ server, browser, context, page } = session);
});
afterAll(() => closeSession(ws, session));

const at = (name: string) => `${server.url}/files/Gallery/${encodeURIComponent(name)}`;

async function open(name: string): Promise<void> {
  await page.goto(at(name));
  await page.waitForSelector(`[data-testid=previewer] [data-testid=preview-name]:text-is("${name}")`);
}

describe('previewer', () => {
  test('an image shows the resized preview, switches to the original, and zooms 1-2-4-1 by double click', async () => {
    await open('a sunset #1.png');
    const img = page.locator('[data-testid=preview-image]');
    await img.waitFor();
    expect(await img.getAttribute('src')).toContain('/api/preview/big/Gallery/a%20sunset%20%231.png?inline=true&key=');
    await page.waitForFunction(() => (document.querySelector('[data-testid=preview-image]') as HTMLImageElement | null)?.naturalWidth === 1080);
    // the header offers the permitted actions
    for (const id of ['preview-close', 'preview-rename', 'preview-delete', 'preview-download', 'preview-info', 'preview-resize']) expect(await page.locator(`[data-testid=${id}]`).count()).toBe(1);
    expect(await page.getAttribute('[data-testid=preview-download]', 'href')).toBe('/api/raw/Gallery/a%20sunset%20%231.png');
    await shot(page, 'viewers-image');

    await page.click('[data-testid=preview-resize]');
    await page.waitForFunction(() => (document.querySelector('[data-testid=preview-image]') as HTMLImageElement | null)?.naturalWidth === 1600);
    expect(await img.getAttribute('src')).toBe('/api/raw/Gallery/a%20sunset%20%231.png?inline=true');
    expect(await page.getAttribute('[data-testid=preview-resize]', 'aria-pressed')).toBe('true');

    const surface = page.locator('[data-testid=zoom-surface]');
    expect(await surface.getAttribute('data-zoom')).toBe('1');
    await surface.dblclick({ position: { x: 640, y: 380 } });
    expect(await surface.getAttribute('data-zoom')).toBe('2');
    await surface.dblclick({ position: { x: 640, y: 380 } });
    expect(await surface.getAttribute('data-zoom')).toBe('4');
    await shot(page, 'viewers-image-zoom4');
    await surface.dblclick({ position: { x: 640, y: 380 } });
    expect(await surface.getAttribute('data-zoom')).toBe('1');

    // the wheel zooms by 0.25 steps and never below 0.25
    await page.mouse.move(640, 400);
    await page.mouse.wheel(0, -100);
    await page.waitForFunction(() => document.querySelector('[data-testid=zoom-surface]')?.getAttribute('data-zoom') === '1.25');
    for (let i = 0; i < 8; i++) await page.mouse.wheel(0, 100);
    await page.waitForFunction(() => document.querySelector('[data-testid=zoom-surface]')?.getAttribute('data-zoom') === '0.25');
    await page.click('[data-testid=preview-resize]'); // back to the resized preview for the next tests
  });

  test('previous and next step through media and blobs only, by keys and by the buttons that appear on movement', async () => {
    const items = await listing(page, server.url, '/Gallery/');
    const navigable = items.filter((i) => ['image', 'audio', 'video', 'blob'].includes(i.type)).map((i) => i.name);
    expect(navigable).not.toContain('e-report.pdf');
    expect(navigable).not.toContain('g-notes.txt');
    const first = navigable[0]!;
    await open(first);
    const seen = [first];
    for (let i = 1; i < navigable.length; i++) {
      await page.waitForSelector('[data-testid=preview-next]', { state: 'attached' }); // the siblings are known
      await page.keyboard.press(i % 2 ? 'ArrowRight' : 'Enter');
      await page.waitForSelector(`[data-testid=preview-name]:text-is("${navigable[i]}")`);
      seen.push(navigable[i]!);
    }
    expect(seen).toEqual(navigable);
    await page.waitForSelector('[data-testid=preview-prev]', { state: 'attached' });
    expect(await page.locator('[data-testid=preview-next]').count()).toBe(0); // the last one has no next
    await page.keyboard.press('ArrowLeft');
    await page.waitForSelector(`[data-testid=preview-name]:text-is("${navigable[navigable.length - 2]}")`);
    expect(decodeURIComponent(new URL(page.url()).pathname)).toBe(`/files/Gallery/${navigable[navigable.length - 2]}`);

    // the buttons show after movement and hide again after a quiet spell
    const prev = page.locator('[data-testid=preview-prev]');
    await page.mouse.move(300, 300);
    await page.mouse.move(320, 330);
    await page.waitForFunction(() => document.querySelector('[data-testid=preview-prev]')?.getAttribute('data-visible') === 'true');
    await page.waitForFunction(() => document.querySelector('[data-testid=preview-prev]')?.getAttribute('data-visible') === 'false', null, { timeout: 5000 });
    await page.mouse.move(500, 400);
    await page.mouse.move(520, 420);
    await page.waitForSelector('[data-testid=preview-prev][data-visible=true]');
    await prev.click();
    await page.waitForSelector(`[data-testid=preview-name]:text-is("${navigable[navigable.length - 3]}")`);
  });

  test('a TIFF is decoded in the browser into a canvas', async () => {
    await open('c-scan.tiff');
    const canvas = page.locator('[data-testid=preview-canvas][data-status=done]');
    await canvas.waitFor();
    expect(await canvas.evaluate((c: HTMLCanvasElement) => [c.width, c.height])).toEqual([320, 200]);
    // a pixel inside the frame is the gradient, not black: the pixels really were decoded
    const pixel = await canvas.evaluate((c: HTMLCanvasElement) => Array.from(c.getContext('2d')!.getImageData(300, 180, 1, 1).data));
    expect(pixel[0]!).toBeGreaterThan(150);
    expect(pixel[3]).toBe(255);
    await shot(page, 'viewers-tiff');
  });

  test('audio plays in an <audio> element and a PDF in the browser viewer', async () => {
    await open('d-song.wav');
    const audio = page.locator('[data-testid=preview-audio]');
    expect(await audio.getAttribute('src')).toBe('/api/raw/Gallery/d-song.wav?inline=true');
    await page.waitForFunction(() => ((document.querySelector('[data-testid=preview-audio]') as HTMLAudioElement | null)?.duration ?? 0) > 1.4);
    await shot(page, 'viewers-audio');

    const pdfLoaded = page.waitForResponse((r) => r.url().endsWith('/api/raw/Gallery/e-report.pdf?inline=true') && r.status() === 200);
    await open('e-report.pdf');
    expect(await page.getAttribute('[data-testid=preview-pdf]', 'src')).toBe('/api/raw/Gallery/e-report.pdf?inline=true');
    expect((await pdfLoaded).headers()['content-type']).toBe('application/pdf');
    await shot(page, 'viewers-pdf');
  });

  test('a video plays with its subtitle files as tracks (SubRip converted to WebVTT)', async () => {
    // Chromium records a short WebM from a canvas; the server then finds the subtitles named after it.
    const webm = await page.evaluate(async () => {
      const canvas = document.createElement('canvas');
      canvas.width = 160;
      canvas.height = 90;
      const ctx = canvas.getContext('2d')!;
      const rec = new MediaRecorder(canvas.captureStream(10), { mimeType: 'video/webm' });
      const chunks: Blob[] = [];
      rec.ondataavailable = (e) => chunks.push(e.data);
      const done = new Promise((resolve) => (rec.onstop = resolve));
      rec.start();
      for (let i = 0; i < 10; i++) {
        ctx.fillStyle = `hsl(${i * 36} 70% 50%)`;
        ctx.fillRect(0, 0, 160, 90);
        await new Promise((r) => setTimeout(r, 60));
      }
      rec.stop();
      await done;
      const bytes = new Uint8Array(await new Blob(chunks).arrayBuffer());
      let bin = '';
      for (const b of bytes) bin += String.fromCharCode(b);
      return btoa(bin);
    });
    put(root, 'Movies/clip.webm', Buffer.from(webm, 'base64'));
    put(root, 'Movies/clip.en.vtt', 'WEBVTT\n\n00:00:00.000 --> 00:00:05.000\nHello in WebVTT\n');
    put(root, 'Movies/clip.fr.srt', '1\n00:00:00,000 --> 00:00:05,000\nBonjour<br>en SubRip\n');
    await page.goto(`${server.url}/files/Movies/clip.webm`);
    const video = page.locator('[data-testid=preview-video]');
    await video.waitFor();
    expect(await video.getAttribute('src')).toBe('/api/raw/Movies/clip.webm?inline=true');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=preview-video] track').length === 2);
    const tracks = await page.locator('[data-testid=preview-video] track').evaluateAll((els) =>
      els.map((e) => ({ label: e.getAttribute('label'), src: e.getAttribute('src') })),
    );
    // Every track through the reference's subtitle route: the server converts SubRip (and ASS) to WebVTT.
    expect(tracks.find((t) => t.label === 'clip.en.vtt')?.src).toBe('/api/subtitle/Movies/clip.en.vtt');
    expect(tracks.find((t) => t.label === 'clip.fr.srt')?.src).toBe('/api/subtitle/Movies/clip.fr.srt');
    // both tracks load their cues
    const cues = await page.evaluate(async () => {
      const v = document.querySelector('[data-testid=preview-video]') as HTMLVideoElement;
      const out: string[] = [];
      for (const t of Array.from(v.textTracks)) {
        t.mode = 'hidden';
        for (let i = 0; i < 50 && !(t.cues && t.cues.length); i++) await new Promise((r) => setTimeout(r, 100));
        out.push(((t.cues?.[0] as VTTCue | undefined)?.text ?? '') as string);
      }
      return out.sort();
    });
    expect(cues).toEqual(['Bonjour\nen SubRip', 'Hello in WebVTT']);
    await page.waitForFunction(() => ((document.querySelector('[data-testid=preview-video]') as HTMLVideoElement).readyState ?? 0) >= 1);
    await shot(page, 'viewers-video');
  });

  test('other files show the no-preview message with download and open links; Esc closes to the folder', async () => {
    await open('f-data.bin');
    await page.waitForSelector('[data-testid=preview-none]');
    expect(await page.textContent('[data-testid=preview-none]')).toContain('No preview is available for this file.');
    expect(await page.getAttribute('[data-testid=preview-none-download]', 'href')).toBe('/api/raw/Gallery/f-data.bin');
    expect(await page.getAttribute('[data-testid=preview-none-open]', 'href')).toBe('/api/raw/Gallery/f-data.bin?inline=true');
    await shot(page, 'viewers-no-preview');
    const download = page.waitForEvent('download');
    await page.click('[data-testid=preview-none-download]');
    expect((await download).suggestedFilename()).toBe('f-data.bin');

    await page.keyboard.press('Escape');
    await page.waitForURL(`${server.url}/files/Gallery/`);
    await page.waitForSelector('[data-testid=previewer]', { state: 'detached' });
  });

  test('at 375 px the previewer keeps its header and image inside the screen', async () => {
    await page.setViewportSize({ width: 375, height: 740 });
    await open('b-forest.jpg');
    await page.locator('[data-testid=preview-image]').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    const box = await page.locator('[data-testid=preview-image]').boundingBox();
    expect(box!.width).toBeLessThanOrEqual(375);
    await shot(page, 'viewers-image-375');
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  test('deleting from the preview moves to the next sibling (the files screen runs the delete prompt)', async () => {
    await open('h-last.png');
    const items = await listing(page, server.url, '/Gallery/');
    const navigable = items.filter((i) => ['image', 'audio', 'video', 'blob'].includes(i.type)).map((i) => i.name);
    const idx = navigable.indexOf('h-last.png');
    const expected = navigable[idx + 1] ?? navigable[idx - 1]!;
    await page.waitForSelector('[data-testid=preview-prev], [data-testid=preview-next]', { state: 'attached' });
    // The files screen confirms through its delete prompt (or natively), then calls afterPreviewDelete().
    const prompt = page.locator('[data-testid=prompt-delete]');
    const native = new Promise<void>((resolve) => page.once('dialog', (d) => void d.accept().then(resolve)));
    await page.click('[data-testid=preview-delete]');
    await Promise.race([native, prompt.waitFor().then(() => prompt.locator('button[type=submit]').click())]);
    await page.waitForSelector(`[data-testid=preview-name]:text-is("${expected}")`);
    expect(existsSync(join(root, 'Gallery/h-last.png'))).toBe(false);
  });
});
