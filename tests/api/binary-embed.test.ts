import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { Transformer } from '@napi-rs/image';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type RunningServer } from '../helpers/binary';
import { makeTestApp, type TestApp } from '../helpers/test-app';

// What the executable embeds, used through a child server (with FILEDECK_BIN set, the compiled binary):
// - its work worker loads the @napi-rs/image add-on from /$bunfs. How the binary is compiled (bytecode, module
//   format) decides whether that load works, and only a real resize shows it: a broken load is a 500 here;
// - web assets are embedded only pre-compressed when they have a .gz twin (scripts/build.ts), so a client that
//   accepts no encoding must still get the same bytes as one that takes br or gzip.

let t: TestApp;
let token: string;
let work: string;
let server: RunningServer;

beforeAll(async () => {
  t = await makeTestApp();
  token = await t.adminToken();
  work = mkdtempSync(join(tmpdir(), 'filedeck-binprev-'));
  const gray = Buffer.alloc(2000 * 1500 * 4, 128);
  writeFileSync(join(t.root, 'photo.jpg'), await Transformer.fromRgbaPixels(gray, 2000, 1500).jpeg(80));
  server = await startServer(['-d', t.database, '-r', t.root, '--log', ''], { cwd: work });
});
afterAll(async () => {
  await server?.stop();
  await t?.close();
  rmSync(work, { recursive: true, force: true });
});

async function preview(size: 'thumb' | 'big'): Promise<{ status: number; type: string | null; width: number; height: number }> {
  const r = await fetch(`${server.url}/api/preview/${size}/photo.jpg`, { headers: { 'X-Auth': token }, signal: AbortSignal.timeout(20_000) });
  const body = new Uint8Array(await r.arrayBuffer());
  if (r.status !== 200) return { status: r.status, type: r.headers.get('content-type'), width: 0, height: 0 };
  const meta = await new Transformer(body).metadata();
  return { status: r.status, type: r.headers.get('content-type'), width: meta.width, height: meta.height };
}

describe('the executable resizes images on its worker threads', () => {
  test('a 2000x1500 JPEG gives a 256x256 thumbnail and a 1080-px preview', async () => {
    expect(await preview('thumb')).toEqual({ status: 200, type: 'image/jpeg', width: 256, height: 256 });
    expect(await preview('big')).toEqual({ status: 200, type: 'image/jpeg', width: 1080, height: 810 });
  });
});

describe('the embedded web app answers in every encoding', () => {
  test('the first-load script and stylesheet are the same bytes identity, gzip and br', async () => {
    const html = await (await fetch(`${server.url}/`)).text();
    const urls = [...html.matchAll(/(?:src|href)="([^"]*\/static\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]!);
    if (!html.includes('<div id="root">')) return; // sources without a web build: nothing embedded to check
    expect(urls.length).toBeGreaterThanOrEqual(2);
    for (const u of urls) {
      const url = new URL(u, server.url).href;
      const bodies: string[] = [];
      for (const enc of ['identity', 'gzip', 'br']) {
        // Bun's fetch decodes gzip and br bodies itself; the header says what the server chose.
        const r = await fetch(url, { headers: { 'Accept-Encoding': enc } });
        expect(r.status).toBe(200);
        expect(r.headers.get('content-type')).toMatch(u.endsWith('.js') ? /javascript/ : /text\/css/);
        expect(r.headers.get('content-encoding') ?? 'identity').toBe(enc);
        bodies.push(await r.text());
      }
      expect(bodies[0]!.length).toBeGreaterThan(100);
      expect(bodies[1]).toBe(bodies[0]!);
      expect(bodies[2]).toBe(bodies[0]!);
    }
  });
});
