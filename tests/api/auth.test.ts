import { afterEach, describe, expect, test } from 'bun:test';
import { SignJWT } from 'jose';
import { ADMIN_PASSWORD, USER_PASSWORD, makeTestApp, tokenPayload, type TestApp } from '../helpers/test-app';

let t: TestApp;
afterEach(() => t?.close());

describe('login', () => {
  test('returns a three-part token carrying the user object the client reads, no secrets', async () => {
    t = await makeTestApp();
    const r = await t.req('POST', '/api/login', { body: { username: 'admin', password: ADMIN_PASSWORD, recaptcha: '' } });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toContain('text/plain');
    const token = await r.text();
    expect(token.split('.')).toHaveLength(3);
    const p = tokenPayload(token);
    expect(p.user).toMatchObject({ id: 1, username: 'admin', locale: 'en', perm: { admin: true } });
    expect(p.user.password).toBeUndefined();
    expect(p.user.scope).toBeUndefined();
    expect(typeof p.sid).toBe('string');
    expect(p.exp - p.iat).toBe(2 * 3600);
  });

  test('wrong password and unknown user are both 403 with the same body', async () => {
    t = await makeTestApp();
    const a = await t.req('POST', '/api/login', { body: { username: 'admin', password: 'not-the-password' } });
    const b = await t.req('POST', '/api/login', { body: { username: 'nobody', password: 'not-the-password' } });
    expect([a.status, b.status]).toEqual([403, 403]);
    expect(await a.text()).toBe(await b.text());
  });

  test('malformed, empty and non-object bodies are 400; more than 1 MiB is 413', async () => {
    t = await makeTestApp();
    expect((await t.req('POST', '/api/login', { body: '{"username":' })).status).toBe(400);
    expect((await t.req('POST', '/api/login', { raw: '' })).status).toBe(400);
    expect((await t.req('POST', '/api/login', { body: '"admin"' })).status).toBe(400);
    const huge = JSON.stringify({ username: 'admin', password: 'x'.repeat(1024 * 1024 + 10) });
    const r = await t.req('POST', '/api/login', { body: huge });
    expect(r.status).toBe(413);
    // a chunked body without Content-Length is counted as it streams
    const stream = new ReadableStream({ start(c) { for (let i = 0; i < 20; i++) c.enqueue(new Uint8Array(100_000).fill(32)); c.close(); } });
    const r2 = await t.app.handle(new Request('http://localhost/api/login', { method: 'POST', body: stream, headers: { 'Content-Type': 'application/json' } }));
    expect(r2.status).toBe(413);
  });

  test('failed logins are rate-limited per username (then 429 with Retry-After, even with the right password)', async () => {
    t = await makeTestApp();
    for (let i = 0; i < 10; i++) expect((await t.req('POST', '/api/login', { body: { username: 'admin', password: `wrong-${i}` } })).status).toBe(403);
    const r = await t.req('POST', '/api/login', { body: { username: 'admin', password: ADMIN_PASSWORD } });
    expect(r.status).toBe(429);
    expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await r.text()).toContain('429 Too Many Requests');
  });

  test('failed logins are rate-limited per client address across usernames', async () => {
    t = await makeTestApp();
    for (let i = 0; i < 10; i++) await t.req('POST', '/api/login', { body: { username: `user${i}`, password: 'whatever-password' } });
    expect((await t.req('POST', '/api/login', { body: { username: 'admin', password: ADMIN_PASSWORD } })).status).toBe(429);
  });
});

describe('token transport', () => {
  test('X-Auth header, auth cookie on GET, never the cookie on POST, never ?auth= on ordinary API URLs', async () => {
    t = await makeTestApp();
    const token = await t.adminToken();
    expect((await t.req('GET', '/api/users', { token })).status).toBe(200);
    expect((await t.req('GET', '/api/users', { headers: { Cookie: `theme=x; auth=${token}` } })).status).toBe(200);
    expect((await t.req('POST', '/api/logout', { headers: { Cookie: `auth=${token}` } })).status).toBe(401);
    expect((await t.req('GET', `/api/users?auth=${token}`)).status).toBe(401);
    expect((await t.req('GET', '/api/users', { token: 'not-a-token' })).status).toBe(401);
    expect((await t.req('GET', '/api/users', { token: 'a.b.c' })).status).toBe(401);
  });

  test('tokens signed with another key, with alg none, without exp or expired are 401', async () => {
    t = await makeTestApp();
    const good = tokenPayload(await t.adminToken());
    const other = new TextEncoder().encode('x'.repeat(64));
    const key = t.s.settings.signingKey();
    const forged = await new SignJWT({ user: good.user, sid: good.sid }).setProtectedHeader({ alg: 'HS256' }).setIssuer('Filedeck').setIssuedAt().setExpirationTime('1h').sign(other);
    const none = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${Buffer.from(JSON.stringify({ ...good, exp: good.exp })).toString('base64url')}.`;
    const noExp = await new SignJWT({ user: good.user, sid: good.sid }).setProtectedHeader({ alg: 'HS256' }).setIssuer('Filedeck').setIssuedAt().sign(key);
    const expired = await new SignJWT({ user: good.user, sid: good.sid }).setProtectedHeader({ alg: 'HS256' }).setIssuer('Filedeck').setIssuedAt(Math.floor(Date.now() / 1000) - 7200).setExpirationTime(Math.floor(Date.now() / 1000) - 60).sign(key);
    const valid = await new SignJWT({ user: good.user, sid: good.sid }).setProtectedHeader({ alg: 'HS256' }).setIssuer('Filedeck').setIssuedAt().setExpirationTime('1h').sign(key);
    for (const tok of [forged, none, noExp, expired]) expect((await t.req('GET', '/api/users', { token: tok })).status).toBe(401);
    expect((await t.req('GET', '/api/users', { token: valid })).status).toBe(200); // the control: same claims, right key
  });

  test('a token naming another user than its session is 401', async () => {
    t = await makeTestApp();
    const bob = tokenPayload(await t.userToken('bob'));
    const key = t.s.settings.signingKey();
    const mixed = await new SignJWT({ user: { ...bob.user, id: 1 }, sid: bob.sid }).setProtectedHeader({ alg: 'HS256' }).setIssuer('Filedeck').setIssuedAt().setExpirationTime('1h').sign(key);
    expect((await t.req('GET', '/api/users', { token: mixed })).status).toBe(401);
  });
});

describe('renewal and revocation', () => {
  test('renew issues a new token, answers X-Renew-Token: false; with no grace window the predecessor ends at once', async () => {
    t = await makeTestApp({ tokenRenewGrace: '0' });
    const old = await t.adminToken();
    const r = await t.req('POST', '/api/renew', { token: old });
    expect(r.status).toBe(200);
    expect(r.headers.get('x-renew-token')).toBe('false');
    const fresh = await r.text();
    expect(fresh).not.toBe(old);
    expect((await t.req('GET', '/api/users', { token: fresh })).status).toBe(200);
    expect((await t.req('GET', '/api/users', { token: old })).status).toBe(401);
    expect((await t.req('POST', '/api/renew', { token: old })).status).toBe(401);
  });

  test('parallel renews of one token all succeed with the same successor; the predecessor works until the window ends', async () => {
    t = await makeTestApp({ tokenRenewGrace: '2s' });
    const old = await t.adminToken();
    const renews = await Promise.all(Array.from({ length: 6 }, () => t.req('POST', '/api/renew', { token: old })));
    expect(renews.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
    const tokens = new Set(await Promise.all(renews.map((r) => r.text())));
    expect(tokens.size).toBe(1);
    const [fresh] = [...tokens];
    expect(fresh).not.toBe(old);
    expect(tokenPayload(fresh!).sid).not.toBe(tokenPayload(old).sid);
    // Requests already sent with the old token still pass inside the window...
    expect((await t.req('GET', '/api/users', { token: old })).status).toBe(200);
    expect((await t.req('GET', '/api/users', { token: fresh })).status).toBe(200);
    // ...and not after it: neither a request nor a renew.
    await Bun.sleep(2100);
    expect((await t.req('GET', '/api/users', { token: old })).status).toBe(401);
    expect((await t.req('POST', '/api/renew', { token: old })).status).toBe(401);
    expect((await t.req('GET', '/api/users', { token: fresh })).status).toBe(200);
  });

  test('inside the window, logout of either token, or a password change, ends both', async () => {
    t = await makeTestApp({ tokenRenewGrace: '60s' });
    for (const who of ['successor', 'predecessor'] as const) {
      const old = await t.login('admin', ADMIN_PASSWORD);
      const fresh = await (await t.req('POST', '/api/renew', { token: old })).text();
      expect((await t.req('POST', '/api/logout', { token: who === 'successor' ? fresh : old })).status).toBe(200);
      for (const token of [old, fresh]) {
        expect([who, (await t.req('GET', '/api/users', { token })).status]).toEqual([who, 401]);
        expect([who, (await t.req('POST', '/api/renew', { token })).status]).toEqual([who, 401]);
      }
    }
    const bob = await t.userToken('bob');
    const bobFresh = await (await t.req('POST', '/api/renew', { token: bob })).text();
    const admin = await t.adminToken();
    const r = await t.req('PUT', '/api/users/2', { token: admin, body: { what: 'user', which: ['password'], current_password: ADMIN_PASSWORD, data: { id: 2, password: 'a-new-long-password-for-bob' } } });
    expect(r.status).toBe(200);
    for (const token of [bob, bobFresh]) expect((await t.req('POST', '/api/renew', { token })).status).toBe(401);
  });

  test('X-Renew-Token: true within an hour of expiry', async () => {
    t = await makeTestApp({ tokenExpirationTime: '30m' });
    const r = await t.req('GET', '/api/users', { token: await t.adminToken() });
    expect(r.headers.get('x-renew-token')).toBe('true');
  });

  test('X-Renew-Token: true after the user was updated, not before', async () => {
    t = await makeTestApp();
    const token = await t.userToken('bob');
    expect((await t.req('GET', '/api/users/2', { token })).headers.get('x-renew-token')).toBeNull();
    await Bun.sleep(1100); // token iat has one-second resolution
    await t.req('PUT', '/api/users/2', { token, body: { what: 'user', which: ['locale'], data: { id: 2, locale: 'de' } } });
    const r = await t.req('GET', '/api/users/2', { token });
    expect(r.status).toBe(200);
    expect(r.headers.get('x-renew-token')).toBe('true');
    const renewed = await (await t.req('POST', '/api/renew', { token })).text();
    expect(tokenPayload(renewed).user.locale).toBe('de');
  });

  test('logout ends the session at once', async () => {
    t = await makeTestApp();
    const token = await t.adminToken();
    expect((await t.req('POST', '/api/logout', { token })).status).toBe(200);
    expect((await t.req('GET', '/api/users', { token })).status).toBe(401);
  });

  test('a password change ends the other sessions but keeps the one that made it', async () => {
    t = await makeTestApp();
    const a = await t.userToken('bob');
    const b = await t.login('bob', USER_PASSWORD);
    const r = await t.req('PUT', '/api/users/2', { token: a, body: { what: 'user', which: ['password'], current_password: USER_PASSWORD, data: { id: 2, password: 'fresh-password-for-bob-1' } } });
    expect(r.status).toBe(200);
    expect((await t.req('GET', '/api/users/2', { token: a })).status).toBe(200);
    expect((await t.req('GET', '/api/users/2', { token: b })).status).toBe(401);
  });

  test('an admin changing a user\'s permissions or scope ends that user\'s sessions; a locale change does not', async () => {
    t = await makeTestApp();
    const bob = await t.userToken('bob');
    const admin = await t.adminToken();
    const put = (which: string[], data: Record<string, unknown>) => t.req('PUT', '/api/users/2', { token: admin, body: { what: 'user', which, current_password: ADMIN_PASSWORD, data: { id: 2, ...data } } });
    expect((await put(['locale'], { locale: 'de' })).status).toBe(200);
    expect((await t.req('GET', '/api/users/2', { token: bob })).status).toBe(200);
    const perm = { ...(await t.s.stores.users.byId(2))!.perm, delete: false };
    expect((await put(['perm'], { perm })).status).toBe(200);
    expect((await t.req('GET', '/api/users/2', { token: bob })).status).toBe(401);
    const bob2 = await t.login('bob', USER_PASSWORD);
    expect((await put(['scope'], { scope: '/elsewhere' })).status).toBe(200);
    expect((await t.req('GET', '/api/users/2', { token: bob2 })).status).toBe(401);
    expect((await t.req('GET', '/api/users', { token: admin })).status).toBe(200); // the admin's own session stays
  });

  test('a user keeps at most 50 sessions; the oldest ends first', async () => {
    t = await makeTestApp();
    const first = await t.adminToken();
    for (let i = 0; i < 50; i++) await t.login('admin', ADMIN_PASSWORD);
    expect((await t.s.stores.sessions.countForUser(1))).toBe(50);
    expect((await t.req('GET', '/api/users', { token: first })).status).toBe(401);
  });

  test('rule changes apply to the next request of a live token (compiled rules are reused only while unchanged)', async () => {
    t = await makeTestApp();
    const { mkdirSync } = await import('node:fs');
    mkdirSync(`${t.root}/secret`);
    mkdirSync(`${t.root}/open`);
    const bob = await t.userToken('bob');
    const names = async () => ((await (await t.req('GET', '/api/resources/', { token: bob })).json()) as { items: { name: string }[] }).items.map((i) => i.name).sort();
    expect(await names()).toEqual(['open', 'secret']);
    // Global rules written as the CLI would (no HTTP request): the next request sees them.
    await t.s.settings.update({ rules: [{ allow: false, regex: false, path: '/secret', regexp: null }] }, ['rules']);
    expect(await names()).toEqual(['open']);
    expect((await t.req('GET', '/api/resources/secret/', { token: bob })).status).toBe(403);
    await t.s.settings.update({ rules: [] }, ['rules']);
    expect(await names()).toEqual(['open', 'secret']);
    // The user's own rules changed in the store: same token, next request.
    const u = (await t.s.stores.users.byUsername('bob'))!;
    await t.s.stores.users.update({ ...u, rules: [{ allow: false, regex: false, path: '/open', regexp: null }] });
    expect(await names()).toEqual(['secret']);
    // And a session row deleted elsewhere ends the token at once.
    await t.s.stores.sessions.deleteForUser(u.id);
    expect((await t.req('GET', '/api/resources/', { token: bob })).status).toBe(401);
  });

  test('a deleted user\'s token is 401, not 500', async () => {
    t = await makeTestApp();
    const bob = await t.userToken('bob');
    await t.req('DELETE', '/api/users/2', { token: await t.adminToken(), body: { current_password: ADMIN_PASSWORD } });
    expect((await t.req('GET', '/api/users/2', { token: bob })).status).toBe(401);
    expect((await t.s.stores.sessions.countForUser(2))).toBe(0);
  });
});

describe('signup', () => {
  test('is off by default (405) and creates nothing', async () => {
    t = await makeTestApp();
    const r = await t.req('POST', '/api/signup', { body: { username: 'eve', password: 'eves-long-password-1' } });
    expect(r.status).toBe(405);
    expect((await t.s.stores.users.byUsername('eve'))).toBeNull();
  });

  test('when on, never grants admin or execute even if the defaults do', async () => {
    t = await makeTestApp({}, { signup: true, defaults: { perm: { admin: false, execute: true, create: true, rename: true, modify: true, delete: true, share: true, download: true }, commands: ['ls'] } });
    const r = await t.req('POST', '/api/signup', { body: { username: 'eve', password: 'eves-long-password-1', perm: { admin: true } } });
    expect(r.status).toBe(200);
    expect(await r.text()).toBe('200 OK\n');
    const u = (await t.s.stores.users.byUsername('eve'))!;
    expect(u.perm.admin).toBe(false);
    expect(u.perm.execute).toBe(false);
    expect(u.commands).toEqual([]);
    expect(await t.login('eve', 'eves-long-password-1')).toContain('.');
  });

  test('validates: duplicate 409, short 400 with message, common 400, missing fields 400', async () => {
    t = await makeTestApp({}, { signup: true });
    expect((await t.req('POST', '/api/signup', { body: { username: 'ADMIN', password: 'eves-long-password-1' } })).status).toBe(409);
    const short = await t.req('POST', '/api/signup', { body: { username: 'eve', password: 'short' } });
    expect([short.status, await short.text()]).toEqual([400, '400 Bad Request (password is too short, minimum length is 12)\n']);
    expect((await t.req('POST', '/api/signup', { body: { username: 'eve', password: 'passwordpassword' } })).status).toBe(400);
    expect((await t.req('POST', '/api/signup', { body: { username: '', password: 'eves-long-password-1' } })).status).toBe(400);
    expect((await t.req('POST', '/api/signup', { body: { username: 'eve' } })).status).toBe(400);
    expect((await t.s.stores.users.count())).toBe(1);
  });

  test('with createUserDir, each user gets a home folder and names that clean to the same folder collide (409)', async () => {
    t = await makeTestApp({}, { signup: true, createUserDir: true });
    expect((await t.req('POST', '/api/signup', { body: { username: 'ann.b', password: 'anns-long-password-1' } })).status).toBe(200);
    expect((await t.s.stores.users.byUsername('ann.b'))!.scope).toBe('/users/ann.b');
    const { statSync } = await import('node:fs');
    expect(statSync(`${t.root}/users/ann.b`).isDirectory()).toBe(true);
    const r = await t.req('POST', '/api/signup', { body: { username: 'ANN.B ', password: 'anns-long-password-2' } });
    expect(r.status).toBe(409);
    const r2 = await t.req('POST', '/api/signup', { body: { username: 'ann..b', password: 'anns-long-password-2' } });
    expect(r2.status).toBe(200); // "ann..b" cleans to "annb", a different folder
    expect((await t.s.stores.users.byUsername('ann..b'))!.scope).toBe('/users/annb');
    expect((await t.req('POST', '/api/signup', { body: { username: 'annb', password: 'anns-long-password-3' } })).status).toBe(409);
  });
});

describe('auth methods', () => {
  test('noauth logs everyone in as user 1 with an empty body', async () => {
    t = await makeTestApp();
    (await t.s.settings.update({ authMethod: 'noauth' }, ['authMethod']));
    const r = await t.req('POST', '/api/login', { raw: '' });
    expect(r.status).toBe(200);
    expect(tokenPayload(await r.text()).user.id).toBe(1);
  });

  test('proxy: the header is honoured only from a trusted proxy address', async () => {
    for (const trusted of [true, false]) {
      t = await makeTestApp(trusted ? { trustedProxies: '127.0.0.1' } : {});
      (await t.s.settings.update({ authMethod: 'proxy', authHeader: 'X-Remote-User' }, ['authMethod', 'authHeader']));
      const server = t.app.listen({ hostname: '127.0.0.1', port: 0 });
      try {
        const r = await fetch(`http://127.0.0.1:${server.server!.port}/api/login`, { method: 'POST', headers: { 'X-Remote-User': 'admin' } });
        if (trusted) {
          expect(r.status).toBe(200);
          expect(tokenPayload(await r.text()).user.username).toBe('admin');
          const n = await fetch(`http://127.0.0.1:${server.server!.port}/api/login`, { method: 'POST', headers: { 'X-Remote-User': 'newcomer' } });
          expect(n.status).toBe(200);
          const u = (await t.s.stores.users.byUsername('newcomer'))!;
          expect([u.perm.admin, u.perm.execute, u.lockPassword]).toEqual([false, false, true]);
        } else {
          expect(r.status).toBe(403);
          expect((await t.s.stores.users.count())).toBe(1);
        }
      } finally {
        await server.stop();
        t.close();
      }
    }
  });
});

describe('wire format', () => {
  test('unknown /api paths are 404 text, never the web app', async () => {
    t = await makeTestApp();
    for (const p of ['/api/nothing', '/api', '/api/users/1/extra']) {
      const r = await t.req('GET', p, { token: await t.adminToken() });
      expect(r.status).toBe(404);
      expect(await r.text()).toBe('404 Not Found\n');
    }
    expect((await t.req('DELETE', '/api/settings', { token: await t.adminToken() })).status).toBe(404);
  });

  test('health answers JSON', async () => {
    t = await makeTestApp();
    const r = await t.req('GET', '/health');
    expect(await r.json()).toEqual({ status: 'OK' });
  });

  test('baseURL prefixes every route, and the bare prefix redirects', async () => {
    t = await makeTestApp({ baseURL: '/fd/' });
    expect((await t.req('GET', '/health')).status).toBe(200); // req() adds the base
    const r = await t.app.handle(new Request('http://localhost/fd'));
    expect([r.status, r.headers.get('location')]).toEqual([301, '/fd/']);
    expect((await t.app.handle(new Request('http://localhost/fd/'))).status).not.toBe(301);
    expect((await t.app.handle(new Request('http://localhost/fd/files/a/'))).status).not.toBe(301);
    expect((await t.app.handle(new Request('http://localhost/api/users'))).status).toBe(404);
  });
});
