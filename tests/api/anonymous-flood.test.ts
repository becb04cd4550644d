/**
 * Nothing anonymous grows state without bound (issue 32, item 4): floods of every anonymous endpoint (login,
 * signup, renew, public share password, public share pages and downloads) with 200 KB names and passwords, over a
 * real HTTP server on 127.0.0.1, leave the rate-limit and audit tables a small constant and the database (SQLite:
 * file + -wal; PostgreSQL: pg_total_relation_size) about where it was. Homes: auth.service.ts cappedCredentials
 * (caps before anything is written), limits.ts (per address first), rate-limiter.ts boundedKey and firstIn.
 */
import { afterEach, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LOGIN_PER_ADDRESS, SIGNUP_PER_ADDRESS } from '../../server/services/auth/limits';
import { listen, type Live } from '../helpers/transfer-fixture';
import { ADMIN_PASSWORD, makeTestApp, type TestApp } from '../helpers/test-app';

let t: TestApp;
let live: Live | null = null;
afterEach(async () => {
  await live?.stop();
  live = null;
  await t?.close();
});

const onPg = () => t.database.startsWith('postgres');
const big = (i: number, size = 200 * 1024) => `${i}-${'x'.repeat(size)}`;
const count = async (sql: string) => Number((await t.s.db.get<{ n: number }>(sql))!.n);

/** Rows and bytes the flood could grow. */
async function footprint() {
  const bytes = onPg()
    ? await count("SELECT pg_total_relation_size('rate_limits') + pg_total_relation_size('audit') + pg_total_relation_size('users') AS n")
    : [t.database, `${t.database}-wal`].reduce((n, f) => n + (existsSync(f) ? statSync(f).size : 0), 0);
  return {
    rateLimits: await count('SELECT count(*) AS n FROM rate_limits'),
    audit: await count('SELECT count(*) AS n FROM audit'),
    users: await count('SELECT count(*) AS n FROM users'),
    longestKey: await count('SELECT COALESCE(max(length(key)), 0) AS n FROM rate_limits'),
    bytes,
  };
}

/** Sends `n` requests, `parallel` at a time; answers the status counts. */
async function flood(n: number, send: (i: number) => Promise<Response>, parallel = 25): Promise<Record<number, number>> {
  const out: Record<number, number> = {};
  for (let i = 0; i < n; i += parallel) {
    const rs = await Promise.all(Array.from({ length: Math.min(parallel, n - i) }, (_, j) => send(i + j)));
    for (const r of rs) {
      out[r.status] = (out[r.status] ?? 0) + 1;
      await r.arrayBuffer();
    }
  }
  return out;
}

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(live!.url + path, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(body) });
const get = (path: string, headers: Record<string, string> = {}) => fetch(live!.url + path, { headers });

/** Growth allowed for the whole flood: what a few dozen small rows and the WAL's page turnover can take. */
const MAX_GROWTH = 4 * 1024 * 1024;

describe('anonymous floods leave the database bounded', () => {
  test('login: 200 KB names and passwords, names just over the cap, and many distinct short names', async () => {
    t = await makeTestApp();
    live = listen(t);
    const before = await footprint();
    const huge = await flood(200, (i) => post('/api/login', { username: big(i), password: big(i) }));
    const over = await flood(200, (i) => post('/api/login', { username: big(i, 2000), password: 'guess' }));
    const longPw = await flood(100, (i) => post('/api/login', { username: 'admin', password: big(i, 2000) }));
    const distinct = await flood(300, (i) => post('/api/login', { username: `name-${i}-\x1b[2K\r`, password: `guess-${i}` }));
    const after = await footprint();
    expect(after.bytes - before.bytes).toBeLessThan(MAX_GROWTH);
    // One address row, two per tried name (address+name, name), one "limited" note: a small constant.
    expect(after.rateLimits - before.rateLimits).toBeLessThanOrEqual(2 + 2 * LOGIN_PER_ADDRESS.max);
    expect(after.longestKey).toBeLessThanOrEqual(160);
    // Over the caps: refused before anything is written (413 past the body limit, 400 past the field caps).
    expect(Object.keys(huge).every((s) => s === '413' || s === '400')).toBe(true);
    expect(over).toEqual({ 400: 200 });
    expect(longPw).toEqual({ 400: 100 });
    // Under the caps: the address's limit is met first, so at most its allowance of names reach per-name rows.
    expect(distinct[403]).toBe(LOGIN_PER_ADDRESS.max);
    expect(distinct[429]).toBe(300 - LOGIN_PER_ADDRESS.max);
    // The failures that were checked, and one "limited" entry for the whole refused flood.
    expect(after.audit - before.audit).toBe(LOGIN_PER_ADDRESS.max + 1);
    const limited = await t.s.audit.list({ action: 'login', limit: 100 });
    expect(limited.entries.filter((e) => e.outcome === 'limited').length).toBe(1);
    // Failed names are recorded escaped, never raw.
    for (const e of limited.entries) expect(e.target).not.toMatch(/[\x00-\x1f\x7f]/);
    // The owner still gets in from another address (the flood bound only this one).
    expect((await t.s.auth.loginWithPassword('admin', ADMIN_PASSWORD, '203.0.113.5')).id).toBe(1);
  });

  test('signup: oversized and control-character names write nothing; valid names stop at the per-address allowance', async () => {
    t = await makeTestApp({}, { signup: true });
    live = listen(t);
    const before = await footprint();
    const huge = await flood(100, (i) => post('/api/signup', { username: big(i), password: big(i) }));
    const over = await flood(100, (i) => post('/api/signup', { username: big(i, 2000), password: 'a-long-enough-password-1' }));
    const control = await flood(100, (i) => post('/api/signup', { username: `eve${i}\x1b[2K\u202e`, password: 'a-long-enough-password-1' }));
    const valid = await flood(60, (i) => post('/api/signup', { username: `eve${i}`, password: 'a-long-enough-password-1' }), 10);
    const after = await footprint();
    expect(Object.keys(huge).every((s) => s === '413' || s === '400')).toBe(true);
    expect(over).toEqual({ 400: 100 });
    expect(control).toEqual({ 400: 100 });
    expect(valid).toEqual({ 200: SIGNUP_PER_ADDRESS.max, 429: 60 - SIGNUP_PER_ADDRESS.max });
    expect(after.users - before.users).toBe(SIGNUP_PER_ADDRESS.max);
    expect(after.audit - before.audit).toBe(SIGNUP_PER_ADDRESS.max); // one user.create each
    expect(after.rateLimits - before.rateLimits).toBe(1);
    expect(after.bytes - before.bytes).toBeLessThan(MAX_GROWTH);
  });

  test('renew, share passwords, share pages and downloads: 200 KB tokens, passwords and hashes write a bounded few rows', async () => {
    t = await makeTestApp();
    live = listen(t);
    mkdirSync(join(t.root, 'docs'), { recursive: true });
    writeFileSync(join(t.root, 'docs/a.txt'), 'alpha');
    const admin = await t.adminToken();
    const locked = (await (await t.req('POST', '/api/share/docs/a.txt', { token: admin, body: { password: 'right-password' } })).json()) as { hash: string };
    const open = (await (await t.req('POST', '/api/share/docs/a.txt', { token: admin, body: {} })).json()) as { hash: string };
    const before = await footprint();
    const renew = await flood(100, (i) => post('/api/renew', {}, { 'X-Auth': `e.${'A'.repeat(8000)}${i}.x` }));
    const unknown = await flood(100, (i) => get(`/api/public/share/${big(i, 8000)}`));
    // Headers past the server's limit are refused by it; under it, a long password is wrong without a hash.
    const hugePw = await flood(50, (i) => get(`/api/public/share/${locked.hash}`, { 'X-SHARE-PASSWORD': big(i) }));
    const longPw = await flood(100, (i) => get(`/api/public/share/${locked.hash}`, { 'X-SHARE-PASSWORD': big(i, 6000) }));
    const pages = await flood(100, (i) => get(`/api/public/${i % 2 ? 'dl' : 'share'}/${open.hash}?token=${'t'.repeat(6000)}`));
    const after = await footprint();
    expect(renew).toEqual({ 401: 100 });
    expect(unknown).toEqual({ 404: 100 });
    expect(Object.keys(hugePw).every((s) => Number(s) >= 400 && Number(s) < 500)).toBe(true);
    expect(Object.keys(longPw).sort()).toEqual(['401', '429']);
    expect(pages).toEqual({ 200: 100 });
    // The link's counter and the address's, nothing per password or per unknown hash.
    expect(after.rateLimits - before.rateLimits).toBeLessThanOrEqual(2);
    expect(after.longestKey).toBeLessThanOrEqual(160);
    // One "share.used" per link and address a minute, whatever the number of visits.
    expect(after.audit - before.audit).toBe(1);
    expect(after.bytes - before.bytes).toBeLessThan(MAX_GROWTH);
  });

  test('the limiter stores any key bounded: a 200 KB name from many addresses makes short keys', async () => {
    t = await makeTestApp();
    const name = big(1);
    const refused = await Promise.all(Array.from({ length: 20 }, (_, i) => t.s.auth.loginWithPassword(name, 'x', `198.51.100.${i}`).then(() => 'ok', (e) => e.code)));
    expect(new Set(refused)).toEqual(new Set(['INVALID']));
    expect(await count('SELECT count(*) AS n FROM rate_limits')).toBe(0);
    // Names at the cap, from addresses a proxy may pass as they came: keys stay short.
    const atCap = 'n'.repeat(500);
    await Promise.all(Array.from({ length: 5 }, (_, i) => t.s.auth.loginWithPassword(atCap, 'x', `${'a'.repeat(300)}${i}`).catch(() => {})));
    expect(await count('SELECT COALESCE(max(length(key)), 0) AS n FROM rate_limits')).toBeLessThanOrEqual(160);
    expect(await count('SELECT COALESCE(max(length(target)), 0) AS n FROM audit')).toBeLessThanOrEqual(131);
  });
});
