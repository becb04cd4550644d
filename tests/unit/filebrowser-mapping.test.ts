import { describe, expect, test } from 'bun:test';
import { translateRe2 } from '../../server/services/import/filebrowser/fb-regex';
import { mapServer, mapSettings } from '../../server/services/import/filebrowser/fb-settings-map';
import { fbServerOverrides } from '../../server/services/import/filebrowser/fb-server-config';
import { mapLocale, mapScope, mapUser } from '../../server/services/import/filebrowser/fb-user-map';
import type { FbSettings, FbUser } from '../../server/services/import/filebrowser/fb-dump';

/** The field mapping of the filebrowser import (fb-user-map.ts, fb-settings-map.ts): each documented quirk. */
describe('filebrowser mapping', () => {
  test('RE2 patterns: kept, rewritten to the same meaning, or refused with the reason', () => {
    expect(translateRe2('\\.(exe|bat|cmd)$')).toEqual({ ok: true, raw: '\\.(exe|bat|cmd)$', changed: false });
    expect(translateRe2('(?i)\\.JPG$')).toMatchObject({ ok: true, changed: false });
    expect(translateRe2('\\A/secret(?P<rest>/.*)?\\z')).toEqual({ ok: true, raw: '^/secret(?<rest>/.*)?$', changed: true });
    expect(translateRe2('^/[[:digit:]]+$')).toMatchObject({ ok: true, raw: '^/[0-9]+$' });
    expect(translateRe2('(?s)a.b')).toMatchObject({ ok: false, why: expect.stringContaining('inline flags') });
    expect(translateRe2('\\Qa.b\\E')).toMatchObject({ ok: false });
    expect(translateRe2('([a-')).toMatchObject({ ok: false, why: expect.stringContaining('not a valid pattern') });
  });

  test('scopes: root + path since 2.22; climbing out refused; old absolute scopes warned', () => {
    const notes: string[] = [];
    expect(['.', '', '/', './users/dave', '/srv/data/carol', 'a//b/'].map((s) => mapScope(s, notes))).toEqual(['/', '/', '/', '/users/dave', '/srv/data/carol', '/a/b']);
    expect(notes).toEqual([]);
    expect(mapScope('/srv/data/carol', notes, true)).toBe('/srv/data/carol');
    expect(notes[0]).toContain('host path');
    expect(mapScope('../etc', [])).toBeNull();
  });

  test('locales: filebrowser codes are ours; regional tags fall back to the language; unknown ones to English', () => {
    const notes: string[] = [];
    expect(['pt-br', 'zh-cn', 'ua', 'de', 'de-AT', 'sv-se', ''].map((l) => mapLocale(l, notes))).toEqual(['pt-br', 'zh-cn', 'ua', 'de', 'de', 'sv-se', 'en']);
    expect(mapLocale('tlh', notes)).toBe('en');
    expect(notes).toEqual(['locale "tlh" is not available here: English instead']);
  });

  test('users: v2.0 records (11 keys) get the zero values; share without download goes off; a non-bcrypt password skips', () => {
    const old = { id: 2, username: 'carol', password: '$2a$10$' + 'a'.repeat(53), scope: '/srv/data/carol', locale: 'en', lockPassword: false, viewMode: '', perm: { admin: false, execute: true, create: true, rename: true, modify: true, delete: true, share: true, download: false }, commands: null, sorting: { by: '', asc: false }, rules: null } as FbUser;
    const m = mapUser(old);
    expect(m.ok && m.data).toMatchObject({ viewMode: 'list', sorting: { by: 'name', asc: false }, commands: [], rules: [], singleClick: false, dateFormat: false, aceEditorTheme: '', perm: { share: false } });
    expect(m.ok && m.notes.join()).toContain('share turned off');
    expect(mapUser({ ...old, password: 'plain-text' })).toMatchObject({ ok: false, why: expect.stringContaining('bcrypt') });
    const rules = mapUser({ ...old, rules: [{ regex: false, allow: false, path: '', regexp: null }, { regex: true, allow: true, path: '', regexp: { raw: '(?s)x' } }] });
    expect(rules.ok && rules.data.rules).toEqual([{ allow: false, regex: false, path: '/', regexp: null }]);
    expect(rules.ok && rules.notes.join()).toContain('dropped');
  });

  test('settings: the pre-2.8 shell [""], absent tus, hook and proxy auth, reCAPTCHA, unknown events', () => {
    const s = { key: '', signup: false, defaults: { scope: '.', locale: 'en', viewMode: 'list', sorting: { by: 'name', asc: false }, perm: {}, commands: [] }, authMethod: 'hook', branding: { name: 'X', disableExternal: false, files: '' }, commands: { before_save: ['a'], on_login: ['b'] }, shell: [''], rules: null } as unknown as FbSettings;
    const hook = mapSettings({ settings: s, auther: { command: '/bin/auth' } });
    expect(hook.patch).toMatchObject({ authMethod: 'json', shell: [], tus: { chunkSize: 10485760, retryCount: 5 }, userHomeBasePath: '/users', minimumPasswordLength: 12, commands: { before_save: ['a'] } });
    expect(hook.notes.join('\n')).toContain('hook authentication');
    expect(hook.notes.join('\n')).toContain('"on_login"');
    expect(mapSettings({ settings: { ...s, authMethod: 'proxy' }, auther: { header: 'X-Remote-User' } }).patch).toMatchObject({ authMethod: 'proxy', authHeader: 'X-Remote-User' });
    expect(mapSettings({ settings: { ...s, authMethod: 'json' }, auther: { recaptcha: { host: 'h', key: 'k', secret: 's' } } }).notes.join()).toContain('reCAPTCHA');
  });

  test('server: v2.0 records get the config init defaults; FB_* variables win over the config file', () => {
    expect(mapServer({ root: '.', baseURL: '', port: '8080', address: '127.0.0.1', log: 'stdout', tlsKey: '', tlsCert: '' }).config).toEqual({
      root: '.', baseURL: '', address: '127.0.0.1', port: 8080, log: 'stdout', enableThumbnails: true, resizePreview: true, typeDetectionByHeader: true, enableExec: false, followExternalSymlinks: false, tokenExpirationTime: '2h',
    });
    const o = fbServerOverrides({ port: 80, root: '/srv', 'disable-exec': 'false' }, { FB_PORT: '81', FB_BASEURL: '/old' });
    expect(o.values).toEqual({ root: '/srv', port: '81', baseURL: '/old', enableExec: true });
  });
});
