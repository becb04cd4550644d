import { afterAll, describe, expect, test } from 'bun:test';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

// The systemd unit as shipped: it must verify, and its hardening must be real (systemd's own exposure score).
const UNIT = resolve(import.meta.dir, '../../scripts/deploy/filedeck.service');
const analyze = existsSync('/usr/bin/systemd-analyze');
const dir = mkdtempSync(join(tmpdir(), 'filedeck-unit-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.skipIf(!analyze)('systemd unit', () => {
  // verify checks that ExecStart exists and the user is known: point them at what this machine has.
  const unit = join(dir, 'filedeck.service');
  writeFileSync(unit, readFileSync(UNIT, 'utf8').replaceAll('/usr/local/bin/filedeck', process.env.FILEDECK_BIN ?? process.execPath).replace(/^(User|Group)=filedeck$/gm, '$1=daemon'));

  test('passes systemd-analyze verify', () => {
    const r = spawnSync('systemd-analyze', ['verify', unit], { encoding: 'utf8' });
    expect([r.status, r.stderr.trim()]).toEqual([0, '']);
  });

  test('reads FILEDECK_* variables from an optional environment file, and the README gives the whole install path', () => {
    const text = readFileSync(UNIT, 'utf8');
    expect(text).toMatch(/^EnvironmentFile=-\/etc\/filedeck\/filedeck\.env$/m);
    const readme = readFileSync(resolve(import.meta.dir, '../../README.md'), 'utf8');
    const install = readme.slice(readme.indexOf('### Install as a systemd service'));
    for (const step of ['useradd --system', 'install -d', '/etc/filedeck/filedeck.env', 'systemd-analyze verify', 'systemctl enable --now filedeck', 'journalctl -u filedeck', 'doctor'])
      expect(install).toContain(step);
  });

  test('is hardened: exposure score of 2.0 or less (OK), no capability, no device, no kernel access', () => {
    const r = spawnSync('systemd-analyze', ['security', '--offline=true', unit], { encoding: 'utf8' });
    const score = Number(/Overall exposure level for \S+: ([\d.]+)/.exec(r.stdout)?.[1]);
    console.log(`systemd exposure score: ${score}`);
    expect(score).toBeLessThanOrEqual(2.0);
    for (const must of ['CapabilityBoundingSet=', 'PrivateDevices=', 'ProtectKernelModules=', 'NoNewPrivileges='])
      expect(r.stdout).toMatch(new RegExp(`✓ ${must}`));
  });
});
