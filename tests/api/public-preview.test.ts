import { describe, expect } from 'bun:test';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Transformer } from '@napi-rs/image';
import { runScenarios, type Scenario, type ScenarioValues } from '../helpers/scenario';
import type { TestApp } from '../helpers/test-app';

/**
 * GET /api/public/preview/<size>/<hash>/<path> (issue 37, the share page's thumbnails): what a link reaches and
 * nothing else, through SharesService.open's visitor actor; the same answer and validators as /api/preview.
 */
const image = (w: number, h: number, kind: 'png' | 'jpeg') => {
  const px = new Uint8Array(w * h * 4).map((_, i) => (i % 4 === 3 ? 255 : (i * 7) % 251));
  const tr = Transformer.fromRgbaPixels(px, w, h);
  return kind === 'png' ? tr.png() : tr.jpeg(90);
};
const size = async (bytes: Uint8Array) => {
  const m = await new Transformer(Buffer.from(bytes)).metadata();
  return `${m.width}x${m.height}`;
};

const setup = async (t: TestApp): Promise<ScenarioValues> => {
  mkdirSync(join(t.root, 'bob/pics/sub'), { recursive: true });
  writeFileSync(join(t.root, 'bob/pics/photo.jpg'), await image(800, 600, 'jpeg'));
  writeFileSync(join(t.root, 'bob/pics/other.png'), await image(40, 30, 'png'));
  writeFileSync(join(t.root, 'bob/pics/sub/deep.jpg'), await image(600, 400, 'jpeg'));
  writeFileSync(join(t.root, 'bob/secret.jpg'), await image(300, 300, 'jpeg'));
  const bob = await t.userToken('bob', {}, { scope: '/bob' });
  const link = async (path: string, body: Record<string, unknown> = {}) => {
    const r = await t.req('POST', `/api/share${path}`, { token: bob, body });
    if (r.status !== 200) throw new Error(`share ${path}: ${r.status} ${await r.text()}`);
    return ((await r.json()) as { hash: string }).hash;
  };
  const v: ScenarioValues = {
    bob,
    folder: await link('/pics/'),
    file: await link('/pics/photo.jpg'),
    upload: await link('/pics/', { mode: 'upload' }),
    uploadView: await link('/pics/', { mode: 'upload-view' }),
    expired: await link('/pics/', { expires: 1, unit: 'hours' }),
    disabled: await link('/pics/'),
    pw: await link('/pics/', { password: 'open-sesame-42' }),
  };
  await t.s.db.run('UPDATE shares SET expire = ? WHERE hash = ?', Math.floor(Date.now() / 1000) - 10, v.expired);
  expect((await t.req('PATCH', `/api/share/${v.disabled}`, { token: bob, body: { disabled: true } })).status).toBe(200);
  v.pwToken = (await t.s.stores.shares.byHash(v.pw!))!.token;
  return v;
};
const at = (sz: string, link: string, path: string, query = '') => (_t: TestApp, v: ScenarioValues) => `/api/public/preview/${sz}/${v[link]}${path}${query}`;
const dims = (expected: string) => async (_t: TestApp, _r: Response, _x: string, bytes: Uint8Array) => void expect(await size(bytes)).toBe(expected);
const jpeg = { 'content-type': 'image/jpeg', etag: /^W\//, 'cache-control': 'private', 'last-modified': /GMT$/ };

describe('GET /api/public/preview', () => {
  const rows: Scenario[] = [
    { name: 'a thumbnail in a folder link: 256x256 JPEG with the validators of /api/preview', as: 'anon', method: 'GET', url: at('thumb', 'folder', '/photo.jpg'), status: 200, responseHeaders: jpeg, after: dims('256x256') },
    { name: 'a big preview', as: 'anon', method: 'GET', url: at('big', 'folder', '/photo.jpg'), status: 200, responseHeaders: { 'content-type': 'image/jpeg' }, after: dims('800x600') },
    { name: 'in a subfolder', as: 'anon', method: 'GET', url: at('thumb', 'folder', '/sub/deep.jpg'), status: 200, after: dims('256x256') },
    { name: 'a second ask with its ETag: 304', as: 'anon', method: 'GET', url: at('thumb', 'folder', '/photo.jpg'), status: 200,
      after: async (t, res, _x, _b, v) => {
        const again = await t.req('GET', `/api/public/preview/thumb/${v.folder}/photo.jpg`, { headers: { 'If-None-Match': res.headers.get('etag')! } });
        expect(again.status).toBe(304);
      } },
    { name: 'not counted as a download', as: 'anon', method: 'GET', url: at('thumb', 'folder', '/photo.jpg'), status: 200,
      after: async (t, _r, _x, _b, v) => void expect((await t.s.stores.shares.byHash(v.folder!))!.v2?.downloads ?? 0).toBe(0) },
    { name: 'a file link: its file', as: 'anon', method: 'GET', url: at('big', 'file', ''), status: 200, after: dims('800x600') },
    { name: 'a file link asked for a sibling: still only its file', as: 'anon', method: 'GET', url: at('big', 'file', '/other.png'), status: 200, after: dims('800x600') },
    { name: 'outside the folder (a path of the owner\'s scope): 404', as: 'anon', method: 'GET', url: at('thumb', 'folder', '/secret.jpg'), status: 404 },
    // URLs resolve "%2e%2e" as "..": this one names the link "secret.jpg", which does not exist.
    { name: 'an encoded ".." out of the folder reaches no link', as: 'anon', method: 'GET', url: at('thumb', 'folder', '/%2e%2e/secret.jpg'), status: 404 },
    { name: 'an encoded "/.." inside the path is refused', as: 'anon', method: 'GET', url: at('thumb', 'folder', '/sub%2f..%2f..%2fsecret.jpg'), status: 400 },
    { name: 'an upload-only link: 403', as: 'anon', method: 'GET', url: at('thumb', 'upload', '/photo.jpg'), status: 403 },
    { name: 'an upload-and-view link shows previews', as: 'anon', method: 'GET', url: at('thumb', 'uploadView', '/photo.jpg'), status: 200 },
    { name: 'an expired link: 404', as: 'anon', method: 'GET', url: at('thumb', 'expired', '/photo.jpg'), status: 404 },
    { name: 'a disabled link: 403', as: 'anon', method: 'GET', url: at('thumb', 'disabled', '/photo.jpg'), status: 403 },
    { name: 'a password link without the password or token: 401', as: 'anon', method: 'GET', url: at('thumb', 'pw', '/photo.jpg'), status: 401 },
    { name: 'a password link with a wrong token: 401', as: 'anon', method: 'GET', url: at('thumb', 'pw', '/photo.jpg', '?token=not-the-token'), status: 401 },
    { name: 'a password link with its token', as: 'anon', method: 'GET', url: (_t, v) => `/api/public/preview/thumb/${v.pw}/photo.jpg?token=${v.pwToken}`, status: 200 },
    { name: 'a password link with the password', as: 'anon', method: 'GET', url: at('thumb', 'pw', '/photo.jpg'), headers: { 'X-SHARE-PASSWORD': 'open-sesame-42' }, status: 200 },
    { name: 'not a preview size: 400', as: 'anon', method: 'GET', url: at('huge', 'folder', '/photo.jpg'), status: 400 },
    { name: 'an unknown link: 404', as: 'anon', method: 'GET', url: '/api/public/preview/thumb/nosuchlink00/photo.jpg', status: 404 },
    { name: 'a folder: no preview', as: 'anon', method: 'GET', url: at('thumb', 'folder', '/sub'), status: 501 },
  ];
  runScenarios('public previews', setup, rows, { shared: true, timeout: 30_000 });
});
