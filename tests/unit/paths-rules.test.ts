import { afterAll, describe, expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppError } from '../../server/core/errors';
import { ipInRanges, parseCidr } from '../../server/core/net';
import { ScopedFs } from '../../server/fs/scoped-fs';
import { decodeOnce, toVirtualPath } from '../../server/fs/virtual-path';
import { normaliseRules, RuleSet } from '../../server/services/rules/rules';
import { cleanUsername } from '../../server/services/users/user-validation';

const codeOf = async (fn: () => unknown) => {
  try {
    await fn();
    return 'OK';
  } catch (e) {
    return e instanceof AppError ? e.code : 'THREW';
  }
};

describe('virtual paths', () => {
  test('canonical forms', () => {
    expect(toVirtualPath('/')).toEqual({ path: '/', dir: true });
    expect(toVirtualPath('')).toEqual({ path: '/', dir: true });
    expect(toVirtualPath('/a/b')).toEqual({ path: '/a/b', dir: false });
    expect(toVirtualPath('a/b/')).toEqual({ path: '/a/b', dir: true });
    expect(toVirtualPath('/na me/ü.txt')).toEqual({ path: '/na me/ü.txt', dir: false });
    expect(toVirtualPath('/...hidden')).toEqual({ path: '/...hidden', dir: false });
  });

  test('ambiguous paths are refused, not cleaned', async () => {
    for (const bad of ['/../etc', '/a/../../b', '/a/./b', '..', '//etc/passwd', '/a//b', '/a\\..\\b', '/a\0b', '/a\nb', '/a\x7fb', `/${'x'.repeat(256)}`])
      expect({ bad, code: await codeOf(() => toVirtualPath(bad)) }).toEqual({ bad, code: 'INVALID' });
  });

  test('decoding happens exactly once', async () => {
    expect(toVirtualPath(decodeOnce('/a%2Fb')).path).toBe('/a/b');
    expect(await codeOf(() => toVirtualPath(decodeOnce('/%2e%2e/etc')))).toBe('INVALID');
    expect(toVirtualPath(decodeOnce('/%252e%252e')).path).toBe('/%2e%2e'); // a literal name, never decoded again
    expect(await codeOf(() => decodeOnce('/%zz'))).toBe('INVALID');
  });
});

describe('rules', () => {
  const set = (rules: unknown) => new RuleSet(normaliseRules(rules));
  test('last match wins, default allow, directory boundary', () => {
    const r = set([{ allow: false, path: '/secret' }, { allow: true, path: '/secret/open' }]);
    expect(r.allows('/secret')).toBe(false);
    expect(r.allows('/secret/x')).toBe(false);
    expect(r.allows('/secret/open/y')).toBe(true);
    expect(r.allows('/secret.txt')).toBe(true); // no prefix match without a boundary
    expect(r.allows('/secretive/x')).toBe(true);
    expect(r.allows('/other')).toBe(true);
  });
  test('regex rules are unanchored on the full path; (?i) becomes a flag', () => {
    const r = set([{ allow: false, regex: true, regexp: { raw: '(?i)\\.env$' } }]);
    expect(r.allows('/app/.ENV')).toBe(false);
    expect(r.allows('/app/env')).toBe(true);
  });
  test('a bad pattern is refused when saved', async () => {
    expect(await codeOf(() => normaliseRules([{ regex: true, regexp: { raw: '(' } }]))).toBe('INVALID');
    expect(await codeOf(() => normaliseRules([{ path: '/a/../b' }]))).toBe('INVALID');
    expect(await codeOf(() => normaliseRules('nope'))).toBe('INVALID');
  });
});

describe('scoped fs', () => {
  const base = mkdtempSync(join(tmpdir(), 'filedeck-scope-'));
  const scope = join(base, 'scope');
  const outside = join(base, 'outside');
  mkdirSync(join(scope, 'dir'), { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(outside, 'secret.txt'), 'secret');
  writeFileSync(join(scope, 'dir', 'ok.txt'), 'ok');
  symlinkSync(join(outside, 'secret.txt'), join(scope, 'leak.txt'));
  symlinkSync(outside, join(scope, 'leakdir'));
  symlinkSync(join(outside, 'not-yet.txt'), join(scope, 'dangling-out'));
  symlinkSync(join(scope, 'missing.txt'), join(scope, 'dangling-in'));
  symlinkSync(join(scope, 'dir', 'ok.txt'), join(scope, 'inlink.txt'));
  afterAll(() => rmSync(base, { recursive: true, force: true }));
  const fs = new ScopedFs(scope);

  test('symlinks leaving the scope are refused at any component, dangling ones too', async () => {
    expect(await codeOf(() => fs.resolve('/leak.txt'))).toBe('FORBIDDEN');
    expect(await codeOf(() => fs.resolve('/leakdir/secret.txt'))).toBe('FORBIDDEN');
    expect(await codeOf(() => fs.resolve('/leakdir/new/file.txt'))).toBe('FORBIDDEN');
    expect(await codeOf(() => fs.resolve('/dangling-out'))).toBe('FORBIDDEN');
    expect(await codeOf(() => fs.resolve('/dangling-in'))).toBe('OK');
    expect(await codeOf(() => fs.resolve('/inlink.txt'))).toBe('OK');
    expect(await codeOf(() => fs.resolve('/dir/new/deeper.txt'))).toBe('OK');
  });

  test('listing omits escaping links, marks broken ones, follows in-scope ones', async () => {
    const list = await fs.list('/');
    const names = Object.fromEntries(list.map((e) => [e.name, e]));
    expect(Object.keys(names).sort()).toEqual(['dangling-in', 'dir', 'inlink.txt']);
    expect(names['dangling-in']!.broken).toBe(true);
    expect(names['inlink.txt']).toMatchObject({ isSymlink: true, broken: false });
    expect(names['inlink.txt']!.stats.size).toBe(2);
  });

  test('followExternalSymlinks lets the admin opt out', async () => {
    expect(await codeOf(() => new ScopedFs(scope, true).resolve('/leak.txt'))).toBe('OK');
  });
});

describe('misc', () => {
  test('home folder names', () => {
    expect(cleanUsername('teamone/x')).toBe('teamone-x');
    expect(cleanUsername(' ann..b ')).toBe('annb');
    expect(cleanUsername('a  b!!c')).toBe('a-b-c');
    expect(() => cleanUsername('..')).toThrow();
    expect(() => cleanUsername('/')).toThrow();
  });
  test('CIDR ranges', () => {
    const r = ['10.0.0.0/8', '::1', '192.168.1.5'].map((x) => parseCidr(x)!);
    expect(ipInRanges('10.200.1.1', r)).toBe(true);
    expect(ipInRanges('::ffff:10.1.2.3', r)).toBe(true);
    expect(ipInRanges('::1', r)).toBe(true);
    expect(ipInRanges('192.168.1.6', r)).toBe(false);
    expect(ipInRanges('11.0.0.1', r)).toBe(false);
    expect(parseCidr('1.2.3.4/33')).toBeNull();
    expect(parseCidr('nope')).toBeNull();
  });
});
