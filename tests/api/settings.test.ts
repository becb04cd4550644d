import { describe, expect } from 'bun:test';
import { runScenarios, type Scenario } from '../helpers/scenario';
import type { TestApp } from '../helpers/test-app';

const setup = async (t: TestApp) => ({ bob: await t.userToken('bob') });
const unchanged = (t: TestApp) => {
  const s = t.s.settings.get();
  expect(s.signup).toBe(false);
  expect(s.rules).toEqual([]);
};

describe('settings API', () => {
  const rows: Scenario[] = [
    { name: 'admin reads settings with defaults and no secret', as: 'admin', method: 'GET', url: '/api/settings', status: 200,
      contains: ['"signup":false', '"createUserDir":false', '"defaults":', '"before_upload":[]', '"userHomeBasePath":"/users"'], excludes: ['"key"', 'jwt'] },
    { name: 'user cannot read settings', as: 'bob', method: 'GET', url: '/api/settings', status: 403 },
    { name: 'anonymous cannot read settings', as: 'anon', method: 'GET', url: '/api/settings', status: 401 },
    { name: 'admin enables signup', as: 'admin', method: 'PUT', url: '/api/settings', body: { signup: true }, status: 200, contains: '200 OK',
      after: (t) => void expect(t.s.settings.get().signup).toBe(true) },
    { name: 'admin saves rules, branding and commands', as: 'admin', method: 'PUT', url: '/api/settings',
      body: { rules: [{ allow: false, regex: false, path: '/private/', regexp: null }, { allow: false, regex: true, path: '', regexp: { raw: '(?i)\\.secret$' } }], branding: { name: 'Team files', theme: 'dark' }, commands: { after_upload: ['echo done'] }, shell: ['bash', '-c'] }, status: 200,
      after: (t) => {
        const s = t.s.settings.get();
        expect(s.rules[0]).toEqual({ allow: false, regex: false, path: '/private', regexp: null });
        expect(s.branding).toMatchObject({ name: 'Team files', theme: 'dark', disableExternal: false });
        expect(s.commands.after_upload).toEqual(['echo done']);
        expect(s.commands.before_upload).toEqual([]);
      } },
    { name: 'bad regex rule is 400 and nothing changes', as: 'admin', method: 'PUT', url: '/api/settings',
      body: { signup: true, rules: [{ allow: false, regex: true, regexp: { raw: '(unclosed' } }] }, status: 400, contains: 'invalid regular expression', after: unchanged },
    { name: 'wrong type is 400', as: 'admin', method: 'PUT', url: '/api/settings', body: { signup: 'yes' }, status: 400, contains: 'signup', after: unchanged },
    { name: 'unknown field is 400', as: 'admin', method: 'PUT', url: '/api/settings', body: { signupp: true }, status: 400, contains: 'unknown settings field', after: unchanged },
    { name: 'unknown hook event is 400', as: 'admin', method: 'PUT', url: '/api/settings', body: { commands: { before_everything: ['x'] } }, status: 400 },
    { name: 'auth method cannot be switched over HTTP', as: 'admin', method: 'PUT', url: '/api/settings', body: { authMethod: 'noauth' }, status: 200,
      after: (t) => void expect(t.s.settings.get().authMethod).toBe('json') },
    { name: 'defaults cannot make new users admin... but are validated', as: 'admin', method: 'PUT', url: '/api/settings', body: { defaults: { locale: 'klingon' } }, status: 400 },
    { name: 'malformed JSON is 400', as: 'admin', method: 'PUT', url: '/api/settings', body: '{"signup": tru', status: 400, after: unchanged },
    { name: 'user cannot change settings', as: 'bob', method: 'PUT', url: '/api/settings', body: { signup: true }, status: 403, after: unchanged },
    { name: 'anonymous cannot change settings', as: 'anon', method: 'PUT', url: '/api/settings', body: { signup: true }, status: 401, after: unchanged },
    { name: 'oversized body is 413', as: 'admin', method: 'PUT', url: '/api/settings', body: JSON.stringify({ branding: { name: 'x'.repeat(5 * 1024 * 1024) } }), status: 413, after: unchanged },
  ];
  runScenarios('settings', setup, rows);
});
