import { afterEach, describe, expect, test } from 'bun:test';
import type { SessionInfo } from '../../server/contract/accounts';
import { AccountSessions, publicSessionId } from '../../server/services/tokens/account-sessions';
import { userId } from '../helpers/files-fixture';
import { makeTestApp, tokenPayload, USER_PASSWORD, type TestApp } from '../helpers/test-app';

/**
 * The sessions page (issue 34, item 5): a user's sessions with how and from where they started, ending one, ending
 * the others, an admin ending anyone's, last seen written at most once a minute.
 */
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
const CHROME_MAC = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';

describe('sessions page', () => {
  let t: TestApp;
  afterEach(() => t?.close());

  const login = async (ua: string) => {
    const r = await t.req('POST', '/api/login', { body: { username: 'bob', password: USER_PASSWORD }, headers: { 'User-Agent': ua } });
    expect(r.status).toBe(200);
    return r.text();
  };
  const sessions = async (token: string) => {
    const r = await t.req('GET', '/api/account/sessions', { token });
    expect(r.status).toBe(200);
    return (await r.json()) as SessionInfo[];
  };
  const alive = async (token: string) => (await t.req('GET', '/api/resources/', { token })).status;

  test('lists each session with method, device, address and times; the current one marked; never the secret id', async () => {
    t = await makeTestApp();
    await t.userToken('bob');
    const a = await login(FIREFOX);
    const b = await login(CHROME_MAC);
    const list = await sessions(a);
    expect(list).toHaveLength(3); // userToken's own login, a, b
    const mine = list.find((s) => s.current)!;
    expect(mine).toMatchObject({ method: 'password', id: publicSessionId(tokenPayload(a).sid) });
    expect(mine.device).toContain('Firefox');
    expect(list.filter((s) => s.current)).toHaveLength(1);
    expect(list.find((s) => s.id === publicSessionId(tokenPayload(b).sid))!.device).toContain('Chrome');
    for (const s of list) {
      expect(typeof s.address).toBe('string');
      expect(s.lastSeenAt).toBeGreaterThanOrEqual(s.createdAt);
      expect(s.expiresAt).toBeGreaterThan(s.createdAt);
    }
    const text = JSON.stringify(list);
    for (const tok of [a, b]) expect(text).not.toContain(tokenPayload(tok).sid);
  });

  test('ending one session refuses its token at once; unknown and other users\' ids are 404', async () => {
    t = await makeTestApp();
    await t.userToken('bob');
    const a = await login(FIREFOX);
    const b = await login(CHROME_MAC);
    const carol = await t.userToken('carol');
    const bId = publicSessionId(tokenPayload(b).sid);
    expect(await alive(b)).toBe(200);
    expect((await t.req('DELETE', `/api/account/sessions/${bId}`, { token: carol })).status).toBe(404);
    expect((await t.req('DELETE', '/api/account/sessions/nope', { token: a })).status).toBe(404);
    expect((await t.req('DELETE', `/api/account/sessions/${bId}`, { token: a })).status).toBe(204);
    expect(await alive(b)).toBe(401);
    expect(await alive(a)).toBe(200);
    expect((await sessions(a)).map((s) => s.id)).not.toContain(bId);
    const audit = await t.s.db.all<{ target: string }>("SELECT target FROM audit WHERE action = 'sessions.end'");
    expect(audit.map((r) => r.target)).toContain('bob');
  });

  test('end-others keeps only the caller\'s session (and its renewal chain)', async () => {
    t = await makeTestApp();
    await t.userToken('bob');
    const a = await login(FIREFOX);
    const b = await login(CHROME_MAC);
    // a renewed: its successor and a (in its grace window) are one session, the current one.
    const renewed = await (await t.req('POST', '/api/renew', { token: a })).text();
    const list = await sessions(renewed);
    expect(list.filter((s) => s.current)).toHaveLength(1);
    expect(list).toHaveLength(3);
    const r = await t.req('POST', '/api/account/sessions/end-others', { token: renewed });
    expect(await r.json()).toEqual({ count: 2 });
    expect(await alive(b)).toBe(401);
    expect(await alive(renewed)).toBe(200);
    expect(await sessions(renewed)).toHaveLength(1);
  });

  test('admins list and end a user\'s sessions; users may not', async () => {
    t = await makeTestApp();
    const first = await t.userToken('bob');
    const a = await login(FIREFOX);
    const admin = await t.adminToken();
    const id = await userId(t, 'bob');
    expect((await t.req('GET', `/api/users/${id}/sessions`, { token: a })).status).toBe(403);
    expect((await t.req('DELETE', `/api/users/${id}/sessions`, { token: a })).status).toBe(403);
    const list = (await (await t.req('GET', `/api/users/${id}/sessions`, { token: admin })).json()) as SessionInfo[];
    expect(list).toHaveLength(2);
    expect(list.every((s) => !s.current)).toBe(true);
    expect((await t.req('DELETE', `/api/users/${id}/sessions/${publicSessionId(tokenPayload(a).sid)}`, { token: admin })).status).toBe(204);
    expect(await alive(a)).toBe(401);
    expect(await alive(first)).toBe(200);
    expect(await (await t.req('DELETE', `/api/users/${id}/sessions`, { token: admin })).json()).toEqual({ count: 1 });
    expect(await alive(first)).toBe(401);
    expect((await t.req('GET', '/api/users/999/sessions', { token: admin })).status).toBe(200);
    expect((await t.req('DELETE', '/api/users/999/sessions', { token: admin })).status).toBe(404);
    expect(await alive(admin)).toBe(200);
  });

  test('last seen: written at the first request, then at most once a minute', async () => {
    t = await makeTestApp();
    const token = await t.userToken('bob');
    const sid = tokenPayload(token).sid as string;
    const seen = async () => Number((await t.s.db.get<{ v: number }>('SELECT last_seen_at AS v FROM sessions WHERE id = ?', sid))!.v);
    await alive(token);
    const first = await seen();
    expect(first).toBeGreaterThan(0);
    await t.s.db.run('UPDATE sessions SET last_seen_at = 1 WHERE id = ?', sid);
    for (let i = 0; i < 5; i++) await alive(token);
    expect(await seen()).toBe(1); // no write within the minute
    // The throttle with a clock of its own: one write per minute, however many requests.
    let clock = 1_000_000;
    const page = new AccountSessions({ sessions: t.s.stores.sessions, users: t.s.stores.users, auth: t.s.auth, now: () => clock });
    await page.seen(sid);
    expect(await seen()).toBe(1_000_000);
    clock += 59_000;
    expect(page.seen(sid)).toBeUndefined();
    clock += 1_000;
    await page.seen(sid);
    expect(await seen()).toBe(1_060_000);
  });

  test('a session page request with an API token is refused', async () => {
    t = await makeTestApp();
    const bob = await t.userToken('bob', { download: true });
    const made = (await (await t.req('POST', '/api/account/tokens', { token: bob, body: { name: 's', perm: ['download'] } })).json()) as { token: string };
    expect((await t.req('GET', '/api/account/sessions', { token: made.token })).status).toBe(403);
    expect((await t.req('POST', '/api/account/sessions/end-others', { token: made.token })).status).toBe(403);
    expect(await alive(bob)).toBe(200);
  });
});
