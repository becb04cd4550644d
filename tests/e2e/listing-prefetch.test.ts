import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page, Request } from 'playwright-core';
import { closeSession, newPage, openSession, workspace, type Session } from './browser';

// The first listing's early request (web/boot/listing-prefetch.ts, web/api/prefetch.ts): sent before the app has
// loaded, used by the listing in place of its own request, and only by a session started from the token it carried.
const ws = workspace('filedeck-e2e-prefetch-');
const PW = 'prefetch-admin-password-5';
const ODD = 'Ünï (1) #x&y';
let s: Session | undefined;

beforeAll(async () => {
  for (const [dir, prefix] of [['Docs', 'note'], [ODD, 'odd']] as const) {
    mkdirSync(join(ws.root, dir), { recursive: true });
    for (let i = 0; i < 30; i++) writeFileSync(join(ws.root, dir, `${prefix}-${i}.txt`), 'x');
  }
  s = await openSession(ws, PW);
}, 60_000);
afterAll(() => closeSession(ws, s));

/** The API requests a page sends from now on, in order (method and path). */
function record(p: Page): string[] {
  const seen: string[] = [];
  p.on('request', (r: Request) => {
    const u = new URL(r.url());
    if (u.pathname.startsWith('/api/')) seen.push(`${r.method()} ${decodeURIComponent(u.pathname)}`);
  });
  return seen;
}

async function openInNewPage(path: string, token?: string): Promise<{ p: Page; seen: string[]; errors: string[]; close: () => Promise<void> }> {
  const { context, page: p } = await newPage(s!.browser);
  const stored = token ?? (await s!.page.evaluate(() => localStorage.getItem('jwt')));
  await context.addInitScript(`localStorage.setItem('jwt', ${JSON.stringify(stored)});`);
  const seen = record(p);
  const errors: string[] = [];
  p.on('pageerror', (e) => errors.push(e.message));
  await p.goto(`${s!.server.url}${path}`);
  return { p, seen, errors, close: () => context.close() };
}

describe('the first listing asked for early', () => {
  test('a folder opened by its address is asked for once, before the session renewal, and shown from that answer', async () => {
    const { p, seen, errors, close } = await openInNewPage('/files/Docs/');
    await p.waitForSelector('[data-testid=item][data-name="note-0.txt"]');
    await p.waitForFunction(() => document.querySelector('[data-testid=item-count]')?.getAttribute('data-count') === '30');
    const listings = seen.filter((r) => r.startsWith('GET /api/resources/'));
    expect(listings).toEqual(['GET /api/resources/Docs/']);
    expect(seen.indexOf('GET /api/resources/Docs/')).toBeLessThan(seen.indexOf('POST /api/renew'));
    expect(errors).toEqual([]);
    await close();
  });

  test('a name that needs encoding (spaces, #, &, parentheses, non-ASCII) is still asked for once', async () => {
    const { p, seen, errors, close } = await openInNewPage(`/files/${encodeURIComponent(ODD)}/`);
    await p.waitForSelector('[data-testid=item][data-name="odd-29.txt"]');
    expect(seen.filter((r) => r.startsWith('GET /api/resources/'))).toEqual([`GET /api/resources/${ODD}/`]);
    expect(errors).toEqual([]);
    await close();
  });

  test('a stale stored token: the early answer (401) is not used, the login page shows, nothing throws', async () => {
    // A token of a session that has ended: logged in, then logged out.
    const res = await fetch(`${s!.server.url}/api/login`, { method: 'POST', body: JSON.stringify({ username: 'admin', password: PW }) });
    const stale = await res.text();
    expect((await fetch(`${s!.server.url}/api/logout`, { method: 'POST', headers: { 'X-Auth': stale } })).status).toBeLessThan(300);
    const { p, seen, errors, close } = await openInNewPage('/files/Docs/', stale);
    await p.waitForSelector('input[name=username]');
    expect(seen.filter((r) => r.startsWith('GET /api/resources/'))).toEqual(['GET /api/resources/Docs/']);
    expect(errors).toEqual([]);
    await close();
  });

  test('an address that is not a listing sends no early request', async () => {
    const { p, seen, close } = await openInNewPage('/settings/profile');
    await p.waitForSelector('#loading', { state: 'detached' });
    await p.waitForLoadState('networkidle');
    expect(seen.filter((r) => r.startsWith('GET /api/resources/'))).toEqual([]);
    await close();
  });

  test('the app lists another folder than the early request asked for: it asks for its own and shows that one', async () => {
    // The app's bundle is held back until the early request is out; the address then changes (as a redirect would),
    // so the first listing the app loads is not the one asked for early.
    const { context, page: p } = await newPage(s!.browser);
    const stored = await s!.page.evaluate(() => localStorage.getItem('jwt'));
    await context.addInitScript(`localStorage.setItem('jwt', ${JSON.stringify(stored)});`);
    let release = () => {};
    const gate = new Promise<void>((r) => (release = r));
    await context.route(/\/static\/chunk-[^/]*\.js$/, async (route) => {
      await gate;
      await route.continue();
    });
    const seen = record(p);
    await p.goto(`${s!.server.url}/files/${encodeURIComponent(ODD)}/`, { waitUntil: 'commit' });
    await p.waitForFunction(() => '__filedeckPrefetch' in globalThis);
    await p.evaluate(() => history.replaceState(null, '', '/files/Docs/'));
    release();
    await p.waitForSelector('[data-testid=item][data-name="note-0.txt"]');
    expect(await p.locator('[data-testid=item][data-name="odd-0.txt"]').count()).toBe(0);
    expect(seen.filter((r) => r.startsWith('GET /api/resources/'))).toEqual([`GET /api/resources/${ODD}/`, 'GET /api/resources/Docs/']);
    expect(await p.evaluate(() => (globalThis as Record<string, unknown>).__filedeckPrefetch)).toBeUndefined();
    await context.close();
  });
});
