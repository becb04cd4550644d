import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test';
import { createServer, type AddressInfo } from 'node:net';
import { ADMIN_PASSWORD, makeTestApp, type TestApp } from '../helpers/test-app';
import { LDAP_ADMIN_DN, LDAP_ADMIN_PASSWORD, LDAP_SUFFIX, personDn, startSlapd, type Slapd } from '../helpers/slapd';

/** LDAP sign-in against Debian's slapd started by the test (bind and search, groups, StartTLS and LDAPS). */
let d: Slapd;
let t: TestApp;

beforeAll(async () => {
  d = await startSlapd(
    { alice: { password: 'alice-ldap-pass' }, bob: { password: 'bob-ldap-pass' }, locked: { password: 'locked-ldap-pass', locked: true }, carol: { password: 'carol-ldap-pass' } },
    { admins: ['alice'], staff: ['alice', 'bob'] },
  );
});
afterAll(async () => {
  await t?.close();
  await d.stop();
});
beforeEach(async () => {
  await t?.close();
  t = await makeTestApp();
  await configure({});
});

async function configure(extra: Record<string, unknown>) {
  await t.s.settings.update({
    ldap: {
      enabled: true, url: d.url, bindDn: LDAP_ADMIN_DN, bindPassword: LDAP_ADMIN_PASSWORD, userBase: `ou=people,${LDAP_SUFFIX}`,
      userFilter: '(&(objectClass=inetOrgPerson)(uid={username}))', usernameAttribute: 'uid', groupBase: `ou=groups,${LDAP_SUFFIX}`,
      groupFilter: '(member={dn})', groupNameAttribute: 'cn', adminGroup: 'admins',
      groupGrants: [{ group: 'staff', admin: false, perm: ['share'], scope: '/staff', rules: [], quota: 0 }], ...extra,
    },
  }, ['ldap']);
}

const login = (username: string, password: string) => t.req('POST', '/api/login', { body: { username, password } });
const userNamed = (name: string) => t.s.stores.users.byUsername(name);

describe('LDAP', () => {
  test('bind: the directory password signs in, makes the account once, and the session says ldap', async () => {
    const r = await login('alice', 'alice-ldap-pass');
    expect(r.status).toBe(200);
    const alice = (await userNamed('alice'))!;
    expect(alice.perm.admin).toBe(true);
    expect((await login('bob', 'bob-ldap-pass')).status).toBe(200);
    expect((await userNamed('bob'))!.lockPassword).toBe(true); // a random password nobody knows, locked
    expect((await t.s.auth.sessions(alice.id))[0]!.method).toBe('ldap');
    expect((await login('alice', 'wrong-password')).status).toBe(403);
    expect((await login('alice', 'alice-ldap-pass')).status).toBe(200);
    expect((await userNamed('alice'))!.id).toBe(alice.id);
    // Names are escaped into the filter (RFC 4515): a wildcard matches nobody.
    expect((await login('*', 'alice-ldap-pass')).status).toBe(403);
  });

  test('groups are re-applied at every login: a removed group takes back admin and scope', async () => {
    expect((await login('alice', 'alice-ldap-pass')).status).toBe(200);
    let alice = (await userNamed('alice'))!;
    expect(alice.perm.admin).toBe(true);
    expect(alice.perm.share).toBe(true);
    expect(alice.scope).toBe('/staff');
    await d.setMember('admins', 'alice', false);
    await d.setMember('staff', 'alice', false);
    try {
      expect((await login('alice', 'alice-ldap-pass')).status).toBe(200);
      alice = (await userNamed('alice'))!;
      expect(alice.perm.admin).toBe(false);
      expect(alice.scope).not.toBe('/staff');
    } finally {
      await d.setMember('admins', 'alice', true);
      await d.setMember('staff', 'alice', true);
    }
  });

  test('a disabled account is refused and made nowhere', async () => {
    const r = await login('locked', 'locked-ldap-pass');
    expect(r.status).toBe(403);
    expect(await r.text()).toContain('disabled');
    expect(await userNamed('locked')).toBeNull();
  });

  test('allowed groups; a local account of the same name is not taken over', async () => {
    await configure({ allowedGroups: ['admins'] });
    expect((await login('bob', 'bob-ldap-pass')).status).toBe(403);
    await configure({ allowedGroups: [] });
    await t.s.users.create({ username: 'carol', password: 'carols-local-password-1' });
    expect((await login('carol', 'carol-ldap-pass')).status).toBe(403);
    // An admin links the account (CLI `users link carol --ldap-dn …`): by the entry's entryUUID, as logins are.
    const carol = (await userNamed('carol'))!;
    const linked = await t.s.directory.linkAs(carol.id, { ldapDn: personDn('carol') }, { userId: null, userName: '', address: 'cli' });
    expect(linked.subject).toMatch(/^[0-9a-f-]{36}$/);
    expect((await login('carol', 'carol-ldap-pass')).status).toBe(200);
    expect((await userNamed('carol'))!.id).toBe(carol.id);
  });

  test('the local admin still signs in; a linked user never falls back to a local password', async () => {
    expect((await login('admin', ADMIN_PASSWORD)).status).toBe(200);
    expect((await login('bob', 'bob-ldap-pass')).status).toBe(200);
    const bob = (await userNamed('bob'))!;
    const admin = await t.adminToken();
    const set = await t.req('PUT', `/api/users/${bob.id}`, { token: admin, body: { what: 'user', which: ['password'], current_password: ADMIN_PASSWORD, data: { id: bob.id, password: 'a-local-password-for-bob' } } });
    expect(set.status).toBe(200);
    expect((await login('bob', 'a-local-password-for-bob')).status).toBe(403);
  });

  test('directory unreachable: a clear 503 for directory users, local users unaffected', async () => {
    expect((await login('bob', 'bob-ldap-pass')).status).toBe(200); // linked now
    await configure({ url: 'ldap://127.0.0.1:1' });
    for (const name of ['bob', 'someone-new']) {
      const r = await login(name, 'whatever-password');
      expect(r.status).toBe(503);
      expect(await r.text()).toContain('the directory is unreachable');
    }
    expect((await login('admin', ADMIN_PASSWORD)).status).toBe(200);
  });

  test('a server that accepts and never answers is given up after 5 s', async () => {
    const hole = createServer(() => {});
    await new Promise<void>((r) => hole.listen(0, '127.0.0.1', () => r()));
    try {
      await configure({ url: `ldap://127.0.0.1:${(hole.address() as AddressInfo).port}` });
      const started = Date.now();
      expect((await login('bob', 'bob-ldap-pass')).status).toBe(503);
      expect(Date.now() - started).toBeLessThan(8_000);
    } finally {
      hole.close();
    }
  }, 20_000);

  test('StartTLS and LDAPS with the CA file; an untrusted certificate is unreachable', async () => {
    await configure({ startTls: true, caFile: d.caFile });
    expect((await login('alice', 'alice-ldap-pass')).status).toBe(200);
    await configure({ startTls: false, url: d.ldapsUrl, caFile: d.caFile });
    expect((await login('alice', 'alice-ldap-pass')).status).toBe(200);
    await configure({ url: d.ldapsUrl, caFile: '' });
    expect((await login('alice', 'alice-ldap-pass')).status).toBe(503);
  });

  test('local login off: local passwords refused, the directory still signs in', async () => {
    await t.s.settings.update({ localLogin: false }, ['localLogin']);
    expect((await login('admin', ADMIN_PASSWORD)).status).toBe(403);
    expect((await login('alice', 'alice-ldap-pass')).status).toBe(200);
  });

  test('the bind password is in no API answer', async () => {
    const admin = await t.adminToken();
    for (const path of ['/api/settings', '/api/audit']) expect(await (await t.req('GET', path, { token: admin })).text()).not.toContain(LDAP_ADMIN_PASSWORD);
  });
});
