import { afterEach, describe, expect, test } from 'bun:test';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServices } from '../../server/app';
import { silentLogger } from '../../server/core/log';
import { LOGIN_PER_ADDRESS_USER, LOGIN_PER_USER, SHARE_PER_LINK, CURRENT_PASSWORD_PER_USER } from '../../server/services/auth/limits';
import { ADMIN_PASSWORD, USER_PASSWORD, makeTestApp, type TestApp } from '../helpers/test-app';

let t: TestApp;
afterEach(() => t?.close());

const statuses = (rs: Response[]) => {
  const n: Record<number, number> = {};
  for (const r of rs) n[r.status] = (n[r.status] ?? 0) + 1;
  return n;
};

/** Error code of a rejected service call, or 'ok'. */
const outcome = (p: Promise<unknown>) => p.then(() => 'ok', (e) => (e as { code?: string }).code ?? String(e));

describe('rate limits count first (concurrent attempts are each counted)', () => {
  test('50 parallel wrong logins: at most the limit are checked, the rest are 429', async () => {
    t = await makeTestApp();
    const rs = await Promise.all(Array.from({ length: 50 }, (_, i) => t.req('POST', '/api/login', { body: { username: 'admin', password: `wrong-${i}` } })));
    const n = statuses(rs);
    expect(n[403]).toBe(LOGIN_PER_ADDRESS_USER.max);
    expect(n[429]).toBe(50 - LOGIN_PER_ADDRESS_USER.max);
    expect(Object.keys(n).sort()).toEqual(['403', '429']);
    // Refused attempts give their slots back, but the counted failures hold: the right password is refused too.
    expect((await t.req('POST', '/api/login', { body: { username: 'admin', password: ADMIN_PASSWORD } })).status).toBe(429);
  });

  test('30 parallel wrong share passwords: at most the limit are checked', async () => {
    t = await makeTestApp();
    mkdirSync(join(t.root, 'docs'), { recursive: true });
    writeFileSync(join(t.root, 'docs/a.txt'), 'alpha');
    const admin = await t.adminToken();
    const { hash } = (await (await t.req('POST', '/api/share/docs/a.txt', { token: admin, body: { password: 'right' } })).json()) as { hash: string };
    const rs = await Promise.all(Array.from({ length: 30 }, (_, i) => t.req('GET', `/api/public/share/${hash}`, { headers: { 'X-SHARE-PASSWORD': `w${i}` } })));
    const n = statuses(rs);
    expect(n[401]).toBe(SHARE_PER_LINK.max);
    expect(n[429]).toBe(30 - SHARE_PER_LINK.max);
  });

  test('20 parallel wrong current passwords: at most the limit are checked, then even the right one waits', async () => {
    t = await makeTestApp();
    const bob = await t.userToken('bob');
    const change = (current: string) => t.req('PUT', '/api/users/2', { token: bob, body: { what: 'user', which: ['password'], current_password: current, data: { id: 2, password: 'a-new-long-password-991' } } });
    // A right current password gives its slot back.
    expect((await change(USER_PASSWORD)).status).toBe(200);
    const token = await t.login('bob', 'a-new-long-password-991');
    const del = (current: string) => t.req('DELETE', '/api/users/2', { token, body: { current_password: current } });
    const rs = await Promise.all(Array.from({ length: 20 }, (_, i) => del(`wrong-${i}`)));
    const n = statuses(rs);
    expect(n[429]).toBe(20 - CURRENT_PASSWORD_PER_USER.max);
    expect(20 - (n[429] ?? 0)).toBe(CURRENT_PASSWORD_PER_USER.max);
    expect((await del('a-new-long-password-991')).status).toBe(429);
  });

  test('a flood from many addresses backs one username off, but not from an address its owner used', async () => {
    t = await makeTestApp();
    const auth = t.s.auth;
    expect(await outcome(auth.loginWithPassword('admin', ADMIN_PASSWORD, '10.0.0.1'))).toBe('ok'); // the owner's address
    const flood = await Promise.all(Array.from({ length: LOGIN_PER_USER.max + 20 }, (_, i) => outcome(auth.loginWithPassword('Admin', 'guess', `198.51.${i >> 8}.${i & 255}`))));
    expect(flood.filter((o) => o === 'FORBIDDEN').length).toBe(LOGIN_PER_USER.max);
    expect(flood.filter((o) => o === 'RATE_LIMITED').length).toBe(20);
    // A new address waits; the owner's known address still gets in (and clears the backoff).
    expect(await outcome(auth.loginWithPassword('admin', ADMIN_PASSWORD, '203.0.113.9'))).toBe('RATE_LIMITED');
    expect(await outcome(auth.loginWithPassword('admin', ADMIN_PASSWORD, '10.0.0.1'))).toBe('ok');
    expect(await outcome(auth.loginWithPassword('admin', ADMIN_PASSWORD, '203.0.113.9'))).toBe('ok');
  });

  test('counters are rows: a second process on the same database sees the first one\'s failures', async () => {
    t = await makeTestApp();
    const other = await createServices(t.s.config, silentLogger);
    try {
      const both = [t.s.auth, other.auth];
      const rs = await Promise.all(Array.from({ length: 30 }, (_, i) => outcome(both[i % 2]!.loginWithPassword('admin', `w${i}`, '192.0.2.7'))));
      expect(rs.filter((o) => o === 'FORBIDDEN').length).toBe(LOGIN_PER_ADDRESS_USER.max);
      expect(await outcome(other.auth.loginWithPassword('admin', ADMIN_PASSWORD, '192.0.2.7'))).toBe('RATE_LIMITED');
    } finally {
      await other.close();
    }
  });
});
