import { afterAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CONFIG_KEYS, envName, loadConfig } from '../../server/core/config';
import { AppError } from '../../server/core/errors';
import { parseDuration } from '../../server/core/duration';

const dir = mkdtempSync(join(tmpdir(), 'filedeck-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, text: string) => {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
};
const errorOf = (fn: () => unknown): string => {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(AppError);
    return (e as AppError).detail ?? '';
  }
  throw new Error('expected an error');
};

describe('config', () => {
  test('built-in defaults', () => {
    const c = loadConfig({ cwd: dir, env: {}, noDefaultFiles: true });
    expect(c).toMatchObject({ address: '127.0.0.1', port: 8080, baseURL: '', log: 'stdout', tokenExpirationTime: 7_200_000, enableExec: false, followExternalSymlinks: false, trustedProxies: [], enableThumbnails: true });
    expect(c.root).toBe(join(dir, 'data/files'));
    expect(c.database).toBe(join(dir, 'data/filedeck.db'));
    expect(c.cacheDir).toBe(join(dir, 'data/cache'));
  });

  test('precedence: default < file < env < flag', () => {
    const f = file('p.yaml', 'port: 9001\naddress: 0.0.0.0\nbaseURL: /files/\ntokenExpirationTime: 30m\n');
    expect(loadConfig({ cwd: dir, configFile: f, env: {} })).toMatchObject({ port: 9001, address: '0.0.0.0', baseURL: '/files', tokenExpirationTime: 1_800_000 });
    expect(loadConfig({ cwd: dir, configFile: f, env: { FILEDECK_PORT: '9002' } }).port).toBe(9002);
    expect(loadConfig({ cwd: dir, configFile: f, env: { FILEDECK_PORT: '9002' }, flags: { port: '9003' } }).port).toBe(9003);
    expect(loadConfig({ cwd: dir, configFile: f, env: { FILEDECK_TRUSTED_PROXIES: '10.0.0.0/8, ::1' } }).trustedProxies).toEqual(['10.0.0.0/8', '::1']);
  });

  test('./filedeck.yaml is found in the working directory; FILEDECK_CONFIG names another', () => {
    const sub = mkdtempSync(join(dir, 'cwd-'));
    writeFileSync(join(sub, 'filedeck.yaml'), 'port: 7001\n');
    expect(loadConfig({ cwd: sub, env: {} }).port).toBe(7001);
    const other = file('other.yaml', 'port: 7002\n');
    expect(loadConfig({ cwd: sub, env: { FILEDECK_CONFIG: other } }).port).toBe(7002);
  });

  test('env names are FILEDECK_<UPPER_SNAKE>', () => {
    expect(envName('baseURL')).toBe('FILEDECK_BASE_URL');
    expect(envName('tokenExpirationTime')).toBe('FILEDECK_TOKEN_EXPIRATION_TIME');
    expect(envName('enableExec')).toBe('FILEDECK_ENABLE_EXEC');
    for (const k of Object.keys(CONFIG_KEYS)) expect(envName(k)).toMatch(/^FILEDECK_[A-Z_]+$/);
  });

  test('bad values are errors that name the key and the source', () => {
    expect(errorOf(() => loadConfig({ cwd: dir, env: { FILEDECK_PORT: 'eighty' }, noDefaultFiles: true }))).toContain('"port" (env FILEDECK_PORT)');
    expect(errorOf(() => loadConfig({ cwd: dir, env: {}, flags: { port: '70000' }, noDefaultFiles: true }))).toContain('"port"');
    expect(errorOf(() => loadConfig({ cwd: dir, env: { FILEDECK_ENABLE_EXEC: 'maybe' }, noDefaultFiles: true }))).toContain('"enableExec"');
    expect(errorOf(() => loadConfig({ cwd: dir, env: { FILEDECK_TOKEN_EXPIRATION_TIME: 'forever' }, noDefaultFiles: true }))).toContain('"tokenExpirationTime"');
    expect(errorOf(() => loadConfig({ cwd: dir, env: { FILEDECK_TOKEN_EXPIRATION_TIME: '10s' }, noDefaultFiles: true }))).toContain('at least 1m');
    expect(errorOf(() => loadConfig({ cwd: dir, env: { FILEDECK_TRUSTED_PROXIES: '10.0.0.0/99' }, noDefaultFiles: true }))).toContain('"trustedProxies"');
    expect(errorOf(() => loadConfig({ cwd: dir, env: { FILEDECK_BASE_URL: 'files' }, noDefaultFiles: true }))).toContain('"baseURL"');
    expect(errorOf(() => loadConfig({ cwd: dir, env: { FILEDECK_BASE_URL: '/a/../b' }, noDefaultFiles: true }))).toContain('"baseURL"');
    expect(errorOf(() => loadConfig({ cwd: dir, env: { FILEDECK_CERT: '/x.pem' }, noDefaultFiles: true }))).toContain('"cert" and "key"');
    expect(errorOf(() => loadConfig({ cwd: dir, configFile: file('t.yaml', 'port: [1, 2]\n'), env: {} }))).toContain('"port" (file');
  });

  test('bad files: unknown key, invalid YAML, not a mapping, missing explicit file', () => {
    expect(errorOf(() => loadConfig({ cwd: dir, configFile: file('u.yaml', 'prot: 80\n'), env: {} }))).toContain('unknown key "prot"');
    expect(errorOf(() => loadConfig({ cwd: dir, configFile: file('b.yaml', 'port: 80\n  address: [x\n'), env: {} }))).toContain('not valid YAML');
    expect(errorOf(() => loadConfig({ cwd: dir, configFile: file('l.yaml', '- 1\n- 2\n'), env: {} }))).toContain('mapping');
    expect(errorOf(() => loadConfig({ cwd: dir, configFile: join(dir, 'missing.yaml'), env: {} }))).toContain('does not exist');
  });

  test('config.example.yaml documents every key with its default and loads as-is', () => {
    const example = join(import.meta.dir, '../../config.example.yaml');
    const text = require('node:fs').readFileSync(example, 'utf8') as string;
    for (const [k, spec] of Object.entries(CONFIG_KEYS)) {
      expect(text).toMatch(new RegExp(`^#? ?${k}:`, 'm'));
      expect(text).toContain(envName(k));
      void spec;
    }
    expect(loadConfig({ cwd: dir, configFile: example, env: {} })).toMatchObject({ port: 8080, address: '127.0.0.1' });
  });

  test('durations', () => {
    expect(parseDuration('2h')).toBe(7_200_000);
    expect(parseDuration('1h30m')).toBe(5_400_000);
    expect(parseDuration('90')).toBe(90_000);
    expect(parseDuration('500ms')).toBe(500);
    for (const bad of ['', 'h', '2x', '1h 30m', '-5m', '0s']) expect(parseDuration(bad)).toBeNull();
  });
});
