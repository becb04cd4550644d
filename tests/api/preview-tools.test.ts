import { afterEach, describe, expect, test } from 'bun:test';
import { chmodSync, existsSync, readdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Transformer } from '@napi-rs/image';
import { pageConfig } from '../../server/http/page-config';
import { actorFor } from '../../server/services/actor';
import { PreviewService } from '../../server/services/preview/preview.service';
import { detectToolSandbox, limited, runTool, sandboxed, toolArgv, toolSandboxWarning } from '../../server/services/preview/tool-thumbs';
import { HeavyWork } from '../../server/services/work/heavy-work';
import { pngBomb } from '../helpers/png-bomb';
import { makeTestApp, type TestApp } from '../helpers/test-app';

// PDF and video thumbnails come from the real pdftoppm and ffmpeg (scripts/bootstrap.mjs installs them).
const HAVE = { pdf: !!Bun.which('pdftoppm'), video: !!Bun.which('ffmpeg'), heic: !!Bun.which('heif-convert') };

let t: TestApp;
afterEach(async () => {
  await t?.close();
});

/** A one-page PDF (a red rectangle on a 200x300 page); poppler rebuilds the missing xref table. */
const PDF = '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 300]/Contents 4 0 R>>endobj\n4 0 obj<</Length 35>>stream\n1 0 0 rg 20 20 160 260 re f\nendstream endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n';

/** A test-pattern clip made by ffmpeg itself (`seconds` long, 320x240). */
function makeVideo(path: string, seconds: number): void {
  const r = Bun.spawnSync(['ffmpeg', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', `testsrc=duration=${seconds}:size=320x240:rate=10`, '-pix_fmt', 'yuv420p', path]);
  expect(r.exitCode).toBe(0);
}

/** Both preview switches on (config defaults). */
const ON = { enableThumbnails: true, resizePreview: true };

const meta = async (r: Response) => new Transformer(Buffer.from(await r.arrayBuffer())).metadata();
const cached = () => {
  const dir = join(t.s.config.cacheDir, 'previews');
  return existsSync(dir) ? readdirSync(dir, { recursive: true, withFileTypes: true }).filter((d) => d.isFile()).length : 0;
};

describe('PDF, video and AVIF thumbnails', () => {
  test.skipIf(!HAVE.pdf)('a PDF thumbnail is its first page as a JPEG fit in 256 px, cached; big is 501', async () => {
    t = await makeTestApp();
    const token = await t.adminToken();
    writeFileSync(join(t.root, 'doc.pdf'), PDF);
    expect(t.s.previews.toolSandbox).toBe('bubblewrap'); // rendered inside it (the fonts and libraries it needs are there)
    const r = await t.req('GET', '/api/preview/thumb/doc.pdf', { token });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toContain('image/jpeg');
    const m = await meta(r);
    expect(m.height).toBe(256);
    expect(m.width).toBeLessThan(256); // a portrait page, fitted, not cropped
    expect(cached()).toBe(1);
    expect((await t.req('GET', '/api/preview/thumb/doc.pdf', { token })).status).toBe(200);
    expect(cached()).toBe(1);
    expect((await t.req('GET', '/api/preview/big/doc.pdf', { token })).status).toBe(501);
    // Evicted with the file, like image previews.
    expect((await t.req('DELETE', '/api/resources/doc.pdf?permanent=true', { token })).status).toBeLessThan(300);
    await Bun.sleep(50);
    expect(cached()).toBe(0);
  });

  test.skipIf(!HAVE.pdf)('a broken PDF is a 501, and the server keeps answering', async () => {
    t = await makeTestApp();
    const token = await t.adminToken();
    writeFileSync(join(t.root, 'bad.pdf'), 'not a pdf at all');
    const r = await t.req('GET', '/api/preview/thumb/bad.pdf', { token });
    expect(r.status).toBe(501);
    expect((await t.req('GET', '/api/resources/', { token })).status).toBe(200);
  });

  test.skipIf(!HAVE.video)('a video thumbnail is a 256x256 frame; a clip shorter than a second still gets one', async () => {
    t = await makeTestApp();
    const token = await t.adminToken();
    makeVideo(join(t.root, 'clip.mp4'), 2);
    makeVideo(join(t.root, 'short.webm'), 0.4);
    for (const name of ['clip.mp4', 'short.webm']) {
      const r = await t.req('GET', `/api/preview/thumb/${name}`, { token });
      expect(r.status).toBe(200);
      const m = await meta(r);
      expect([m.width, m.height]).toEqual([256, 256]);
    }
    expect(cached()).toBe(2);
  }, 30_000);

  test('AVIF photos get thumbnails through the image worker', async () => {
    t = await makeTestApp();
    const token = await t.adminToken();
    const px = new Uint8Array(400 * 300 * 4).map((_, i) => (i % 4 === 3 ? 255 : (i * 7) % 256));
    writeFileSync(join(t.root, 'photo.avif'), await Transformer.fromRgbaPixels(px, 400, 300).avif({ quality: 60 }));
    const r = await t.req('GET', '/api/preview/thumb/photo.avif', { token });
    expect(r.status).toBe(200);
    expect([(await meta(r)).width, (await meta(await t.req('GET', '/api/preview/thumb/photo.avif', { token }))).height]).toEqual([256, 256]);
  });

  test('a FIFO named .pdf or .mp4 is a 400 before any program starts', async () => {
    t = await makeTestApp();
    const token = await t.adminToken();
    for (const n of ['pipe.pdf', 'pipe.mp4']) {
      expect(Bun.spawnSync(['mkfifo', join(t.root, n)]).exitCode).toBe(0);
      expect((await t.req('GET', `/api/preview/thumb/${n}`, { token })).status).toBe(400);
    }
  });

  test('without the program the answer says which one is missing; the page configuration tells the web app', async () => {
    t = await makeTestApp();
    const token = await t.adminToken();
    writeFileSync(join(t.root, 'doc.pdf'), PDF);
    writeFileSync(join(t.root, 'v.mp4'), 'x');
    const sandbox = await detectToolSandbox(t.s.config);
    const none = new PreviewService({ cacheDir: t.s.config.cacheDir, store: t.s.stores.previews, enableThumbnails: true, resizePreview: true, work: new HeavyWork({ global: 1, perUser: 1, maxWaiting: 4, waitMs: 1000, timeoutMs: 1000 }, 'previews'), tools: { pdf: null, video: null, heic: null }, sandbox });
    const actor = actorFor((await t.s.stores.users.byId(1))!, { root: t.root, globalRules: [], followExternalSymlinks: false });
    await expect(none.preview(actor, 'thumb', '/v.mp4')).rejects.toMatchObject({ code: 'UNSUPPORTED', detail: expect.stringContaining('need ffmpeg') });
    await expect(none.preview(actor, 'thumb', '/doc.pdf')).rejects.toMatchObject({ code: 'UNSUPPORTED', detail: expect.stringContaining('need pdftoppm') });
    expect(pageConfig(t.s.config, t.s.settings.get(), 'off', none).ThumbTools).toEqual({ pdf: false, video: false, heic: false });
    expect(pageConfig(t.s.config, t.s.settings.get(), 'off', t.s.previews).ThumbTools).toEqual(HAVE);
    // Thumbnails off: no program runs at all.
    const off = await makeTestApp({ enableThumbnails: false });
    try {
      writeFileSync(join(off.root, 'doc.pdf'), PDF);
      expect((await off.req('GET', '/api/preview/thumb/doc.pdf', { token: await off.adminToken() })).status).toBe(501);
    } finally {
      await off.close();
    }
    expect(token).toBeTruthy();
  });
});

describe('the program runs bounded', () => {
  test('renders hold the preview slots; a program past its time limit is killed with a 503-coded error', async () => {
    t = await makeTestApp();
    const script = join(t.dir, 'slow-tool');
    writeFileSync(script, '#!/bin/sh\nsleep 30.123\n');
    chmodSync(script, 0o755);
    writeFileSync(join(t.root, 'a.pdf'), PDF);
    writeFileSync(join(t.root, 'b.pdf'), PDF + ' ');
    const work = new HeavyWork({ global: 1, perUser: 1, maxWaiting: 4, waitMs: 10_000, timeoutMs: 10_000 }, 'previews');
    const sandbox = await detectToolSandbox(t.s.config);
    expect(sandbox.mode).toBe('bubblewrap'); // the program below is killed through bwrap, its whole PID namespace with it
    const svc = new PreviewService({ cacheDir: t.s.config.cacheDir, store: t.s.stores.previews, enableThumbnails: true, resizePreview: true, work, tools: { pdf: script, video: null, heic: null }, toolTimeoutMs: 700, sandbox });
    const actor = actorFor((await t.s.stores.users.byId(1))!, { root: t.root, globalRules: [], followExternalSymlinks: false });
    const started = Date.now();
    const a = svc.preview(actor, 'thumb', '/a.pdf').catch((e: unknown) => e);
    const b = svc.preview(actor, 'thumb', '/b.pdf').catch((e: unknown) => e);
    await Bun.sleep(200);
    expect(work.stats()).toMatchObject({ running: 1, waiting: 1 });
    expect(await a).toMatchObject({ code: 'UNAVAILABLE' });
    expect(await b).toMatchObject({ code: 'UNAVAILABLE' });
    expect(Date.now() - started).toBeLessThan(5_000); // two 700 ms limits in turn, not two 30 s sleeps
    expect(work.stats()).toMatchObject({ running: 0, waiting: 0 });
    await Bun.sleep(100);
    expect(Bun.spawnSync(['pgrep', '-f', 'sleep 30.123']).exitCode).toBe(1); // nothing left running inside the sandbox
    work.close();
  }, 15_000);

  test('an aborted render kills its program', async () => {
    t = await makeTestApp();
    const path = join(t.dir, 'in');
    writeFileSync(path, 'x');
    const fd = (await import('node:fs')).openSync(path, 'r');
    const stop = new AbortController();
    const started = Date.now();
    const p = runTool(['/bin/sleep', '30'], fd, stop.signal).catch((e: unknown) => e);
    setTimeout(() => stop.abort(), 200);
    expect(await p).toMatchObject({ code: 'INVALID' });
    expect(Date.now() - started).toBeLessThan(3_000);
    unlinkSync(path);
  });
});

describe('the programs run inside bubblewrap', () => {
  /** A stand-in thumbnail program that prints its stdin, then every outside thing it can reach. */
  function probeTool(paths: string[], port: number): string {
    const probe = join(t.dir, 'probe-tool');
    const lines = [
      '#!/bin/sh',
      'cat',
      `for f in ${paths.join(' ')}; do test -e "$f" && echo " saw $f"; done`,
      `/bin/bash -c 'echo hi > /dev/tcp/127.0.0.1/${port}' 2>/dev/null && echo " reached the network"`,
      'exit 0',
    ];
    writeFileSync(probe, lines.join('\n') + '\n');
    chmodSync(probe, 0o755);
    return probe;
  }

  test('a program reads its one file on stdin and sees no other file, no server file and no network', async () => {
    t = await makeTestApp();
    let connections = 0;
    const listener = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { open: () => void connections++, data() {} } });
    try {
      writeFileSync(join(t.root, 'secret.txt'), 'another file');
      writeFileSync(join(t.root, 'in.pdf'), 'the input');
      const outside = [join(t.root, 'secret.txt'), t.root, t.s.config.database, t.s.config.cacheDir, '/etc/passwd', '/root', '/home'];
      const probe = probeTool(outside, listener.port);
      const actor = actorFor((await t.s.stores.users.byId(1))!, { root: t.root, globalRules: [], followExternalSymlinks: false });
      const run = async (sandbox: Awaited<ReturnType<typeof detectToolSandbox>>, cache: string) => {
        const work = new HeavyWork({ global: 1, perUser: 1, maxWaiting: 4, waitMs: 5000, timeoutMs: 5000 }, 'previews');
        try {
          const svc = new PreviewService({ cacheDir: join(t.dir, cache), store: t.s.stores.previews, enableThumbnails: true, resizePreview: true, work, tools: { pdf: probe, video: null, heic: null }, sandbox });
          const r = await svc.preview(actor, 'thumb', '/in.pdf');
          return r.kind === 'image' ? readFileSync(r.file, 'utf8') : '';
        } finally {
          work.close();
        }
      };
      const sandbox = await detectToolSandbox(t.s.config);
      expect(sandbox.mode).toBe('bubblewrap');
      expect(sandboxed(sandbox, ['/usr/bin/pdftoppm', '/dev/stdin'])[0]).toBe(sandbox.bwrap!);
      expect(await run(sandbox, 'c1')).toBe('the input');
      expect(connections).toBe(0);
      // The same program unconfined (the admin's unsafe flag) sees them all: the check above can fail.
      const loose = await run({ mode: 'none-unsafe', bwrap: null }, 'c2');
      expect(loose).toContain(` saw ${join(t.root, 'secret.txt')}`);
      expect(loose).toContain(' reached the network');
    } finally {
      listener.stop(true);
    }
  });

  test('without a usable bubblewrap PDF and video thumbnails are off and say why, unless execUnsafeNoSandbox', async () => {
    t = await makeTestApp({ bwrapPath: '/nonexistent/bwrap' });
    const token = await t.adminToken();
    writeFileSync(join(t.root, 'doc.pdf'), PDF);
    writeFileSync(join(t.root, 'v.mp4'), 'x');
    expect(t.s.previews.toolSandbox).toBe('off');
    const actor = actorFor((await t.s.stores.users.byId(1))!, { root: t.root, globalRules: [], followExternalSymlinks: false });
    for (const [name, program] of [['doc.pdf', 'pdftoppm'], ['v.mp4', 'ffmpeg']]) {
      expect((await t.req('GET', `/api/preview/thumb/${name}`, { token })).status).toBe(501);
      await expect(t.s.previews.preview(actor, 'thumb', `/${name}`)).rejects.toMatchObject({ code: 'UNSUPPORTED', detail: expect.stringContaining(`need bubblewrap to run ${program} sandboxed`) });
    }
    const page = pageConfig(t.s.config, t.s.settings.get(), t.s.runner.mode, t.s.previews);
    expect([page.ThumbTools, page.ThumbSandbox]).toEqual([{ pdf: false, video: false, heic: false }, 'off']);
    expect(toolSandboxWarning(ON, 'off')).toContain('thumbnails are off: bubblewrap is missing or unusable');
    expect([toolSandboxWarning({ enableThumbnails: false, resizePreview: true }, 'off'), toolSandboxWarning(ON, 'bubblewrap')]).toEqual([null, null]);
    expect(cached()).toBe(0);
    await t.close();

    t = await makeTestApp({ bwrapPath: '/nonexistent/bwrap', execUnsafeNoSandbox: 'true' });
    expect(t.s.previews.toolSandbox).toBe('none-unsafe');
    expect(toolSandboxWarning(ON, 'none-unsafe')).toContain('WITHOUT a sandbox');
    expect(pageConfig(t.s.config, t.s.settings.get(), t.s.runner.mode, t.s.previews).ThumbTools).toEqual(HAVE);
    if (!HAVE.pdf) return;
    writeFileSync(join(t.root, 'doc.pdf'), PDF);
    expect((await t.req('GET', '/api/preview/thumb/doc.pdf', { token: await t.adminToken() })).status).toBe(200);
  });
});

describe('a video that is really a huge picture', () => {
  let bomb: Uint8Array | null = null;
  const BOMB = () => (bomb ??= pngBomb(16000, 16000)); // ~1 MB on disk, ~1 GiB to decode

  test.skipIf(!HAVE.video)('is refused (413) from ffprobe\u2019s answer before ffmpeg decodes it, and the failure is remembered: nothing starts the second time', async () => {
    t = await makeTestApp();
    const token = await t.adminToken();
    writeFileSync(join(t.root, 'bomb.mp4'), BOMB());
    // Through the server (real ffprobe and ffmpeg inside bubblewrap): 413 with the sizes, twice.
    const r = await t.req('GET', '/api/preview/thumb/bomb.mp4', { token });
    expect(r.status).toBe(413);
    expect(await r.text()).toContain('16000x16000');
    expect((await t.req('GET', '/api/preview/thumb/bomb.mp4', { token })).status).toBe(413);
    // Counting the programs: stand-ins that log each start, then run the real ones (next to each other, as
    // ffmpeg and ffprobe are installed). Unconfined here so they can write their log.
    const bin = join(t.dir, 'bin');
    const log = join(t.dir, 'started.log');
    (await import('node:fs')).mkdirSync(bin);
    for (const p of ['ffmpeg', 'ffprobe']) {
      writeFileSync(join(bin, p), `#!/bin/sh\necho ${p} >> ${log}\nexec ${Bun.which(p)} "$@"\n`);
      chmodSync(join(bin, p), 0o755);
    }
    const started = () => (existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean) : []);
    const work = new HeavyWork({ global: 1, perUser: 1, maxWaiting: 4, waitMs: 10_000, timeoutMs: 10_000 }, 'previews');
    const svc = new PreviewService({ cacheDir: join(t.dir, 'c3'), store: t.s.stores.previews, enableThumbnails: true, resizePreview: true, work, tools: { pdf: null, video: join(bin, 'ffmpeg'), heic: null }, sandbox: { mode: 'none-unsafe', bwrap: null } });
    const actor = actorFor((await t.s.stores.users.byId(1))!, { root: t.root, globalRules: [], followExternalSymlinks: false });
    try {
      await expect(svc.preview(actor, 'thumb', '/bomb.mp4')).rejects.toMatchObject({ code: 'TOO_LARGE' });
      expect(started()).toEqual(['ffprobe']); // ffmpeg never started
      await expect(svc.preview(actor, 'thumb', '/bomb.mp4')).rejects.toMatchObject({ code: 'TOO_LARGE', detail: expect.stringContaining('16000x16000') });
      expect(started()).toEqual(['ffprobe']); // remembered: nothing started at all
      // A real clip still gets its thumbnail through the same checks (probe, then ffmpeg).
      makeVideo(join(t.root, 'clip.mp4'), 2);
      expect((await svc.preview(actor, 'thumb', '/clip.mp4')).kind).toBe('image');
      expect(started()).toEqual(['ffprobe', 'ffprobe', 'ffmpeg']);
      // The file changed: the remembered failure is for the old one.
      writeFileSync(join(t.root, 'bomb.mp4'), Buffer.concat([BOMB(), Buffer.from('\n')]));
      await expect(svc.preview(actor, 'thumb', '/bomb.mp4')).rejects.toMatchObject({ code: 'TOO_LARGE' });
      expect(started().length).toBe(4);
    } finally {
      work.close();
    }
  }, 30_000);

  test.skipIf(!HAVE.video)('a program runs under a memory cap: ffmpeg told to decode the picture anyway fails at once instead of holding ~2 GB', async () => {
    t = await makeTestApp();
    const path = join(t.dir, 'bomb.mp4');
    writeFileSync(path, BOMB());
    const fd = (await import('node:fs')).openSync(path, 'r');
    const sandbox = await detectToolSandbox(t.s.config);
    try {
      const argv = limited('video', sandboxed(sandbox, toolArgv('video', Bun.which('ffmpeg')!)));
      expect(argv.join(' ')).toMatch(/prlimit --as=\d+ --cpu=\d+ -- |ulimit -v/);
      // Killed by its cap (an allocation fails), not by the 20 s time limit given here.
      await expect(runTool(argv, fd, new AbortController().signal, 20_000)).rejects.toMatchObject({ code: 'UNSUPPORTED' });
    } finally {
      (await import('node:fs')).closeSync(fd);
    }
  }, 30_000);
});
