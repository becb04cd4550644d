import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeTestApp, type TestApp } from '../helpers/test-app';

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
