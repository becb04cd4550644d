import { describe, expect } from 'bun:test';
import { runScenarios, type Scenario } from '../helpers/scenario';
import { ADMIN_PASSWORD, USER_PASSWORD, type TestApp } from '../helpers/test-app';

// Users: admin (id 1) and bob (id 2, default permissions, not admin).
const setup = async (t: TestApp) => ({ bob: await t.userToken('bob') });
const newUser = (over: Record<string, unknown> = {}) => ({
  what: 'user', which: [], current_password: ADMIN_PASSWORD,
  data: { username: 'carol', password: 'carols-long-password-1', scope: '/carol', locale: 'en', perm: { admin: false, execute: false, create: true, rename: true, modify: true, delete: true, share: true, download: true }, ...over },
});
const bobCount = (n: number) => async (t: TestApp) => void expect((await t.s.stores.users.all()).filter((u) => u.username === 'carol').length).toBe(n);

describe('users API', () => {
  const rows: Scenario[] = [
    { name: 'admin lists users without hashes', as: 'admin', method: 'GET', url: '/api/users', status: 200, contains: ['"bob"', '"password":""'], excludes: '$2' },
    { name: 'user cannot list users', as: 'bob', method: 'GET', url: '/api/users', status: 403, contains: '403 Forbidden' },
    { name: 'anonymous cannot list users', as: 'anon', method: 'GET', url: '/api/users', status: 401 },
    { name: 'admin reads a user', as: 'admin', method: 'GET', url: '/api/users/2', status: 200, contains: '"username":"bob"' },
    { name: 'user reads self with blank scope', as: 'bob', method: 'GET', url: '/api/users/2', status: 200, contains: '"scope":""' },
    { name: 'user cannot read another user', as: 'bob', method: 'GET', url: '/api/users/1', status: 403 },
    { name: 'anonymous cannot read a user', as: 'anon', method: 'GET', url: '/api/users/2', status: 401 },
    { name: 'missing user is 404', as: 'admin', method: 'GET', url: '/api/users/99', status: 404 },
    { name: 'non-numeric id is 404', as: 'admin', method: 'GET', url: '/api/users/abc', status: 404 },

    { name: 'admin creates a user', as: 'admin', method: 'POST', url: '/api/users', body: newUser(), status: 201,
      after: async (t, res) => {
        expect(res.headers.get('location')).toMatch(/^\/settings\/users\/\d+$/);
        const u = (await t.s.stores.users.byUsername('carol'))!;
        expect(u.scope).toBe('/carol');
        expect(await Bun.file(`${t.root}/carol`).exists()).toBe(false); // a folder, not a file
        expect((await import('node:fs')).statSync(`${t.root}/carol`).isDirectory()).toBe(true);
      } },
    { name: 'create needs the caller\'s current password', as: 'admin', method: 'POST', url: '/api/users', body: { ...newUser(), current_password: 'wrong' }, status: 400, contains: 'current password', after: bobCount(0) },
    { name: 'user cannot create users', as: 'bob', method: 'POST', url: '/api/users', body: newUser(), status: 403, after: bobCount(0) },
    { name: 'anonymous cannot create users', as: 'anon', method: 'POST', url: '/api/users', body: newUser(), status: 401, after: bobCount(0) },
    { name: 'short password refused', as: 'admin', method: 'POST', url: '/api/users', body: newUser({ password: 'short' }), status: 400, contains: 'minimum length is 12', after: bobCount(0) },
    { name: 'common password refused', as: 'admin', method: 'POST', url: '/api/users', body: newUser({ password: 'passwordpassword' }), status: 400, contains: 'too easy', after: bobCount(0) },
    { name: 'duplicate username (any case) is 409', as: 'admin', method: 'POST', url: '/api/users', body: newUser({ username: 'BOB' }), status: 409 },
    { name: 'non-empty which refused', as: 'admin', method: 'POST', url: '/api/users', body: { ...newUser(), which: ['all'] }, status: 400, after: bobCount(0) },
    { name: 'wrong what refused', as: 'admin', method: 'POST', url: '/api/users', body: { ...newUser(), what: 'share' }, status: 400, contains: 'invalid data type' },
    { name: 'malformed JSON refused', as: 'admin', method: 'POST', url: '/api/users', body: '{"what":"user",', status: 400, contains: 'not valid JSON' },
    { name: 'JSON array body refused', as: 'admin', method: 'POST', url: '/api/users', body: '[1,2]', status: 400 },
    { name: 'share without download refused', as: 'admin', method: 'POST', url: '/api/users',
      body: newUser({ perm: { admin: false, execute: false, create: true, rename: true, modify: true, delete: true, share: true, download: false } }), status: 400, contains: 'share requires permission to download', after: bobCount(0) },
    { name: 'unknown locale refused', as: 'admin', method: 'POST', url: '/api/users', body: newUser({ locale: 'xx' }), status: 400, after: bobCount(0) },
    { name: 'wrong type refused', as: 'admin', method: 'POST', url: '/api/users', body: newUser({ lockPassword: 'yes' }), status: 400, contains: 'lockPassword', after: bobCount(0) },
    { name: 'bad rule regex refused, no user created', as: 'admin', method: 'POST', url: '/api/users',
      body: newUser({ rules: [{ allow: false, regex: true, path: '', regexp: { raw: '([a-' } }] }), status: 400, contains: 'invalid regular expression', after: bobCount(0) },
    { name: 'scope escaping the root refused', as: 'admin', method: 'POST', url: '/api/users', body: newUser({ scope: '/../etc' }), status: 400, after: bobCount(0) },
    { name: 'admin perm ticks all and clears lockPassword', as: 'admin', method: 'POST', url: '/api/users',
      body: newUser({ lockPassword: true, perm: { admin: true, execute: false, create: false, rename: false, modify: false, delete: false, share: false, download: false } }), status: 201,
      after: async (t) => {
        const u = (await t.s.stores.users.byUsername('carol'))!;
        expect(Object.values(u.perm).every(Boolean)).toBe(true);
        expect(u.lockPassword).toBe(false);
      } },

    { name: 'user updates own locale', as: 'bob', method: 'PUT', url: '/api/users/2', body: { what: 'user', which: ['locale'], data: { id: 2, locale: 'de' } }, status: 200,
      after: async (t) => void expect((await t.s.stores.users.byId(2))!.locale).toBe('de') },
    { name: 'which names are case-insensitive', as: 'bob', method: 'PUT', url: '/api/users/2', body: { what: 'user', which: ['HideDotfiles', 'viewMode'], data: { id: 2, hideDotfiles: true, viewMode: 'list' } }, status: 200,
      after: async (t) => void expect((await t.s.stores.users.byId(2))!).toMatchObject({ hideDotfiles: true, viewMode: 'list' }) },
    { name: 'only named fields change', as: 'bob', method: 'PUT', url: '/api/users/2', body: { what: 'user', which: ['locale'], data: { id: 2, locale: 'fr', singleClick: true } }, status: 200,
      after: async (t) => void expect((await t.s.stores.users.byId(2))!).toMatchObject({ locale: 'fr', singleClick: false }) },
    { name: 'unknown which field is 400', as: 'bob', method: 'PUT', url: '/api/users/2', body: { what: 'user', which: ['favouriteColour'], data: { id: 2 } }, status: 400, contains: 'invalid field' },
    { name: 'user cannot change own permissions', as: 'bob', method: 'PUT', url: '/api/users/2', body: { what: 'user', which: ['perm'], current_password: USER_PASSWORD, data: { id: 2, perm: { admin: true } } }, status: 403,
      after: async (t) => void expect((await t.s.stores.users.byId(2))!.perm.admin).toBe(false) },
    { name: 'user cannot change own scope', as: 'bob', method: 'PUT', url: '/api/users/2', body: { what: 'user', which: ['scope'], current_password: USER_PASSWORD, data: { id: 2, scope: '/' } }, status: 403 },
    { name: 'user cannot replace the whole record', as: 'bob', method: 'PUT', url: '/api/users/2', body: { what: 'user', which: ['all'], current_password: USER_PASSWORD, data: { id: 2, username: 'bob' } }, status: 403 },
    { name: 'user cannot edit another user', as: 'bob', method: 'PUT', url: '/api/users/1', body: { what: 'user', which: ['locale'], data: { id: 1, locale: 'de' } }, status: 403 },
    { name: 'password change needs current password', as: 'bob', method: 'PUT', url: '/api/users/2', body: { what: 'user', which: ['password'], data: { id: 2, password: 'a-brand-new-password-9' } }, status: 400, contains: 'current password' },
    { name: 'password change with current password', as: 'bob', method: 'PUT', url: '/api/users/2', body: { what: 'user', which: ['password'], current_password: USER_PASSWORD, data: { id: 2, password: 'a-brand-new-password-9' } }, status: 200,
      after: async (t) => void expect(await t.login('bob', 'a-brand-new-password-9')).toContain('.') },
    { name: 'weak new password refused', as: 'bob', method: 'PUT', url: '/api/users/2', body: { what: 'user', which: ['password'], current_password: USER_PASSWORD, data: { id: 2, password: 'passwordpassword' } }, status: 400, contains: 'too easy' },
    { name: 'data.id mismatch refused', as: 'admin', method: 'PUT', url: '/api/users/2', body: { what: 'user', which: ['locale'], data: { id: 3, locale: 'de' } }, status: 400 },
    { name: 'admin replaces a record with ["all"], blank password kept', as: 'admin', method: 'PUT', url: '/api/users/2',
      body: { what: 'user', which: ['all'], current_password: ADMIN_PASSWORD, data: { id: 2, username: 'robert', password: '', scope: '/robert', locale: 'ja', perm: { admin: false, execute: false, create: false, rename: false, modify: false, delete: false, share: false, download: true } } }, status: 200,
      after: async (t) => {
        expect((await t.s.stores.users.byId(2))).toMatchObject({ username: 'robert', scope: '/robert', locale: 'ja' });
        expect(await t.login('robert', USER_PASSWORD)).toContain('.');
      } },
    { name: 'admin cannot demote the last admin', as: 'admin', method: 'PUT', url: '/api/users/1',
      body: { what: 'user', which: ['perm'], current_password: ADMIN_PASSWORD, data: { id: 1, perm: { admin: false, execute: false, create: true, rename: true, modify: true, delete: true, share: true, download: true } } }, status: 403 },
    { name: 'anonymous cannot update', as: 'anon', method: 'PUT', url: '/api/users/2', body: { what: 'user', which: ['locale'], data: { id: 2, locale: 'de' } }, status: 401 },

    { name: 'admin deletes a user', as: 'admin', method: 'DELETE', url: '/api/users/2', body: { current_password: ADMIN_PASSWORD }, status: 200,
      after: async (t) => void expect((await t.s.stores.users.byId(2))).toBeNull() },
    { name: 'delete needs the current password', as: 'admin', method: 'DELETE', url: '/api/users/2', body: { current_password: 'nope' }, status: 400,
      after: async (t) => void expect((await t.s.stores.users.byId(2))).not.toBeNull() },
    { name: 'user deletes self', as: 'bob', method: 'DELETE', url: '/api/users/2', body: { current_password: USER_PASSWORD }, status: 200 },
    { name: 'user cannot delete another user', as: 'bob', method: 'DELETE', url: '/api/users/1', body: { current_password: USER_PASSWORD }, status: 403 },
    { name: 'last admin cannot be deleted', as: 'admin', method: 'DELETE', url: '/api/users/1', body: { current_password: ADMIN_PASSWORD }, status: 403,
      after: async (t) => void expect((await t.s.stores.users.byId(1))).not.toBeNull() },
    { name: 'anonymous cannot delete', as: 'anon', method: 'DELETE', url: '/api/users/2', status: 401 },
  ];
  runScenarios('users', setup, rows);
});
