import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { subtitleStats } from '../../server/services/files/subtitles';
import { subtitleWork } from '../../server/services/work/work-limits';
import { makeTestApp, type TestApp } from '../helpers/test-app';
import { bigSrt } from '../helpers/subtitle-fixture';

const subtitleWorkStats = () => subtitleWork().stats();

// GET /api/subtitle/{path} (reference §4.9): WebVTT out of .vtt (as it is), .srt and .ass/.ssa (converted).
let t: TestApp;
let admin: string;

const SRT = '1\r\n00:00:01,000 --> 00:00:02,500\r\nFirst line<br>second line\r\n\r\n2\r\n00:01:00,250 --> 00:01:03,000\r\n<i>Italic</i> cue\r\n';
const ASS = [
  '[Script Info]', 'Title: test', '', '[V4+ Styles]', 'Format: Name, Fontname', 'Style: Default,Arial', '',
  '[Events]', 'Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text',
  'Dialogue: 0,0:00:05.00,0:00:07.50,Default,,0,0,0,,{\\b1}Bold{\\b0} text\\Nnext line, with a comma',
  'Dialogue: 0,0:00:01.00,0:00:02.00,Default,,0,0,0,,Earlier cue',
].join('\n');
const VTT = 'WEBVTT\n\n00:00:00.000 --> 00:00:01.000\nAlready WebVTT\n';

beforeAll(async () => {
  t = await makeTestApp({}, { rules: [{ allow: false, path: '/Movies/secret' }] });
  admin = await t.adminToken();
  mkdirSync(join(t.root, 'Movies', 'secret'), { recursive: true });
  writeFileSync(join(t.root, 'Movies', 'clip.en.srt'), SRT);
  writeFileSync(join(t.root, 'Movies', 'clip.de.ass'), ASS);
  writeFileSync(join(t.root, 'Movies', 'clip.fr.vtt'), VTT);
  writeFileSync(join(t.root, 'Movies', 'secret', 'clip.srt'), SRT);
  writeFileSync(join(t.root, 'Movies', 'notes.txt'), 'not a subtitle');
});
afterAll(() => t.close());

describe('GET /api/subtitle', () => {
  test('SubRip becomes WebVTT: dots in times, <br> a line break, cue numbers kept as identifiers', async () => {
    const r = await t.req('GET', '/api/subtitle/Movies/clip.en.srt', { token: admin });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('text/vtt; charset=utf-8');
    expect(r.headers.get('x-content-type-options')).toBe('nosniff');
    expect(r.headers.get('content-security-policy')).toContain('sandbox');
    const body = await r.text();
    expect(body.startsWith('WEBVTT\n')).toBe(true);
    expect(body).toContain('00:00:01.000 --> 00:00:02.500\nFirst line\nsecond line');
    expect(body).toContain('00:01:00.250 --> 00:01:03.000\n<i>Italic</i> cue');
    expect(body).not.toContain(',000');
  });

  test('ASS becomes WebVTT: dialogue times, override tags dropped, \\N a line break, commas in text kept, cues in time order', async () => {
    const r = await t.req('GET', '/api/subtitle/Movies/clip.de.ass', { token: admin });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('text/vtt; charset=utf-8');
    const body = await r.text();
    expect(body.startsWith('WEBVTT')).toBe(true);
    expect(body).toContain('00:00:05.000 --> 00:00:07.500\nBold text\nnext line, with a comma');
    expect(body.indexOf('Earlier cue')).toBeLessThan(body.indexOf('Bold text'));
    expect(body).not.toContain('{\\b1}');
  });

  test('a .vtt file is streamed as it is, with Range', async () => {
    const whole = await t.req('GET', '/api/subtitle/Movies/clip.fr.vtt', { token: admin });
    expect(await whole.text()).toBe(VTT);
    expect(whole.headers.get('content-type')).toBe('text/vtt; charset=utf-8');
    const part = await t.req('GET', '/api/subtitle/Movies/clip.fr.vtt', { token: admin, headers: { Range: 'bytes=0-5' } });
    expect(part.status).toBe(206);
    expect(await part.text()).toBe('WEBVTT');
  });

  test('converted subtitles answer Range too', async () => {
    const r = await t.req('GET', '/api/subtitle/Movies/clip.en.srt', { token: admin, headers: { Range: 'bytes=0-5' } });
    expect(r.status).toBe(206);
    expect(await r.text()).toBe('WEBVTT');
  });

  test('refused without the download permission, under a deny rule, for other file types, and anonymously', async () => {
    const noDownload = await t.userToken('viewer', { download: false, share: false });
    expect((await t.req('GET', '/api/subtitle/Movies/clip.en.srt', { token: noDownload })).status).toBe(403);
    expect((await t.req('GET', '/api/subtitle/Movies/secret/clip.srt', { token: admin })).status).toBe(403);
    expect((await t.req('GET', '/api/subtitle/Movies/notes.txt', { token: admin })).status).toBe(400);
    expect((await t.req('GET', '/api/subtitle/Movies/missing.srt', { token: admin })).status).toBe(404);
    expect((await t.req('GET', '/api/subtitle/Movies/clip.en.srt')).status).toBe(401);
  });

  test('through a public folder share: the same conversion, nothing outside the share', async () => {
    const share = await (await t.req('POST', '/api/share/Movies/', { token: admin, body: {} })).json();
    const r = await t.req('GET', `/api/public/subtitle/${share.hash}/clip.en.srt`);
    expect(r.status).toBe(200);
    expect(await r.text()).toContain('First line\nsecond line');
    expect((await t.req('GET', `/api/public/subtitle/${share.hash}/../Movies/clip.en.srt`)).status).not.toBe(200);
    expect((await t.req('GET', `/api/public/subtitle/${share.hash}/secret/clip.srt`)).status).toBe(403);
  });
});


describe('heavy conversions are bounded', () => {
  test('four 10 MiB conversions (three signed in, one through a share) run off the event loop: /health answers while they run, no long stall', async () => {
    mkdirSync(join(t.root, 'Big'), { recursive: true });
    for (let i = 0; i < 4; i++) writeFileSync(join(t.root, 'Big', `film${i}.srt`), bigSrt(10 * 1024 * 1024 - 4096, `film${i}`));
    const share = await (await t.req('POST', '/api/share/Big/', { token: admin, body: {} })).json();
    const before = subtitleStats().started;
    let elapsed = 0;
    let finished = 0;
    const began = performance.now();
    const one = async (path: string, token?: string) => {
      const r = await t.req('GET', path, { token });
      const text = await r.text();
      finished++;
      return { status: r.status, text };
    };
    const runs = [0, 1, 2].map((i) => one(`/api/subtitle/Big/film${i}.srt`, admin));
    runs.push(one(`/api/public/subtitle/${share.hash}/film3.srt`));
    // /health asked again and again while they run (with a 1 ms pause): the longest round is the longest time
    // the event loop was held.
    let stall = 0;
    let probes = 0;
    for (let last = performance.now(); finished < 4; probes++) {
      const health = await t.req('GET', '/health');
      expect(health.status).toBe(200);
      await Bun.sleep(1);
      const now = performance.now();
      stall = Math.max(stall, now - last);
      last = now;
    }
    elapsed = performance.now() - began;
    const out = await Promise.all(runs);
    for (const [i, r] of out.entries()) {
      expect(r.status).toBe(200);
      expect(r.text.startsWith('WEBVTT\n\n1\n00:00:02.000 --> 00:00:03.500\n')).toBe(true);
      expect(r.text).toContain(`<i>film${i} line 2</i> of the film\nand its second line`);
    }
    // Converted on the event loop, one at a time, the loop would be held for a whole conversion at least (a quarter
    // of the time the four took; measured on the old code: 4.3 s of 4.4 s, the probes starved). On the worker the
    // longest round is a small part of it (0.05-0.4 s of ~5 s on a loaded machine).
    expect(probes).toBeGreaterThan(4);
    expect(stall).toBeLessThan(elapsed / 5);
    expect(subtitleStats().started - before).toBe(4);
  }, 60_000);

  test('a second request is answered from the cache (no new conversion); a changed file is converted again', async () => {
    const first = await t.req('GET', '/api/subtitle/Big/film0.srt', { token: admin });
    const body = await first.text();
    const started = subtitleStats().started;
    const again = await t.req('GET', '/api/subtitle/Big/film0.srt', { token: admin });
    expect(await again.text()).toBe(body);
    expect(again.headers.get('etag')).toBe(first.headers.get('etag'));
    expect(subtitleStats().started).toBe(started);
    // Concurrent requests for one uncached file share one conversion.
    writeFileSync(join(t.root, 'Big', 'film0.srt'), SRT);
    const [a, b] = await Promise.all([0, 1].map(() => t.req('GET', '/api/subtitle/Big/film0.srt', { token: admin })));
    expect(await a!.text()).toContain('First line\nsecond line');
    expect(await b!.text()).toContain('First line\nsecond line');
    expect(subtitleStats().started).toBe(started + 1);
  }, 30_000);

  test('a client that goes away stops its conversion: the slot is free again at once', async () => {
    writeFileSync(join(t.root, 'Big', 'film9.srt'), bigSrt(10 * 1024 * 1024 - 4096, 'film9'));
    const ac = new AbortController();
    const started = subtitleStats().started;
    const pending = t.app.handle(new Request('http://localhost/api/subtitle/Big/film9.srt', { headers: { 'X-Auth': admin }, signal: ac.signal })).catch((e) => e);
    // Once its conversion is running, the client leaves.
    while (subtitleStats().started === started) await Bun.sleep(5);
    ac.abort();
    await pending;
    // The worker sees the stop flag within a chunk of cues and gives its slot back; nothing half-made was kept,
    // so the next request converts the file again (a finished conversion would have been answered from the cache).
    while (subtitleWorkStats().running > 0) await Bun.sleep(5);
    expect(subtitleStats().converting).toBe(0);
    const again = await t.req('GET', '/api/subtitle/Big/film9.srt', { token: admin });
    expect(again.status).toBe(200);
    expect(await again.text()).toContain('<i>film9 line 1</i>');
    expect(subtitleStats().started).toBe(started + 2);
  }, 30_000);
});
