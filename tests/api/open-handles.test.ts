import { afterAll, afterEach, beforeAll, describe, expect, test } from 'bun:test';
import { closeSync, existsSync, mkdirSync, openSync, renameSync, symlinkSync, unlinkSync, writeFileSync, ftruncateSync } from 'node:fs';
import { join } from 'node:path';
import { Transformer } from '@napi-rs/image';
import { ScopedFs } from '../../server/fs/scoped-fs';
import { openFdsUnder } from '../helpers/open-fds';
import { makeTestApp, type TestApp } from '../helpers/test-app';
import { listen, sha256, waitFor, type Live } from '../helpers/transfer-fixture';

// ScopedFs hands out OPENED files (ScopedFs.openReal) and checks what the kernel really opened: a folder on the way
// swapped for a link out of the scope between the path's check and the open is refused, for downloads, previews
// (served as they are, and rendered), subtitles (streamed and converted) and copies. sendFile reads that descriptor only,
// and closes it on every path: whole, ranged, HEAD, 304, 416, and a client that goes away mid-download.

let t: TestApp;
let admin: string;
let outside: string;

const INSIDE = 'inside bytes: the scope holds these\n';
const SECRET = 'SECRET outside the scope\n';
const VTT = (s: string) => `WEBVTT\n\n00:00:00.000 --> 00:00:01.000\n${s}`;
const SRT = (s: string) => `1\n00:00:01,000 --> 00:00:02,000\n${s}\n`;
const png = (w: number, h: number, shade: number) => {
  const px = new Uint8Array(w * h * 4).fill(shade);
  for (let i = 3; i < px.length; i += 4) px[i] = 255;
  return Transformer.fromRgbaPixels(px, w, h).png();
};
const gif = (s: string) => Buffer.concat([Buffer.from('GIF89a'), Buffer.from(s)]);

/** The same names in both folders: what the scope holds, and what a swapped-in link would lead to. */
async function fill(dir: string, text: string, shade: number) {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'doc.bin'), text);
  writeFileSync(join(dir, 'clip.vtt'), VTT(text));
  writeFileSync(join(dir, 'clip.srt'), SRT(text));
  writeFileSync(join(dir, 'anim.gif'), gif(text));
  writeFileSync(join(dir, 'photo.png'), await png(900, 700, shade));
}

beforeAll(async () => {
  t = await makeTestApp();
  admin = await t.adminToken();
  outside = join(t.dir, 'outside');
  await fill(join(t.root, 'box'), INSIDE, 40);
  await fill(outside, SECRET, 200);
});
afterAll(() => t.close());

/**
 * Arms a swap: right after ScopedFs.stat() has checked `vpath` (the check every download, preview and subtitle
 * starts with), the folder `box` is renamed away and a link to the outside folder put in its place, as a user with
 * shell access to the files could do between the check and the open. Undone after each test.
 */
let undo: (() => void) | null = null;
function swapAfterCheckOf(vpath: string, within?: 'copy', target = outside) {
  const original = ScopedFs.prototype.stat;
  const originalCopy = ScopedFs.prototype.copy;
  const box = join(t.root, 'box');
  let swapped = false;
  // `within`: only the check made inside that ScopedFs call (the service's own checks before it pass untouched).
  let armed = !within;
  if (within) {
    ScopedFs.prototype.copy = function (this: ScopedFs, ...args: Parameters<ScopedFs['copy']>) {
      armed = true;
      return originalCopy.apply(this, args);
    };
  }
  ScopedFs.prototype.stat = async function (this: ScopedFs, p: string) {
    const r = await original.call(this, p);
    if (p === vpath && armed && !swapped) {
      swapped = true;
      renameSync(box, `${box}.orig`);
      symlinkSync(target, box);
    }
    return r;
  };
  undo = () => {
    ScopedFs.prototype.stat = original;
    ScopedFs.prototype.copy = originalCopy;
    if (swapped) {
      unlinkSync(box);
      renameSync(`${box}.orig`, box);
    }
  };
  return () => swapped;
}
afterEach(() => {
  undo?.();
  undo = null;
});

describe('a folder swapped for a link out of the scope between the check and the open', () => {
  test('control: without a swap each path serves what the scope holds', async () => {
    expect(await (await t.req('GET', '/api/raw/box/doc.bin', { token: admin })).text()).toBe(INSIDE);
    expect(await (await t.req('GET', '/api/subtitle/box/clip.vtt', { token: admin })).text()).toBe(VTT(INSIDE));
    expect(await (await t.req('GET', '/api/subtitle/box/clip.srt', { token: admin })).text()).toContain('inside bytes');
    expect(Buffer.from(await (await t.req('GET', '/api/preview/thumb/box/anim.gif', { token: admin })).arrayBuffer()).toString()).toContain('inside bytes');
    expect((await t.req('GET', '/api/preview/thumb/box/photo.png', { token: admin })).status).toBe(200);
  });

  // Each path: the virtual path whose check arms the swap, and the request that reads it.
  const cases: [string, string, string][] = [
    ['a download', '/box/doc.bin', '/api/raw/box/doc.bin'],
    ['a .vtt subtitle streamed as it is', '/box/clip.vtt', '/api/subtitle/box/clip.vtt'],
    ['an .srt subtitle converted', '/box/clip.srt', '/api/subtitle/box/clip.srt'],
    ['an image preview served as it is', '/box/anim.gif', '/api/preview/thumb/box/anim.gif'],
    // A size the control did not render, so this request opens the file to render it.
    ['an image preview rendered', '/box/photo.png', '/api/preview/big/box/photo.png'],
  ];
  test.each(cases)('%s: refused, nothing from outside the scope is read', async (_what, vpath, route) => {
    const swapped = swapAfterCheckOf(vpath);
    const r = await t.req('GET', route, { token: admin });
    const body = Buffer.from(await r.arrayBuffer()).toString('latin1');
    expect(swapped()).toBe(true);
    expect(body).not.toContain('SECRET');
    expect(r.status).toBe(403);
    expect(openFdsUnder(t.root) + openFdsUnder(outside)).toBe(0);
  });

  test('a copy: refused, nothing from outside the scope lands in it', async () => {
    const swapped = swapAfterCheckOf('/box/doc.bin', 'copy');
    const r = await t.req('PATCH', `/api/resources/box/doc.bin?action=copy&destination=${encodeURIComponent('/copied.bin')}`, { token: admin });
    expect(swapped()).toBe(true);
    expect(r.status).toBe(403);
    expect(existsSync(join(t.root, 'copied.bin'))).toBe(false);
    expect(openFdsUnder(t.root) + openFdsUnder(outside)).toBe(0);
  });

  test('a link swapped in to a folder of the scope the rules deny: refused as well', async () => {
    const denied = join(t.root, 'denied');
    mkdirSync(denied, { recursive: true });
    writeFileSync(join(denied, 'doc.bin'), SECRET);
    await t.s.settings.update({ rules: [{ allow: false, regex: false, path: '/denied', regexp: null }] }, ['rules']);
    try {
      const bob = await t.userToken('bob');
      expect((await t.req('GET', '/api/raw/denied/doc.bin', { token: bob })).status).toBe(403);
      const swapped = swapAfterCheckOf('/box/doc.bin', undefined, denied);
      const r = await t.req('GET', '/api/raw/box/doc.bin', { token: bob });
      const body = await r.text();
      expect(swapped()).toBe(true);
      expect(body).not.toContain('SECRET');
      expect(r.status).toBe(403);
    } finally {
      await t.s.settings.update({ rules: [] }, ['rules']);
    }
  });
});

describe('sendFile closes the descriptor it was handed, on every path', () => {
  let live: Live;
  const BIG = 5 * 1024 * 1024 + 12345; // streamed (more than one chunk, not a multiple of one)
  let bigBytes: Uint8Array;
  beforeAll(() => {
    live = listen(t);
    bigBytes = new Uint8Array(BIG);
    for (let i = 0; i < BIG; i++) bigBytes[i] = (i * 31 + (i >> 11)) & 255;
    mkdirSync(join(t.root, 'dl'), { recursive: true });
    writeFileSync(join(t.root, 'dl', 'big.bin'), bigBytes);
    writeFileSync(join(t.root, 'dl', 'small.txt'), 'small file\n');
    // A large sparse file for the hang-up: costs no disk, and no client reads it to the end.
    const fd = openSync(join(t.root, 'dl', 'huge.bin'), 'w');
    ftruncateSync(fd, 256 * 1024 * 1024);
    closeSync(fd);
  });
  afterAll(() => live.stop());
  const url = (p: string) => `${live.url}/api/raw${p}`;
  const auth = () => ({ 'X-Auth': admin });
  const noneOpen = () => waitFor(() => openFdsUnder(t.root) === 0, 3000);

  test('whole and ranged bodies are exact, over a real socket, and leave nothing open', async () => {
    const declared = await t.req('GET', '/api/raw/dl/big.bin', { token: admin });
    expect(declared.headers.get('content-length')).toBe(String(BIG));
    await declared.arrayBuffer();
    const whole = await fetch(url('/dl/big.bin'), { headers: auth() });
    expect(whole.status).toBe(200);
    expect(sha256(new Uint8Array(await whole.arrayBuffer()))).toBe(sha256(bigBytes));
    expect(await noneOpen()).toBe(true);
    const part = await fetch(url('/dl/big.bin'), { headers: { ...auth(), Range: 'bytes=1000000-3100000' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 1000000-3100000/${BIG}`);
    expect(sha256(new Uint8Array(await part.arrayBuffer()))).toBe(sha256(bigBytes.subarray(1000000, 3100001)));
    const tail = await fetch(url('/dl/big.bin'), { headers: { ...auth(), Range: 'bytes=-10' } });
    expect(Array.from(new Uint8Array(await tail.arrayBuffer()))).toEqual(Array.from(bigBytes.subarray(BIG - 10)));
    const small = await fetch(url('/dl/small.txt'), { headers: { ...auth(), Range: 'bytes=6-' } });
    expect(small.headers.get('content-length')).toBe('5');
    expect(await small.text()).toBe('file\n');
    expect(await noneOpen()).toBe(true);
  });

  test('HEAD (Content-Length as for GET), 304 and 416 leave nothing open', async () => {
    const head = await fetch(url('/dl/big.bin'), { method: 'HEAD', headers: auth() });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(BIG));
    expect(head.headers.get('accept-ranges')).toBe('bytes');
    expect(await noneOpen()).toBe(true);
    const etag = head.headers.get('etag')!;
    const again = await fetch(url('/dl/big.bin'), { headers: { ...auth(), 'If-None-Match': etag } });
    expect(again.status).toBe(304);
    expect(openFdsUnder(t.root)).toBe(0);
    const beyond = await fetch(url('/dl/big.bin'), { headers: { ...auth(), Range: `bytes=${BIG}-` } });
    expect(beyond.status).toBe(416);
    await beyond.arrayBuffer();
    expect(openFdsUnder(t.root)).toBe(0);
    const inProcess = await t.req('HEAD', '/api/raw/dl/big.bin', { token: admin });
    expect(inProcess.headers.get('content-length')).toBe(String(BIG));
    expect(await noneOpen()).toBe(true);
  });

  test('a client that hangs up mid-download: the descriptor is closed', async () => {
    const ac = new AbortController();
    const r = await fetch(url('/dl/huge.bin'), { headers: auth(), signal: ac.signal });
    expect(r.status).toBe(200);
    const reader = r.body!.getReader();
    expect((await reader.read()).done).toBe(false);
    // Mid-stream: the file is open, its 256 MiB not sent (the client reads no further).
    expect(openFdsUnder(t.root)).toBe(1);
    ac.abort();
    await reader.cancel().catch(() => {});
    expect(await noneOpen()).toBe(true);
    // The server goes on serving.
    expect(await (await fetch(url('/dl/small.txt'), { headers: auth() })).text()).toBe('small file\n');
  });
});
