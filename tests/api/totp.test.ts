import { afterEach, beforeEach, describe, expect, setSystemTime, test } from 'bun:test';
import { Secret, TOTP } from 'otpauth';
import { USER_PASSWORD, makeTestApp, type TestApp } from '../helpers/test-app';
import { runScenarios } from '../helpers/scenario';
import { cli } from '../helpers/binary';

/**
 * TOTP and recovery codes through the real app: enrolment, the login's second step, no reuse of a code, the rate
 * limit on wrong codes, recovery codes, and the admin's reset and "required" flag. Time is frozen in the middle of
 * a 30 s step and moved on by whole steps, so each code is a fresh one when a test wants it.
 */

const code = (secret: string, at = Date.now()) => new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) }).generate({ timestamp: at });
const nextStep = () => setSystemTime(new Date(Date.now() + 30_000));

beforeEach(() => setSystemTime(new Date(Math.floor(Date.now() / 30_000) * 30_000 + 15_000)));
afterEach(() => setSystemTime());

async function json(r: Response): Promise<any> {
  const text = await r.text();
  try {
    return JSON.parse(text);
  } catch {
    throw new Error(`not JSON (${r.status}): ${text}`);
  }
}

/** bob with TOTP on: his token, secret and recovery codes. */
async function bobWithTotp(t: TestApp): Promise<{ token: string; secret: string; codes: string[]; id: number }> {
  const token = await t.userToken('bob');
  const enrol = await json(await t.req('POST', '/api/account/totp', { token }));
  expect(enrol.uri).toStartWith('otpauth://totp/');
  const confirmed = await t.req('POST', '/api/account/totp/confirm', { token, body: { code: code(enrol.secret) } });
  expect(confirmed.status).toBe(200);
  const { recoveryCodes } = await json(confirmed);
  nextStep(); // the confirming code's step is used up
  const id = (await t.s.stores.users.byUsername('bob'))!.id;
  return { token, secret: enrol.secret, codes: recoveryCodes, id };
}

async function passwordStep(t: TestApp, username = 'bob', password = USER_PASSWORD): Promise<any> {
  const r = await t.req('POST', '/api/login', { body: { username, password } });
  expect(r.status).toBe(401);
  return json(r);
}

const second = (t: TestApp, ticket: string, c: string, method = 'totp') => t.req('POST', '/api/login/second-factor', { body: { ticket, method, code: c } });

describe('TOTP', () => {
  let t: TestApp;
  beforeEach(async () => (t = await makeTestApp()));
  afterEach(() => t.close());

  test('enrol, then the login needs the second step; the session keeps the first factor', async () => {
    const bob = await bobWithTotp(t);
    expect(bob.codes).toHaveLength(10);
    expect(new Set(bob.codes).size).toBe(10);
    expect(await json(await t.req('GET', '/api/account/factors', { token: bob.token }))).toMatchObject({ totp: true, recoveryCodesLeft: 10, passkeys: [], required: false });
    const step = await passwordStep(t);
    expect(step).toMatchObject({ step: 'second-factor', methods: ['totp', 'recovery'] });
    const r = await second(t, step.ticket, code(bob.secret));
    expect(r.status).toBe(200);
    const token = await r.text();
    expect((await t.req('GET', '/api/account/factors', { token })).status).toBe(200);
    const sessions = await t.s.auth.sessions(bob.id);
    expect(sessions.map((x) => x.method)).toContain('password');
    // The ticket worked once.
    expect((await second(t, step.ticket, code(bob.secret, Date.now() + 30_000))).status).toBe(401);
  });

  test('a code is refused the second time, and an older step after a newer one', async () => {
    const bob = await bobWithTotp(t);
    const now = code(bob.secret);
    expect((await second(t, (await passwordStep(t)).ticket, now)).status).toBe(200);
    expect((await second(t, (await passwordStep(t)).ticket, now)).status).toBe(403);
    expect((await second(t, (await passwordStep(t)).ticket, code(bob.secret, Date.now() - 30_000))).status).toBe(403);
    expect((await second(t, (await passwordStep(t)).ticket, code(bob.secret, Date.now() + 30_000))).status).toBe(200);
  });

  test('five wrong codes end a ticket; wrong codes per user are rate-limited (429 even for a right code)', async () => {
    const bob = await bobWithTotp(t);
    const step = await passwordStep(t);
    for (let i = 0; i < 5; i++) expect((await second(t, step.ticket, '000000')).status).toBe(403);
    expect((await second(t, step.ticket, code(bob.secret))).status).toBe(401);
    const again = await passwordStep(t);
    for (let i = 0; i < 5; i++) expect((await second(t, again.ticket, '000001')).status).toBe(403);
    const third = await passwordStep(t);
    const limited = await second(t, third.ticket, code(bob.secret));
    expect(limited.status).toBe(429);
    expect(limited.headers.get('Retry-After')).toMatch(/^\d+$/);
    const entries = (await t.s.audit.list({ action: 'login.totp' })).entries.map((e) => e.outcome);
    expect(entries).toContain('failed');
    expect(entries).toContain('limited');
  });

  test('a ticket is bound to its address and lives five minutes', async () => {
    const bob = await bobWithTotp(t);
    const step = await passwordStep(t);
    // The app under test sees every request from 'local'; another address is the service asked directly.
    await expect(t.s.factors.secondFactor(step.ticket, 'totp', code(bob.secret), '192.0.2.9')).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    setSystemTime(new Date(Date.now() + 5 * 60_000 + 1000));
    expect((await second(t, step.ticket, code(bob.secret))).status).toBe(401);
    expect((await second(t, (await passwordStep(t)).ticket, code(bob.secret))).status).toBe(200);
  });

  test('a recovery code works once; regenerate replaces them all', async () => {
    const bob = await bobWithTotp(t);
    expect((await second(t, (await passwordStep(t)).ticket, bob.codes[0]!.toUpperCase(), 'recovery')).status).toBe(200);
    expect((await second(t, (await passwordStep(t)).ticket, bob.codes[0]!, 'recovery')).status).toBe(403);
    expect((await json(await t.req('GET', '/api/account/factors', { token: bob.token }))).recoveryCodesLeft).toBe(9);
    const fresh = await t.req('POST', '/api/account/recovery-codes', { token: bob.token, body: { code: code(bob.secret) } });
    expect(fresh.status).toBe(200);
    const { recoveryCodes } = await json(fresh);
    expect(recoveryCodes).toHaveLength(10);
    expect((await second(t, (await passwordStep(t)).ticket, bob.codes[1]!, 'recovery')).status).toBe(403);
    expect((await second(t, (await passwordStep(t)).ticket, recoveryCodes[0], 'recovery')).status).toBe(200);
  });

  test('disable with a code: the password alone signs in again', async () => {
    const bob = await bobWithTotp(t);
    expect((await t.req('DELETE', '/api/account/totp', { token: bob.token, body: { code: '123' } })).status).toBe(403);
    expect((await t.req('DELETE', '/api/account/totp', { token: bob.token, body: { code: code(bob.secret) } })).status).toBe(204);
    expect((await t.req('POST', '/api/login', { body: { username: 'bob', password: USER_PASSWORD } })).status).toBe(200);
    const audit = (await t.s.audit.list({ action: 'factors' })).entries.map((e) => `${e.action}:${e.outcome}`);
    expect(audit).toContain('factors.totp.disable:ok');
    expect(audit).toContain('factors.totp.enable:ok');
  });

  test('an API token cannot see or change second factors', async () => {
    const bob = await bobWithTotp(t);
    const made = await t.req('POST', '/api/account/tokens', { token: bob.token, body: { name: 'script', perm: [] } });
    expect(made.status).toBe(201);
    const api = { Authorization: `Bearer ${(await json(made)).token}` };
    expect((await t.req('GET', '/api/account/factors', { headers: api })).status).toBe(403);
    expect((await t.req('DELETE', '/api/account/totp', { headers: api, body: { code: code(bob.secret) } })).status).toBe(403);
    expect((await t.req('POST', '/api/account/passkeys/options', { headers: api })).status).toBe(403);
  });

  test('admin reset removes TOTP and recovery codes; the user signs in with the password', async () => {
    const bob = await bobWithTotp(t);
    expect((await t.req('DELETE', `/api/users/${bob.id}/factors`, { token: bob.token })).status).toBe(403);
    expect((await t.req('DELETE', `/api/users/${bob.id}/factors`, { token: await t.adminToken() })).status).toBe(204);
    expect(await json(await t.req('GET', `/api/users/${bob.id}/factors`, { token: await t.adminToken() }))).toMatchObject({ totp: false, recoveryCodesLeft: 0 });
    expect((await t.req('POST', '/api/login', { body: { username: 'bob', password: USER_PASSWORD } })).status).toBe(200);
    expect((await t.s.audit.list({ action: 'factors.reset' })).entries).toHaveLength(1);
  });

  test('the CLI shows, requires and resets a user\'s factors (the way back for a locked-out admin)', async () => {
    await bobWithTotp(t);
    // The clock of this test is frozen; the CLI runs on the real one and reads no code.
    const fd = (...args: string[]) => cli(['-d', t.database, '-r', t.root, ...args]);
    const shown = await fd('factors', 'show', 'bob', '--json');
    expect(shown.code).toBe(0);
    expect(JSON.parse(shown.stdout)).toMatchObject({ totp: true, recoveryCodesLeft: 10 });
    expect((await fd('factors', 'require', 'bob')).code).toBe(0);
    expect((await fd('factors', 'reset', 'bob')).code).toBe(0);
    expect((await fd('factors', 'reset', 'nobody')).code).toBe(1);
    expect((await passwordStep(t)).step).toBe('enrol-second-factor');
    expect((await t.s.audit.list({ action: 'factors.reset' })).entries[0]).toMatchObject({ userName: 'cli' });
  }, 30_000);

  test('required for everyone: a password login is sent to enrol, and the confirming code signs in', async () => {
    await t.userToken('carol');
    await t.s.settings.update({ twoFactor: { required: true } }, ['twoFactor']);
    const step = await passwordStep(t, 'carol');
    expect(step).toMatchObject({ step: 'enrol-second-factor', methods: ['totp'] });
    expect((await second(t, step.ticket, '123456', 'recovery')).status).toBe(400);
    const enrol = await json(await t.req('POST', '/api/login/totp-enrol', { body: { ticket: step.ticket } }));
    const r = await second(t, step.ticket, code(enrol.secret));
    expect(r.status).toBe(200);
    expect(r.headers.get('X-Recovery-Codes')!.split(',')).toHaveLength(10);
    expect((await passwordStep(t, 'carol')).step).toBe('second-factor');
    // A second-factor ticket cannot start an enrolment.
    expect((await t.req('POST', '/api/login/totp-enrol', { body: { ticket: (await passwordStep(t, 'carol')).ticket } })).status).toBe(401);
  });

  test('required per user by the admin', async () => {
    await t.userToken('carol');
    await t.userToken('dave');
    const carol = (await t.s.stores.users.byUsername('carol'))!.id;
    const admin = await t.adminToken();
    expect((await t.req('PUT', `/api/users/${carol}/factors`, { token: admin, body: { required: 'yes' } })).status).toBe(400);
    expect((await t.req('PUT', `/api/users/${carol}/factors`, { token: admin, body: { required: true } })).status).toBe(204);
    expect((await passwordStep(t, 'carol')).step).toBe('enrol-second-factor');
    expect((await t.req('POST', '/api/login', { body: { username: 'dave', password: USER_PASSWORD } })).status).toBe(200);
    expect((await json(await t.req('GET', `/api/users/${carol}/factors`, { token: admin }))).required).toBe(true);
  });
});

runScenarios('second factors: refusals', async (t) => ({ bob: await t.userToken('bob') }), [
  { name: 'factors need a login', as: 'anon', method: 'GET', url: '/api/account/factors', status: 401 },
  { name: 'confirm with nothing pending', as: 'bob', method: 'POST', url: '/api/account/totp/confirm', body: { code: '123456' }, status: 400 },
  { name: 'disable when off', as: 'bob', method: 'DELETE', url: '/api/account/totp', body: { code: '123456' }, status: 400 },
  { name: 'recovery codes when off', as: 'bob', method: 'POST', url: '/api/account/recovery-codes', body: { code: '123456' }, status: 400 },
  { name: 'a body that is not an object', as: 'bob', method: 'POST', url: '/api/account/totp/confirm', body: '[1]', status: 400 },
  { name: 'rename an unknown passkey', as: 'bob', method: 'PATCH', url: '/api/account/passkeys/nope', body: { name: 'x' }, status: 404 },
  { name: 'admin view by a user', as: 'bob', method: 'GET', url: '/api/users/1/factors', status: 403 },
  { name: 'admin view of nobody', as: 'admin', method: 'GET', url: '/api/users/9999/factors', status: 404 },
  { name: 'admin reset of nobody', as: 'admin', method: 'DELETE', url: '/api/users/9999/factors', status: 404 },
  { name: 'an unknown ticket', as: 'anon', method: 'POST', url: '/api/login/second-factor', body: { ticket: 'x'.repeat(32), method: 'totp', code: '123456' }, status: 401 },
  { name: 'no ticket', as: 'anon', method: 'POST', url: '/api/login/second-factor', body: { method: 'totp', code: '123456' }, status: 400 },
  { name: 'a bad method', as: 'anon', method: 'POST', url: '/api/login/second-factor', body: { ticket: 'x', method: 'sms', code: '1' }, status: 400 },
  { name: 'enrol with an unknown ticket', as: 'anon', method: 'POST', url: '/api/login/totp-enrol', body: { ticket: 'nope' }, status: 401 },
], { shared: true });
