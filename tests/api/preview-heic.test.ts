import { afterAll, afterEach, beforeAll, describe, expect, test } from 'bun:test';
import { chmodSync, copyFileSync, existsSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Transformer } from '@napi-rs/image';
import { pageConfig } from '../../server/http/page-config';
import { actorFor } from '../../server/services/actor';
import { PreviewService } from '../../server/services/preview/preview.service';
import { detectToolSandbox, heifCommand, runTool } from '../../server/services/preview/tool-thumbs';
import { HeavyWork } from '../../server/services/work/heavy-work';
import { makeTestApp, type TestApp } from '../helpers/test-app';

// Real HEIC files made by heif-enc (x265) from ffmpeg test patterns; decoded by the real heif-convert in bubblewrap.
const HAVE = !!Bun.which('heif-convert') && !!Bun.which('heif-enc') && !!Bun.which('ffmpeg');

let t: TestApp;
afterEach(async () => {
  await t?.close();
});

const work = mkdtempSync(join(tmpdir(), 'heic-test-'));
/** name -> path of a HEIC made once for the file. */
const made: Record<string, string> = {};

function makeHeic(name: string, w: number, h: number): string {
  const png = join(work, `${name}.png`);
  const out = join(work, `${name}.heic`);
  expect(Bun.spawnSync(['ffmpeg', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', `testsrc=size=${w}x${h}`, '-frames:v', '1', png]).exitCode).toBe(0);
  expect(Bun.spawnSync(['heif-enc', '-q', '40', png, '-o', out]).exitCode).toBe(0);
  return out;
}

beforeAll(() => {
  if (!HAVE) return;
  made.wide = makeHeic('wide', 1440, 1080);
  made.small = makeHeic('small', 640, 480);
  made.thin = makeHeic('thin', 10240, 64); // a real file past the 10,000 px side limit
  made.burst = join(work, 'burst.heic'); // two top-level images
  expect(Bun.spawnSync(['heif-enc', '-q', '40', join(work, 'small.png'), join(work, 'small.png'), '-o', made.burst]).exitCode).toBe(0);
  // A bomb: the small photo with its declared size (the ispe property) raised to 60000x60000.
  const bytes = Buffer.from(readFileSync(made.small));
  const at = bytes.indexOf('ispe');
  bytes.writeUInt32BE(60000, at + 8);
  bytes.writeUInt32BE(60000, at + 12);
  writeFileSync((made.bomb = join(work, 'bomb.heic')), bytes);
}, 60_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

const meta = async (r: Response) => new Transformer(Buffer.from(await r.arrayBuffer())).metadata();
const cached = () => {
  const dir = join(t.s.config.cacheDir, 'previews');
  return existsSync(dir) ? readdirSync(dir, { recursive: true, withFileTypes: true }).filter((d) => d.isFile()).length : 0;
};
const running = () => Bun.spawnSync(['pgrep', '-f', 'heif-convert']).exitCode === 0;

describe.skipIf(!HAVE)('HEIC/HEIF photos', () => {
  test('a HEIC gets a 256x256 JPEG thumbnail and a big preview fit in 1080 px, both cached', async () => {
    t = await makeTestApp();
    const token = await t.adminToken();
    copyFileSync(made.wide!, join(t.root, 'photo.heic'));
    copyFileSync(made.small!, join(t.root, 'little.HEIF'));
    expect(t.s.previews.toolSandbox).toBe('bubblewrap');
    const thumb = await t.req('GET', '/api/preview/thumb/photo.heic', { token });
    expect(thumb.status).toBe(200);
    expect(thumb.headers.get('content-type')).toContain('image/jpeg');
    expect(await meta(thumb)).toMatchObject({ width: 256, height: 256, format: 'jpeg' });
    const big = await t.req('GET', '/api/preview/big/photo.heic', { token });
    expect(big.status).toBe(200);
    expect(big.headers.get('content-type')).toContain('image/jpeg');
    expect(await meta(big)).toMatchObject({ width: 1080, height: 810 });
    expect(cached()).toBe(2);
    // Already small: heif-convert's JPEG is kept as it is (the browser cannot show the original).
    const little = await t.req('GET', '/api/preview/big/little.HEIF', { token });
    expect(little.status).toBe(200);
    expect(await meta(little)).toMatchObject({ width: 640, height: 480, format: 'jpeg' });
    expect(cached()).toBe(3);
    // Served from the cache: no new file, and no decoder started (a program that is gone could not answer).
    const again = new PreviewService({ ...serviceDeps(), tools: { pdf: null, video: null, heic: '/nonexistent/heif-convert' } });
    const actor = await admin();
    expect(await again.preview(actor, 'big', '/photo.heic')).toMatchObject({ kind: 'image', mime: 'image/jpeg' });
    expect((await t.req('GET', '/api/preview/thumb/photo.heic', { token })).status).toBe(200);
    expect(cached()).toBe(3);
    expect(pageConfig(t.s.config, t.s.settings.get(), 'off', t.s.previews).ThumbTools.heic).toBe(true);
  }, 30_000);

  test('a HEIC without an extension or under a .jpg name is found by its brand; a burst shows its first image', async () => {
    t = await makeTestApp();
    const token = await t.adminToken();
    copyFileSync(made.small!, join(t.root, 'IMG_0001'));
    copyFileSync(made.small!, join(t.root, 'mislabelled.jpg'));
    copyFileSync(made.burst!, join(t.root, 'burst.heic'));
    const list = (await (await t.req('GET', '/api/resources/', { token })).json()) as { items: { name: string; type: string }[] };
    expect(list.items.find((i) => i.name === 'IMG_0001')?.type).toBe('image');
    for (const name of ['IMG_0001', 'mislabelled.jpg', 'burst.heic']) {
      const r = await t.req('GET', `/api/preview/thumb/${name}`, { token });
      expect(r.status).toBe(200);
      expect(await meta(r)).toMatchObject({ width: 256, height: 256 });
    }
  }, 30_000);

  test('a truncated or corrupt HEIC is a 415 with a message; the server answers and no decoder is left running', async () => {
    t = await makeTestApp();
    const token = await t.adminToken();
    const bytes = readFileSync(made.wide!);
    writeFileSync(join(t.root, 'cut.heic'), bytes.subarray(0, Math.floor(bytes.length / 2)));
    writeFileSync(join(t.root, 'noise.heic'), Buffer.concat([bytes.subarray(0, 400), Buffer.alloc(5000, 7)]));
    writeFileSync(join(t.root, 'text.heic'), 'not a photo at all');
    for (const name of ['cut.heic', 'noise.heic', 'text.heic']) {
      const r = await t.req('GET', `/api/preview/big/${name}`, { token });
      expect(r.status).toBe(415);
      expect(await r.text()).toMatch(/the HEIC\/HEIF image cannot be (decoded|read)/);
    }
    expect((await t.req('GET', '/api/resources/', { token })).status).toBe(200);
    expect(cached()).toBe(0);
    await Bun.sleep(100);
    expect(running()).toBe(false);
  }, 30_000);

  test('a HEIC declaring 60000x60000 pixels is refused as an image bomb before any decode (413)', async () => {
    t = await makeTestApp();
    const token = await t.adminToken();
    copyFileSync(made.bomb!, join(t.root, 'bomb.heic'));
    copyFileSync(made.thin!, join(t.root, 'thin.heic'));
    for (const size of ['thumb', 'big']) {
      const r = await t.req('GET', `/api/preview/${size}/bomb.heic`, { token });
      expect(r.status).toBe(413);
      expect(await r.text()).toContain('60000x60000');
      expect(await (await t.req('GET', `/api/preview/${size}/thin.heic`, { token })).text()).toContain('10240x64');
    }
    expect(running()).toBe(false);
    expect(cached()).toBe(0);
  });

  test('without heif-convert, or without a sandbox, a 501 says which; unconfined with the unsafe flag it works', async () => {
    t = await makeTestApp();
    copyFileSync(made.small!, join(t.root, 'photo.heic'));
    const none = new PreviewService({ ...serviceDeps(), tools: { pdf: null, video: null, heic: null } });
    await expect(none.preview(await admin(), 'big', '/photo.heic')).rejects.toMatchObject({ code: 'UNSUPPORTED', detail: 'HEIC photos need heif-convert (Debian package libheif-examples)' });
    expect(pageConfig(t.s.config, t.s.settings.get(), 'off', none).ThumbTools.heic).toBe(false);
    await t.close();

    t = await makeTestApp({ bwrapPath: '/nonexistent/bwrap' });
    copyFileSync(made.small!, join(t.root, 'photo.heic'));
    expect((await t.req('GET', '/api/preview/thumb/photo.heic', { token: await t.adminToken() })).status).toBe(501);
    await expect(t.s.previews.preview(await admin(), 'big', '/photo.heic')).rejects.toMatchObject({ code: 'UNSUPPORTED', detail: expect.stringContaining('HEIC photos need bubblewrap to run heif-convert sandboxed') });
    await t.close();

    t = await makeTestApp({ bwrapPath: '/nonexistent/bwrap', execUnsafeNoSandbox: 'true' });
    copyFileSync(made.small!, join(t.root, 'photo.heic'));
    const before = readdirSync(tmpdir()).filter((n) => n.startsWith('filedeck-heif-')).length;
    const ok = await t.req('GET', '/api/preview/thumb/photo.heic', { token: await t.adminToken() });
    expect(ok.status).toBe(200);
    expect(await meta(ok)).toMatchObject({ width: 256, height: 256 });
    // Its private output folder went with the render.
    expect(readdirSync(tmpdir()).filter((n) => n.startsWith('filedeck-heif-')).length).toBe(before);
  }, 30_000);

  test('heif-convert runs in the thumbnail sandbox: its one file on stdin, its output through the private /tmp, nothing else', async () => {
    t = await makeTestApp();
    writeFileSync(join(t.root, 'secret.txt'), 'another file');
    writeFileSync(join(t.root, 'in.heic'), 'the input');
    // A stand-in heif-convert: writes its stdin, every outside thing it can see and its memory limit to its output file (argument 5).
    const probe = join(t.dir, 'probe-heif');
    const seen = [join(t.root, 'secret.txt'), t.s.config.database, t.s.config.cacheDir, '/etc/passwd', '/home', '/root'];
    writeFileSync(probe, `#!/bin/sh\n{ cat "$4"; for f in ${seen.join(' ')}; do test -e "$f" && echo " saw $f"; done; echo " limit $(ulimit -v)"; } > "$5"\n`);
    // (argument 5 is <folder>/out.jpg)
    chmodSync(probe, 0o755);
    const run = async (s: Awaited<ReturnType<typeof detectToolSandbox>>) => {
      const dir = mkdtempSync(join(t.dir, 'out-'));
      const out = await runTool(heifCommand(s, probe, dir), openSync(join(t.root, 'in.heic'), 'r'), new AbortController().signal);
      return Buffer.from(out ?? []).toString();
    };
    const sandbox = await detectToolSandbox(t.s.config);
    expect(sandbox.mode).toBe('bubblewrap');
    expect(await run(sandbox)).toBe('the input limit 1048576\n'); // and its memory is capped
    // The same probe unconfined sees them: the check above can fail.
    expect(await run({ mode: 'none-unsafe', bwrap: null })).toContain(` saw ${join(t.root, 'secret.txt')}`);
  });

  test('the preview gate: with thumbnails off no HEIC is decoded at any size (501, as PDFs and videos); with resizePreview off no big one', async () => {
    // Thumbnails off: heif-convert never runs, for the thumbnail nor the big preview; named, sniffed or disguised.
    t = await makeTestApp({ enableThumbnails: false });
    let token = await t.adminToken();
    copyFileSync(made.small!, join(t.root, 'photo.heic'));
    copyFileSync(made.small!, join(t.root, 'IMG_0001'));
    copyFileSync(made.small!, join(t.root, 'mislabelled.jpg'));
    writeFileSync(join(t.root, 'doc.pdf'), '%PDF-1.4\n');
    const pdf = await t.req('GET', '/api/preview/thumb/doc.pdf', { token });
    for (const path of ['thumb/photo.heic', 'big/photo.heic', 'big/IMG_0001']) {
      const r = await t.req('GET', `/api/preview/${path}`, { token });
      expect(r.status).toBe(pdf.status); // the same answer a PDF gets with thumbnails off
      expect(r.status).toBe(501);
    }
    // A HEIC under a .jpg name is an image by its name: off, it is served as it is (the reference's raw answer).
    const disguised = await t.req('GET', '/api/preview/big/mislabelled.jpg', { token });
    expect(disguised.status).toBe(200);
    expect(Buffer.from(await disguised.arrayBuffer()).equals(readFileSync(made.small!))).toBe(true);
    expect(cached()).toBe(0);
    // No decoder started: a stand-in heif-convert that leaves a mark would have left one.
    const mark = join(t.dir, 'decoder-ran');
    const probe = join(t.dir, 'probe-heif');
    writeFileSync(probe, `#!/bin/sh\ntouch ${mark}\nexit 1\n`);
    chmodSync(probe, 0o755);
    const gated = (enableThumbnails: boolean, resizePreview: boolean) =>
      new PreviewService({ ...serviceDeps(), enableThumbnails, resizePreview, tools: { pdf: null, video: null, heic: probe }, sandbox: { mode: 'none-unsafe', bwrap: null } });
    const actor = await admin();
    for (const [svc, size, path] of [[gated(false, true), 'big', '/photo.heic'], [gated(false, true), 'big', '/mislabelled.jpg'], [gated(true, false), 'big', '/photo.heic'], [gated(false, false), 'thumb', '/IMG_0001']] as const) {
      const r = await svc.preview(actor, size, path).then((v) => v.kind, (e: { code: string; detail: string }) => `${e.code}: ${e.detail}`);
      expect([path, r]).toEqual([path, path.endsWith('.jpg') ? 'raw' : expect.stringMatching(/^UNSUPPORTED: .*turned off/)]);
    }
    expect(existsSync(mark)).toBe(false);
    // The same probe behind an open gate does run (the check above can fail).
    await gated(true, true).preview(actor, 'big', '/photo.heic').catch(() => null);
    expect(existsSync(mark)).toBe(true);
    await t.close();

    // Big previews off (resizePreview): a HEIC's big preview is refused, its thumbnail is still made.
    t = await makeTestApp({ resizePreview: false });
    token = await t.adminToken();
    copyFileSync(made.small!, join(t.root, 'photo.heic'));
    expect((await t.req('GET', '/api/preview/big/photo.heic', { token })).status).toBe(501);
    await expect(t.s.previews.preview(await admin(), 'big', '/photo.heic')).rejects.toMatchObject({ code: 'UNSUPPORTED', detail: expect.stringContaining('big previews are turned off') });
    expect(cached()).toBe(0);
    expect((await t.req('GET', '/api/preview/thumb/photo.heic', { token })).status).toBe(200);
    expect(cached()).toBe(1);
  }, 30_000);
});

function serviceDeps() {
  const w = new HeavyWork({ global: 1, perUser: 1, maxWaiting: 4, waitMs: 5000, timeoutMs: 5000 }, 'previews');
  return { cacheDir: t.s.config.cacheDir, store: t.s.stores.previews, enableThumbnails: true, resizePreview: true, work: w, sandbox: { mode: 'bubblewrap' as const, bwrap: Bun.which('bwrap') } };
}

async function admin() {
  return actorFor((await t.s.stores.users.byId(1))!, { root: t.root, globalRules: [], followExternalSymlinks: false });
}

