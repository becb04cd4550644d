import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test';
import { ADMIN_PASSWORD, makeTestApp, type TestApp } from '../helpers/test-app';
import { signInAtProvider, startOidcProvider, type TestProvider } from '../helpers/oidc-provider';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '../../server/core/config';
import { applySsoConfig } from '../../server/services/sso/sso-config';
import { exportableSettings } from '../../server/services/sso/sso-settings';
import { settingPatch } from '../../cmd/commands/config';
import { runScenarios } from '../helpers/scenario';

/**
 * OpenID Connect sign-in against a real provider (oidc-provider on 127.0.0.1) through the real app: the browser's
 * part is plain HTTP (redirects followed, cookies kept, the provider's dev login form posted).
 */
const ORIGIN = 'http://localhost';
let p: TestProvider;
let t: TestApp;

beforeAll(async () => {
  p = await startOidcProvider([`${ORIGIN}/api/auth/oidc/callback`], [`${ORIGIN}/login`]);
});
afterAll(async () => {
  await p.close();
});
beforeEach(async () => {
  await t?.close();
  t = await makeTestApp();
  p.accounts.clear();
  await configure({});
});
afterAll(async () => t?.close());

async function configure(extra: Record<string, unknown>) {
  await t.s.settings.update({ oidc: { enabled: true, name: 'Test IdP', issuer: p.issuer, clientId: p.clientId, clientSecret: p.clientSecret, groupsClaim: 'groups', ...extra } }, ['oidc']);
}

/** Starts a login at the app; the provider's authorization URL. */
async function start(redirect = '/files/docs/'): Promise<string> {
  const r = await t.req('GET', `/api/auth/oidc/login?redirect=${encodeURIComponent(redirect)}`);
  expect(r.status).toBe(302);
  return r.headers.get('location')!;
}

/** The app's callback for a URL the provider sent the browser to; the login page's query. */
async function callback(url: string): Promise<URLSearchParams> {
  const r = await t.req('GET', url.slice(ORIGIN.length));
  expect(r.status).toBe(302);
  const loc = new URL(r.headers.get('location')!, ORIGIN);
  expect(loc.pathname).toBe('/login');
  return loc.searchParams;
}

async function exchange(code: string) {
  return t.req('POST', '/api/login/sso', { body: { code } });
}

/** The whole sign-in as `sub`: a token, or the login page's error code. */
async function ssoLogin(sub: string): Promise<{ token?: string; error?: string }> {
  const q = await callback(await signInAtProvider(await start(), sub));
  if (q.get('ssoError')) return { error: q.get('ssoError')! };
  const r = await exchange(q.get('sso')!);
  expect(r.status).toBe(200);
  return { token: await r.text() };
}

const userNamed = async (name: string) => (await t.s.stores.users.byUsername(name))!;

describe('OpenID Connect', () => {
  test('first login creates the account through the one creation path, links it by subject, and the code gives a session', async () => {
    p.accounts.set('sub-alice', { preferred_username: 'alice' });
    const authorize = new URL(await start('/files/docs/'));
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorize.searchParams.get('state')).toBeTruthy();
    expect(authorize.searchParams.get('nonce')).toBeTruthy();
    const q = await callback(await signInAtProvider(authorize.href, 'sub-alice'));
    expect(q.get('redirect')).toBe('/files/docs/');
    const r = await exchange(q.get('sso')!);
    expect(r.status).toBe(200);
    const token = await r.text();
    expect((await t.req('GET', '/api/resources/', { token })).status).toBe(200);
    const alice = await userNamed('alice');
    expect(alice.perm.admin).toBe(false);
    expect(alice.lockPassword).toBe(true);
    const created = (await t.s.audit.list({ action: 'user.create' })).entries.find((e) => e.target === 'alice');
    expect(created?.detail).toMatchObject({ via: 'oidc' });
    // The second login finds the same account by its link.
    expect((await ssoLogin('sub-alice')).token).toBeTruthy();
    expect((await userNamed('alice')).id).toBe(alice.id);
    const sessions = await t.s.auth.sessions(alice.id);
    expect(sessions.every((s) => s.method === 'oidc')).toBe(true);
  });

  test('admin and scope from groups are re-applied at every login and taken back when the group goes', async () => {
    await configure({ adminGroup: 'admins', groupGrants: [{ group: 'staff', admin: false, perm: ['share'], scope: '/staff', rules: [], quota: 0 }] });
    await t.s.settings.update({ defaults: { ...t.s.settings.get().defaults, perm: { ...t.s.settings.get().defaults.perm, share: false } } }, ['defaults']);
    p.accounts.set('sub-bob', { preferred_username: 'bob', groups: ['admins', 'staff'] });
    const first = (await ssoLogin('sub-bob')).token!;
    let bob = await userNamed('bob');
    expect(bob.perm.admin).toBe(true);
    expect(bob.perm.share).toBe(true);
    expect(bob.scope).toBe('/staff');
    p.accounts.set('sub-bob', { preferred_username: 'bob', groups: [] });
    expect((await ssoLogin('sub-bob')).token).toBeTruthy();
    bob = await userNamed('bob');
    expect(bob.perm.admin).toBe(false);
    expect(bob.perm.share).toBe(false);
    expect(bob.scope).not.toBe('/staff');
    // The permission change ended the session that still carried admin rights.
    expect((await t.req('GET', '/api/users', { token: first })).status).toBe(401);
  });

  test('a group quota (bytes; the largest of the user\'s groups) becomes the user\'s quota at login (issue 35)', async () => {
    const grant = { admin: false, perm: [], scope: '/staff', rules: [] };
    await configure({ groupGrants: [{ ...grant, group: 'staff', quota: 5_000_000 }, { ...grant, group: 'big', quota: 9_000_000 }] });
    p.accounts.set('sub-q', { preferred_username: 'quinn', groups: ['staff', 'big'] });
    await ssoLogin('sub-q');
    expect((await userNamed('quinn')).quota).toEqual({ bytes: 9_000_000, files: 0 });
  });

  test('groups only from userinfo, as a string, and by a dotted claim path', async () => {
    await configure({ adminGroup: 'admins' });
    p.accounts.set('sub-u', { preferred_username: 'uinfo', groups: ['admins'], groupsOnlyInUserinfo: true });
    await ssoLogin('sub-u');
    expect((await userNamed('uinfo')).perm.admin).toBe(true);
    p.accounts.set('sub-s', { preferred_username: 'strung', groups: 'staff, admins' });
    await ssoLogin('sub-s');
    expect((await userNamed('strung')).perm.admin).toBe(true);
    await configure({ adminGroup: 'admins', groupsClaim: 'realm_access.roles' });
    p.accounts.set('sub-n', { preferred_username: 'nested', extra: { realm_access: { roles: ['admins'] } } });
    await ssoLogin('sub-n');
    expect((await userNamed('nested')).perm.admin).toBe(true);
  });

  test('login is refused outside the allowed groups', async () => {
    await configure({ allowedGroups: ['staff'] });
    p.accounts.set('sub-out', { preferred_username: 'outsider', groups: ['guests'] });
    expect(await ssoLogin('sub-out')).toEqual({ error: 'denied' });
    expect(await t.s.stores.users.byUsername('outsider')).toBeNull();
    p.accounts.set('sub-in', { preferred_username: 'insider', groups: ['staff'] });
    expect((await ssoLogin('sub-in')).token).toBeTruthy();
  });

  test('a username held by a local account or by another subject is refused, never taken over', async () => {
    await t.s.users.create({ username: 'carol', password: 'carols-long-password-1' });
    p.accounts.set('sub-carol', { preferred_username: 'carol' });
    expect(await ssoLogin('sub-carol')).toEqual({ error: 'denied' });
    p.accounts.set('sub-dave-1', { preferred_username: 'dave' });
    expect((await ssoLogin('sub-dave-1')).token).toBeTruthy();
    p.accounts.set('sub-dave-2', { preferred_username: 'dave' });
    expect(await ssoLogin('sub-dave-2')).toEqual({ error: 'denied' });
    // After an admin links it, the local account signs in through the provider.
    const carol = await userNamed('carol');
    await t.s.directory.link(carol.id, 'oidc', p.issuer, 'sub-carol', { userId: null, userName: '', address: 'cli' });
    expect((await ssoLogin('sub-carol')).token).toBeTruthy();
  });

  test('state, code and PKCE tampering are refused', async () => {
    p.accounts.set('sub-eve', { preferred_username: 'eve' });
    const back = await signInAtProvider(await start(), 'sub-eve');
    const q = await callback(back);
    expect(q.get('sso')).toBeTruthy();
    // The same callback again: its state was used.
    expect((await callback(back)).get('ssoError')).toBe('state');
    // A state the app never made.
    const forged = new URL(back);
    forged.searchParams.set('state', 'not-a-state-we-made');
    expect((await callback(forged.href)).get('ssoError')).toBe('state');
    // The one-time code works once.
    expect((await exchange(q.get('sso')!)).status).toBe(200);
    expect((await exchange(q.get('sso')!)).status).toBe(403);
    expect((await exchange('made-up')).status).toBe(403);
    // Flow A's state with flow B's code: A's PKCE verifier and nonce do not match what the provider holds.
    const a = new URL(await start());
    const bBack = new URL(await signInAtProvider(await start(), 'sub-eve'));
    bBack.searchParams.set('state', a.searchParams.get('state')!);
    expect((await callback(bBack.href)).get('ssoError')).toBe('token');
    // The provider's error answer.
    const c = new URL(await start());
    expect((await callback(`${ORIGIN}/api/auth/oidc/callback?state=${c.searchParams.get('state')}&error=access_denied`)).get('ssoError')).toBe('provider');
  });

  test('logout sends the browser to the provider when asked, with the id token as hint', async () => {
    p.accounts.set('sub-f', { preferred_username: 'frank' });
    let token = (await ssoLogin('sub-f')).token!;
    let r = await t.req('POST', '/api/logout', { token });
    expect(r.status).toBe(200);
    expect(r.headers.get('x-logout-redirect')).toBeNull();
    await configure({ logoutAtProvider: true });
    token = (await ssoLogin('sub-f')).token!;
    r = await t.req('POST', '/api/logout', { token });
    const to = new URL(r.headers.get('x-logout-redirect')!);
    expect(to.origin).toBe(p.issuer);
    expect(to.searchParams.get('id_token_hint')).toBeTruthy();
    expect(to.searchParams.get('post_logout_redirect_uri')).toBe(`${ORIGIN}/login`);
    expect((await t.req('GET', '/api/resources/', { token })).status).toBe(401);
    // A password session never gets one.
    const admin = await t.adminToken();
    expect((await t.req('POST', '/api/logout', { token: admin })).headers.get('x-logout-redirect')).toBeNull();
  });

  test('the client secret is in no API answer, audit entry or page', async () => {
    const admin = await t.login('admin', ADMIN_PASSWORD);
    const put = await t.req('PUT', '/api/settings', { token: admin, body: { oidc: { clientSecret: 'another-secret-value-xyz' } } });
    expect(put.status).toBe(200);
    expect(t.s.settings.get().oidc.clientSecret).toBe('another-secret-value-xyz');
    for (const path of ['/api/settings', '/api/audit', '/', '/login']) {
      const body = await (await t.req('GET', path, { token: admin })).text();
      expect(body).not.toContain('another-secret-value-xyz');
      expect(body).not.toContain(p.clientSecret);
    }
    const s = await (await t.req('GET', '/api/settings', { token: admin })).json();
    expect(s.oidc.clientSecret).toBe('');
    expect(s.oidc.clientSecretSet).toBe(true);
  });

  test('switched off: the start goes back to the login page', async () => {
    await configure({ enabled: false });
    const r = await t.req('GET', '/api/auth/oidc/login');
    expect(r.headers.get('location')).toBe('/login?ssoError=disabled');
  });

  test('the config file\'s oidc: section is applied over the stored settings; the CLI sets grants as JSON', async () => {
    const file = join(t.dir, 'filedeck.yaml');
    writeFileSync(file, `oidc:\n  enabled: true\n  issuer: ${p.issuer}\n  clientId: from-file\n  groupGrants:\n    - { group: staff, perm: [share], scope: /staff }\n`);
    const config = loadConfig({ configFile: file, env: {}, flags: { root: t.root, database: t.database } });
    expect(config.sso?.oidc?.clientId).toBe('from-file');
    await applySsoConfig(t.s.settings, config.sso);
    const o = t.s.settings.get().oidc;
    expect(o.clientId).toBe('from-file');
    expect(o.clientSecret).toBe(p.clientSecret); // left out: kept
    expect(o.groupGrants[0]).toMatchObject({ group: 'staff', perm: ['share'], scope: '/staff', admin: false });
    writeFileSync(file, 'oidc:\n  clientIdd: typo\n');
    await expect(applySsoConfig(t.s.settings, loadConfig({ configFile: file, env: {}, flags: { root: t.root, database: t.database } }).sso)).rejects.toThrow('clientIdd');
    const patch = settingPatch(t.s.settings.get(), 'oidc.groupGrants', '[{"group":"admins","admin":true}]');
    expect(patch).toEqual({ oidc: { groupGrants: [{ group: 'admins', admin: true }] } });
    expect(settingPatch(t.s.settings.get(), 'oidc.allowedGroups', 'a, b c')).toEqual({ oidc: { allowedGroups: ['a', 'b', 'c'] } });
    // An export leaves the secret out; importing it back keeps the stored one.
    const exported = exportableSettings(t.s.settings.get());
    expect(JSON.stringify(exported)).not.toContain(p.clientSecret);
    await t.s.settings.import({ userId: null, userName: '', address: 'cli' } as never, JSON.parse(JSON.stringify(exported)), 'export.yaml');
    expect(t.s.settings.get().oidc.clientSecret).toBe(p.clientSecret);
  });
});

/** Hostile inputs to the anonymous SSO endpoints: each a clear 4xx (or the login page with an error), nothing made. */
runScenarios('SSO endpoints refuse bad input', async (app) => {
  await app.s.settings.update({ oidc: { enabled: true, issuer: p.issuer, clientId: p.clientId, clientSecret: p.clientSecret } }, ['oidc']);
  return {};
}, [
  { name: 'exchange without a body', as: 'anon', method: 'POST', url: '/api/login/sso', status: 400 },
  { name: 'exchange with a code that is not text', as: 'anon', method: 'POST', url: '/api/login/sso', body: { code: 5 }, status: 400 },
  { name: 'exchange with an oversized code', as: 'anon', method: 'POST', url: '/api/login/sso', body: { code: 'x'.repeat(200) }, status: 400 },
  { name: 'exchange with a made-up code', as: 'anon', method: 'POST', url: '/api/login/sso', body: { code: 'made-up-code' }, status: 403, contains: 'unknown, used or expired' },
  { name: 'exchange with an oversized body', as: 'anon', method: 'POST', url: '/api/login/sso', raw: JSON.stringify({ code: 'a', pad: 'x'.repeat(40_000) }), headers: { 'Content-Type': 'application/json' }, status: 413 },
  { name: 'callback without a state', as: 'anon', method: 'GET', url: '/api/auth/oidc/callback?code=abc', status: 302, responseHeaders: { location: '/login?ssoError=state' } },
  { name: 'callback with a state we never made', as: 'anon', method: 'GET', url: '/api/auth/oidc/callback?state=zzz&code=abc', status: 302, responseHeaders: { location: '/login?ssoError=state' } },
  { name: 'start with a redirect to another site', as: 'anon', method: 'GET', url: '/api/auth/oidc/login?redirect=https%3A%2F%2Fevil.example%2F', status: 302, responseHeaders: { location: /^http:\/\/127\.0\.0\.1:\d+\/auth\?/ } },
], { shared: true });

test('one-time code guesses are rate-limited per address', async () => {
  const app = await makeTestApp();
  try {
    let last = 0;
    for (let i = 0; i < 62; i++) last = (await app.req('POST', '/api/login/sso', { body: { code: `guess-${i}` } })).status;
    expect(last).toBe(429);
  } finally {
    await app.close();
  }
});

