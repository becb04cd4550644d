import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { ADMIN_PASSWORD, USER_PASSWORD, makeTestApp, type TestApp } from '../helpers/test-app';
import { runScenarios } from '../helpers/scenario';
import { SoftAuthenticator } from '../helpers/soft-authenticator';

/**
 * Passkeys through the real app and a software authenticator (real ES256 signatures, CBOR attestation, counters):
 * registration, second factor, passwordless, and an attacker's variations (replay, wrong origin, counter going
 * back, another user's credential). The test app is reached at http://localhost: RP ID localhost.
 */

const ORIGIN = 'http://localhost';

async function json(r: Response): Promise<any> {
  const text = await r.text();
  try {
    return JSON.parse(text);
  } catch {
    throw new Error(`not JSON (${r.status}): ${text}`);
  }
}

/** A user with one registered passkey: their token and authenticator. */
async function withPasskey(t: TestApp, name: string): Promise<{ token: string; soft: SoftAuthenticator; id: string }> {
  const token = await t.userToken(name);
  const soft = new SoftAuthenticator(ORIGIN);
  const { challengeId, options } = await json(await t.req('POST', '/api/account/passkeys/options', { token }));
  expect(options).toMatchObject({ rp: { id: 'localhost' }, authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' } });
  const r = await t.req('POST', '/api/account/passkeys', { token, body: { challengeId, response: await soft.create(options), name: `${name}'s laptop` } });
  expect(r.status).toBe(201);
  const info = await json(r);
  expect(info).toMatchObject({ name: `${name}'s laptop`, lastUsedAt: null });
  return { token, soft, id: info.id };
}

const passwordless = async (t: TestApp) => json(await t.req('POST', '/api/login/passkey/options'));
const answer = (t: TestApp, challengeId: string, response: unknown, ticket?: string) => t.req('POST', '/api/login/passkey', { body: { challengeId, response, ...(ticket ? { ticket } : {}) } });

describe('passkeys', () => {
  let t: TestApp;
  beforeEach(async () => (t = await makeTestApp()));
  afterEach(() => t.close());

  test('registered, listed; the password login then asks for it as a second factor', async () => {
    const bob = await withPasskey(t, 'bob');
    expect((await json(await t.req('GET', '/api/account/factors', { token: bob.token }))).passkeys).toHaveLength(1);
    const login = await t.req('POST', '/api/login', { body: { username: 'bob', password: USER_PASSWORD } });
    expect(login.status).toBe(401);
    const step = await json(login);
    expect(step).toMatchObject({ step: 'second-factor', methods: ['passkey'] });
    const { challengeId, options } = await json(await t.req('POST', '/api/login/passkey/options', { body: { ticket: step.ticket } }));
    expect(options).toMatchObject({ rpId: 'localhost', userVerification: 'preferred', allowCredentials: [{ id: bob.id }] });
    // The ticket must go with the challenge it was made for.
    const r = await answer(t, challengeId, await bob.soft.get(options), step.ticket);
    expect(r.status).toBe(200);
    const sessions = await t.s.auth.sessions((await t.s.stores.users.byUsername('bob'))!.id);
    expect(sessions.map((s) => s.method).sort()).toEqual(['password', 'password']);
    expect((await json(await t.req('GET', '/api/account/factors', { token: await r.text() }))).passkeys[0].lastUsedAt).toBeNumber();
  });

  test('passwordless: a discoverable passkey signs in alone, with user verification; the session says passkey', async () => {
    const bob = await withPasskey(t, 'bob');
    const { challengeId, options } = await passwordless(t);
    expect(options).toMatchObject({ rpId: 'localhost', userVerification: 'required' });
    expect(options.allowCredentials ?? []).toEqual([]);
    const r = await answer(t, challengeId, await bob.soft.get(options));
    expect(r.status).toBe(200);
    const sessions = await t.s.auth.sessions((await t.s.stores.users.byUsername('bob'))!.id);
    expect(sessions.map((s) => s.method)).toContain('passkey');
    // Without user verification the passwordless login is refused.
    bob.soft.userVerification = false;
    const next = await passwordless(t);
    expect((await answer(t, next.challengeId, await bob.soft.get(next.options))).status).toBe(403);
    expect((await t.s.audit.list({ action: 'login.passkey' })).entries.map((e) => e.outcome).sort()).toEqual(['failed', 'ok']);
  });

  test('a replayed assertion is refused (same challenge: used up; new challenge: signed for the old one)', async () => {
    const bob = await withPasskey(t, 'bob');
    const first = await passwordless(t);
    const response = await bob.soft.get(first.options);
    expect((await answer(t, first.challengeId, response)).status).toBe(200);
    expect((await answer(t, first.challengeId, response)).status).toBe(401);
    const second = await passwordless(t);
    const replayed = await answer(t, second.challengeId, response);
    expect(replayed.status).toBe(403);
    expect(await replayed.text()).toMatch(/challenge/i);
  });

  test('an assertion made for another origin is refused, at login and at registration', async () => {
    const bob = await withPasskey(t, 'bob');
    const { challengeId, options } = await passwordless(t);
    const evil = await answer(t, challengeId, await bob.soft.get(options, { origin: 'https://evil.example' }));
    expect(evil.status).toBe(403);
    expect(await evil.text()).toMatch(/origin/i);
    const reg = await json(await t.req('POST', '/api/account/passkeys/options', { token: bob.token }));
    const made = await bob.soft.create(reg.options, { origin: 'https://evil.example' });
    expect((await t.req('POST', '/api/account/passkeys', { token: bob.token, body: { challengeId: reg.challengeId, response: made, name: 'x' } })).status).toBe(403);
  });

  test('a counter that goes backwards is refused (a cloned authenticator)', async () => {
    const bob = await withPasskey(t, 'bob');
    const a = await passwordless(t);
    expect((await answer(t, a.challengeId, await bob.soft.get(a.options, { counter: 5 }))).status).toBe(200);
    const b = await passwordless(t);
    const back = await answer(t, b.challengeId, await bob.soft.get(b.options, { counter: 3 }));
    expect(back.status).toBe(403);
    expect(await back.text()).toMatch(/counter/i);
    const c = await passwordless(t);
    expect((await answer(t, c.challengeId, await bob.soft.get(c.options, { counter: 6 }))).status).toBe(200);
  });

  test("another user's credential is refused as a second factor", async () => {
    await withPasskey(t, 'bob');
    const alice = await withPasskey(t, 'alice');
    const step = await json(await t.req('POST', '/api/login', { body: { username: 'bob', password: USER_PASSWORD } }));
    const { challengeId, options } = await json(await t.req('POST', '/api/login/passkey/options', { body: { ticket: step.ticket } }));
    const forged = await alice.soft.get(options, { credential: alice.soft.credentials[0] });
    const refused = await answer(t, challengeId, forged, step.ticket);
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain('another account');
    // A passwordless challenge answered with a second-factor ticket it was not made for.
    const pw = await passwordless(t);
    expect((await answer(t, pw.challengeId, await alice.soft.get(pw.options), step.ticket)).status).toBe(400);
  });

  test('passkey assertions are rate-limited per address (429 even for a right one), and audited once limited', async () => {
    const bob = await withPasskey(t, 'bob');
    for (let i = 0; i < 20; i++) {
      const { challengeId } = await passwordless(t);
      expect((await answer(t, challengeId, { id: 'not-a-registered-passkey', response: {} })).status).toBe(403);
    }
    const { challengeId, options } = await passwordless(t);
    const limited = await answer(t, challengeId, await bob.soft.get(options));
    expect(limited.status).toBe(429);
    expect((await t.s.audit.list({ action: 'login.passkey' })).entries.map((e) => e.outcome)).toContain('limited');
  });

  test('rename and remove are the owner\'s; admin reset removes passkeys too', async () => {
    const bob = await withPasskey(t, 'bob');
    const alice = await withPasskey(t, 'alice');
    expect((await t.req('PATCH', `/api/account/passkeys/${bob.id}`, { token: alice.token, body: { name: 'mine now' } })).status).toBe(404);
    expect((await t.req('DELETE', `/api/account/passkeys/${bob.id}`, { token: alice.token })).status).toBe(404);
    expect((await t.req('PATCH', `/api/account/passkeys/${bob.id}`, { token: bob.token, body: { name: 'Work key' } })).status).toBe(204);
    expect((await json(await t.req('GET', '/api/account/factors', { token: bob.token }))).passkeys[0].name).toBe('Work key');
    expect((await t.req('DELETE', `/api/account/passkeys/${alice.id}`, { token: alice.token })).status).toBe(204);
    const bobId = (await t.s.stores.users.byUsername('bob'))!.id;
    expect((await t.req('DELETE', `/api/users/${bobId}/factors`, { token: await t.adminToken() })).status).toBe(204);
    const { challengeId, options } = await passwordless(t);
    expect((await answer(t, challengeId, await bob.soft.get(options))).status).toBe(403);
  });

  test("a deleted user's passkeys, TOTP, recovery codes and tickets go with them", async () => {
    await withPasskey(t, 'bob');
    const bobId = (await t.s.stores.users.byUsername('bob'))!.id;
    await t.req('POST', '/api/login', { body: { username: 'bob', password: USER_PASSWORD } }); // a ticket
    const count = async (table: string) => Number((await t.s.db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table} WHERE user_id = ?`, bobId))!.n);
    expect(await count('passkeys')).toBe(1);
    expect(await count('login_tickets')).toBeGreaterThan(0);
    expect((await t.req('DELETE', `/api/users/${bobId}`, { token: await t.adminToken(), body: { current_password: ADMIN_PASSWORD } })).status).toBeLessThan(300);
    for (const table of ['passkeys', 'login_tickets', 'user_factors', 'recovery_codes']) expect(await count(table)).toBe(0);
  });

  test('the same credential cannot be registered twice; a registration challenge works once', async () => {
    const bob = await withPasskey(t, 'bob');
    const reg = await json(await t.req('POST', '/api/account/passkeys/options', { token: bob.token }));
    expect(reg.options.excludeCredentials).toEqual([expect.objectContaining({ id: bob.id })]);
    const made = await bob.soft.create(reg.options);
    expect((await t.req('POST', '/api/account/passkeys', { token: bob.token, body: { challengeId: reg.challengeId, response: made, name: 'two' } })).status).toBe(201);
    expect((await t.req('POST', '/api/account/passkeys', { token: bob.token, body: { challengeId: reg.challengeId, response: made, name: 'three' } })).status).toBe(401);
  });
});

describe('passkeys: configured relying party', () => {
  test('webauthnOrigin sets the RP ID and the origin every answer must carry', async () => {
    const t = await makeTestApp({ webauthnOrigin: 'https://files.example.com' });
    try {
      const token = await t.userToken('bob');
      const reg = await json(await t.req('POST', '/api/account/passkeys/options', { token }));
      expect(reg.options.rp.id).toBe('files.example.com');
      const local = new SoftAuthenticator(ORIGIN);
      expect((await t.req('POST', '/api/account/passkeys', { token, body: { challengeId: reg.challengeId, response: await local.create(reg.options), name: 'x' } })).status).toBe(403);
      const right = new SoftAuthenticator('https://files.example.com');
      const again = await json(await t.req('POST', '/api/account/passkeys/options', { token }));
      expect((await t.req('POST', '/api/account/passkeys', { token, body: { challengeId: again.challengeId, response: await right.create(again.options), name: 'x' } })).status).toBe(201);
    } finally {
      await t.close();
    }
  });
});

runScenarios('passkeys: refusals', async (t) => ({ bob: await t.userToken('bob') }), [
  { name: 'registration options need a login', as: 'anon', method: 'POST', url: '/api/account/passkeys/options', status: 401 },
  { name: 'register with an unknown challenge', as: 'bob', method: 'POST', url: '/api/account/passkeys', body: { challengeId: 'nope', response: { id: 'abc' }, name: 'x' }, status: 401 },
  { name: 'register without a credential', as: 'bob', method: 'POST', url: '/api/account/passkeys', body: { challengeId: 'nope', response: 'x', name: 'x' }, status: 400 },
  { name: 'register with a bad name', as: 'bob', method: 'POST', url: '/api/account/passkeys', body: { challengeId: 'nope', response: { id: 'abc' }, name: '\u0007' }, status: 400 },
  { name: 'login with an unknown challenge', as: 'anon', method: 'POST', url: '/api/login/passkey', body: { challengeId: 'nope', response: { id: 'abc' } }, status: 401 },
  { name: 'options with an unknown ticket', as: 'anon', method: 'POST', url: '/api/login/passkey/options', body: { ticket: 'nope' }, status: 401 },
  { name: 'options with a malformed body', as: 'anon', method: 'POST', url: '/api/login/passkey/options', body: '{', status: 400 },
  { name: 'passwordless options without a body', as: 'anon', method: 'POST', url: '/api/login/passkey/options', status: 200, contains: 'challengeId' },
], { shared: true });
