import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { strToU8, zipSync } from 'fflate';
import type { Browser, Page } from 'playwright-core';
import { cli, type RunningServer } from '../helpers/binary';
import { closeSession, newPage, openSession, shot, workspace, type Session } from './browser';
import { login, pdf, png, put, wav } from './viewers-fixture';

// The rendered viewers (Markdown, CSV/TSV, JSON, EPUB, read-only code), PDF and video thumbnails and per-kind
// icons, in Debian's Chromium (issue 16 item 1).
const ws = workspace('filedeck-viewers-documents-');
const { db, root } = ws;
const PW = 'viewers-admin-password-53';
const READER_PW = 'viewers-reader-password-53';
let server: RunningServer;
let browser: Browser;
let page: Page;
let session: Session | undefined;

const README = `# Project notes

Some **bold** text and a [sibling](other%20file.md), an [outside link](https://example.com/x) and a [bad one](javascript:window.__mdHref=1).

![the picture](img/pic.png)

<script>window.__mdScript = 1</script>
<img src="nope.png" onerror="window.__mdOnerror = 1">
<a href="JaVaScRiPt:window.__mdHref=2">sneaky</a>

| a | b |
|---|---|
| 1 | 2 |
`;

const CSV = ['name,amount,city', 'pear,10,Oslo', 'apple,9,Lima', 'fig,100,Rome', 'date,25,Bern'].join('\n');
const JSON_DOC = JSON.stringify({ name: 'filedeck', version: 3, tags: ['a', 'b'], nested: { deeper: { leaf: 'hidden at first' } } });

/** A two-chapter EPUB whose first chapter carries a script and an onerror handler that must never run. */
function epub(): Uint8Array {
  const chapter = (n: number, body: string) => strToU8(`<?xml version="1.0" encoding="utf-8"?><html xmlns="http://www.w3.org/1999/xhtml"><head><title>Chapter ${n}</title></head><body>${body}</body></html>`);
  return zipSync({
    mimetype: [strToU8('application/epub+zip'), { level: 0 }],
    'META-INF/container.xml': strToU8('<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>'),
    'OEBPS/content.opf': strToU8('<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>Test Book</dc:title></metadata><manifest><item id="c1" href="text/one.xhtml" media-type="application/xhtml+xml"/><item id="c2" href="text/two.xhtml" media-type="application/xhtml+xml"/></manifest><spine><itemref idref="c1"/><itemref idref="c2"/></spine></package>'),
    'OEBPS/text/one.xhtml': chapter(1, '<h1>The First Chapter</h1><p>It begins.</p><script>window.__epubScript = 1</script><img src="missing.png" onerror="window.__epubOnerror = 1"/><p><a href="two.xhtml">to the second</a></p>'),
    'OEBPS/text/two.xhtml': chapter(2, '<h1>The Second Chapter</h1><p>It ends.</p>'),
  });
}

beforeAll(async () => {
  put(root, 'docs/readme.md', README);
  put(root, 'docs/other file.md', '# The other file\n');
  put(root, 'docs/img/pic.png', await png(120, 80));
  put(root, 'docs/data.csv', CSV);
  put(root, 'docs/data.tsv', 'k\tv\nb\t2\na\t1\n');
  put(root, 'docs/data.json', JSON_DOC);
  put(root, 'docs/app.ts', 'export function hello(name: string): string {\n  return `hi ${name}`;\n}\n');
  put(root, 'docs/book.epub', epub());
  put(root, 'media/report.pdf', pdf('Thumbnail page'));
  put(root, 'media/photo.png', await png(400, 300));
  const video = Bun.spawnSync(['ffmpeg', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=duration=2:size=320x240:rate=10', '-pix_fmt', 'yuv420p', join(root, 'media/clip.mp4')]);
  expect(video.exitCode).toBe(0);
  for (const [name, data] of [['a-notes.md', '# x'], ['b-sheet.csv', 'a,b'], ['c-code.js', 'let a'], ['d-pack.zip', 'PK'], ['f-log.txt', 'log'], ['g-paper.pdf', pdf('x')]] as const) put(root, `kinds/${name}`, data);
  put(root, 'kinds/e-song.wav', wav(0.2));
  put(root, 'kinds/h-folder/keep.txt', '');
  session = await openSession(ws, PW, [], async () => {
    expect((await cli(['-d', db, '-r', root, 'users', 'add', 'reader', READER_PW, '--perm.modify', 'false', '--perm.download', 'true'])).code).toBe(0);
  });
  ({ server, browser, page } = session);
});
afterAll(() => closeSession(ws, session));

/** Screenshots in light and dark at 1280 and 375 px. */
async function shots(p: Page, name: string): Promise<void> {
  for (const theme of ['light', 'dark']) {
    await p.evaluate((t) => (document.documentElement.dataset.theme = t), theme);
    for (const width of [1280, 375]) {
      await p.setViewportSize({ width, height: 800 });
      await shot(p, `${name}-${theme}-${width}`);
    }
  }
  await p.evaluate(() => delete document.documentElement.dataset.theme);
  await p.setViewportSize({ width: 1280, height: 800 });
}

const flags = (p: Page) => p.evaluate(() => {
  const w = window as unknown as Record<string, unknown>;
  return { script: w.__mdScript, onerror: w.__mdOnerror, href: w.__mdHref, epubScript: w.__epubScript, epubOnerror: w.__epubOnerror };
});

describe('document viewers', () => {
  test('Markdown is rendered and sanitised; links are safe; same-folder images load; Edit opens the editor', async () => {
    await page.goto(`${server.url}/files/docs/readme.md`);
    const md = page.locator('[data-testid=markdown]');
    await md.waitFor();
    expect(await md.locator('h1').textContent()).toBe('Project notes');
    expect(await md.locator('table td').count()).toBe(2);
    expect(await md.locator('script, [onerror]').count()).toBe(0);
    const ext = md.locator('a', { hasText: 'outside link' });
    expect(await ext.getAttribute('target')).toBe('_blank');
    expect(await ext.getAttribute('rel')).toBe('noopener noreferrer');
    for (const text of ['bad one', 'sneaky']) expect(await md.locator('a', { hasText: text }).getAttribute('href')).toBeNull();
    expect(await md.locator('a', { hasText: 'sibling' }).getAttribute('href')).toBe('/files/docs/other%20file.md');
    const img = md.locator('img[alt="the picture"]');
    expect(await img.getAttribute('src')).toBe('/api/raw/docs/img/pic.png?inline=true');
    await page.waitForFunction(() => (document.querySelector('[data-testid=markdown] img[alt="the picture"]') as HTMLImageElement | null)?.naturalWidth === 120);
    await md.locator('a', { hasText: 'bad one' }).click();
    await md.locator('a', { hasText: 'sneaky' }).click();
    await Bun.sleep(300);
    expect(await flags(page)).toMatchObject({ script: undefined, onerror: undefined, href: undefined });
    await shots(page, 'viewers-markdown');

    // a relative link opens the other file in the app
    await md.locator('a', { hasText: 'sibling' }).click();
    await page.waitForFunction(() => document.querySelector('[data-testid=markdown] h1')?.textContent === 'The other file');
    expect(new URL(page.url()).pathname).toBe('/files/docs/other%20file.md');

    await page.goto(`${server.url}/files/docs/readme.md`);
    await page.click('[data-testid=viewer-edit]');
    await page.waitForSelector('[data-testid=editor][data-readonly=false] [data-testid=editor-host][data-status=ready] .cm-content');
    expect(await page.textContent('.cm-content')).toContain('# Project notes');
    expect(await page.getAttribute('.cm-content', 'contenteditable')).toBe('true');
  });

  test('CSV is a table sorted by a header click (numbers as numbers, again to reverse); TSV splits on tabs', async () => {
    await page.goto(`${server.url}/files/docs/data.csv`);
    await page.waitForSelector('[data-testid=csv] tbody tr');
    const column = (i: number) => page.$$eval(`[data-testid=csv] tbody tr td:nth-child(${i})`, (tds) => tds.map((td) => td.textContent));
    expect(await column(1)).toEqual(['pear', 'apple', 'fig', 'date']);
    await page.locator('[data-testid=csv-sort]').nth(1).click();
    expect(await column(2)).toEqual(['9', '10', '25', '100']);
    expect(await page.getAttribute('th:nth-child(2)', 'aria-sort')).toBe('ascending');
    await page.locator('[data-testid=csv-sort]').nth(1).click();
    expect(await column(2)).toEqual(['100', '25', '10', '9']);
    await page.locator('[data-testid=csv-sort]').nth(0).click();
    expect(await column(1)).toEqual(['apple', 'date', 'fig', 'pear']);
    expect(await page.textContent('[data-testid=csv-note]')).toBe('4 rows');
    await shots(page, 'viewers-csv');

    await page.goto(`${server.url}/files/docs/data.tsv`);
    await page.waitForSelector('[data-testid=csv] tbody tr');
    await page.locator('[data-testid=csv-sort]').nth(0).click();
    expect(await column(1)).toEqual(['a', 'b']);
    expect(await column(2)).toEqual(['1', '2']);
  });

  test('JSON is pretty-printed; nodes collapse and expand', async () => {
    await page.goto(`${server.url}/files/docs/data.json`);
    const root = page.locator('[data-testid=json] > [data-testid=json-node]');
    await root.waitFor();
    expect(await page.textContent('[data-testid=json]')).toContain('"name": "filedeck"');
    // two levels open at first: "deeper" is closed, its leaf not drawn
    expect(await page.textContent('[data-testid=json]')).not.toContain('hidden at first');
    const deeper = page.locator('[data-testid=json-node]', { has: page.locator('.json__key', { hasText: '"deeper"' }) }).last();
    await deeper.locator('[data-testid=json-toggle]').first().click();
    expect(await page.textContent('[data-testid=json]')).toContain('"leaf": "hidden at first"');
    await shots(page, 'viewers-json');
    await root.locator('[data-testid=json-toggle]').first().click();
    expect(await root.getAttribute('data-open')).toBe('false');
    expect(await page.textContent('[data-testid=json]')).toContain('4 keys');
    expect(await page.textContent('[data-testid=json]')).not.toContain('"version"');
    await root.locator('[data-testid=json-toggle]').first().click();
    expect(await page.textContent('[data-testid=json]')).toContain('"version": 3');
  });

  test('an EPUB opens its first chapter with scripts disabled, and moves between chapters', async () => {
    await page.goto(`${server.url}/files/docs/book.epub`);
    const chapter = page.locator('[data-testid=epub-page]');
    await page.waitForFunction(() => document.querySelector('[data-testid=epub-page] h1')?.textContent === 'The First Chapter');
    expect(await chapter.locator('script, [onerror]').count()).toBe(0);
    expect(await page.$$eval('[data-testid=epub-toc] option', (os) => os.map((o) => o.textContent))).toEqual(['The First Chapter', 'The Second Chapter']);
    await shots(page, 'viewers-epub');
    await chapter.locator('a', { hasText: 'to the second' }).click();
    await page.waitForFunction(() => document.querySelector('[data-testid=epub-page] h1')?.textContent === 'The Second Chapter');
    await page.click('[data-testid=epub-prev]');
    await page.waitForFunction(() => document.querySelector('[data-testid=epub-page] h1')?.textContent === 'The First Chapter');
    await page.click('[data-testid=epub-next]');
    await page.waitForFunction(() => document.querySelector('[data-testid=epub-page]')?.getAttribute('data-chapter') === '1');
    expect(await flags(page)).toMatchObject({ epubScript: undefined, epubOnerror: undefined });
  });

  test('code opens in the editor ready to type, with highlighting, and saves; without modify it is read-only with no Edit', async () => {
    await page.goto(`${server.url}/files/docs/app.ts`);
    await page.waitForSelector('[data-testid=editor][data-readonly=false] [data-testid=editor-host][data-status=ready] .cm-content');
    expect(await page.getAttribute('.cm-content', 'contenteditable')).toBe('true');
    expect(await page.locator('[data-testid=viewer-edit]').count()).toBe(0);
    await page.waitForFunction(() => [...document.querySelectorAll('.cm-line span')].some((s) => s.textContent === 'function'));
    await shots(page, 'viewers-code-editor');
    await page.keyboard.press('Control+End');
    await page.keyboard.type('// edited');
    await page.keyboard.press('Control+s');
    await page.waitForSelector('[data-testid=editor-dirty]', { state: 'detached' });
    expect(readFileSync(join(root, 'docs/app.ts'), 'utf8')).toEndWith('// edited');

    // A rendered document switches to the editor with one key, E.
    await page.goto(`${server.url}/files/docs/readme.md`);
    await page.waitForSelector('[data-testid=markdown] h1');
    expect(await page.getAttribute('[data-testid=viewer-edit]', 'aria-keyshortcuts')).toBe('E');
    await page.keyboard.press('e');
    await page.waitForSelector('[data-testid=editor][data-readonly=false] [data-testid=editor-host][data-status=ready] .cm-content');
    expect(await page.textContent('.cm-content')).toContain('# Project notes');

    const reader = await newPage(browser);
    await login(reader.page, server.url, 'reader', READER_PW);
    await reader.page.goto(`${server.url}/files/docs/app.ts`);
    await reader.page.waitForSelector('[data-testid=editor][data-readonly=true] [data-testid=editor-host][data-status=ready] .cm-content');
    expect(await reader.page.locator('[data-testid=viewer-edit]').count()).toBe(0);
    await reader.page.waitForSelector('[data-testid=editor-readonly]');
    await reader.page.goto(`${server.url}/files/docs/readme.md`);
    await reader.page.waitForSelector('[data-testid=markdown] h1');
    expect(await reader.page.locator('[data-testid=viewer-edit]').count()).toBe(0);
    await reader.context.close();
  });
});

describe('thumbnails and icons', () => {
  test('PDF and video thumbnails appear in the mosaic next to image thumbnails', async () => {
    expect((await cli(['-d', db, '-r', root, 'users', 'update', 'admin', '--viewMode', 'mosaic'])).code).toBe(0);
    await page.goto(`${server.url}/files/media/`);
    for (const name of ['report.pdf', 'clip.mp4', 'photo.png']) {
      await page.waitForFunction((n) => {
        const img = document.querySelector(`[data-testid=item][data-name="${n}"] img.item__thumb`) as HTMLImageElement | null;
        return !!img && img.complete && img.naturalWidth > 0;
      }, name);
    }
    const sizes = await page.$$eval('img.item__thumb', (imgs) => imgs.map((i) => [(i as HTMLImageElement).naturalWidth, (i as HTMLImageElement).naturalHeight]));
    expect(sizes).toContainEqual([256, 256]); // the video frame, cropped square
    await shots(page, 'viewers-thumbnails-mosaic');
  });

  test('each kind has its own icon', async () => {
    expect((await cli(['-d', db, '-r', root, 'users', 'update', 'admin', '--viewMode', 'list'])).code).toBe(0);
    await page.goto(`${server.url}/files/kinds/`);
    await page.waitForSelector('[data-testid=item][data-name="h-folder"]');
    const kinds = await page.$$eval('[data-testid=item]', (items) => Object.fromEntries(items.map((i) => [i.getAttribute('data-name'), i.getAttribute('data-kind')])));
    expect(kinds).toEqual({ 'h-folder': 'folder', 'a-notes.md': 'document', 'b-sheet.csv': 'spreadsheet', 'c-code.js': 'code', 'd-pack.zip': 'archive', 'e-song.wav': 'audio', 'f-log.txt': 'text', 'g-paper.pdf': 'pdf' });
    // every kind draws a different shape (the PDF shows its thumbnail instead)
    const shapes = await page.$$eval('[data-testid=item] .item__icon', (icons) => icons.map((i) => i.innerHTML));
    expect(shapes.length).toBeGreaterThanOrEqual(7);
    expect(new Set(shapes).size).toBe(shapes.length);
    await shots(page, 'viewers-icons');
  });
});
