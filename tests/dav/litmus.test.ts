import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run, startDavServer, type DavServer, type DavUser } from './dav-fixture';
import { LITMUS_GROUPS, parseLitmus, type LitmusGroup } from './litmus-parse';

/**
 * Debian's litmus 0.13 (the standard WebDAV suite) against a real server, one bun test per litmus group. Each group
 * prints "litmus <group>: P of N passed" (N = the tests the group holds, so a test litmus skipped after an earlier
 * failure counts as not passed); scripts/run-tests.ts reads those lines and counts litmus' 104 tests one by one.
 * The password is an API token, as a desktop client would be configured.
 */
describe('litmus', () => {
  let srv: DavServer;
  let user: DavUser;
  let cwd = '';
  const totals: Record<string, number> = {};

  beforeAll(async () => {
    srv = await startDavServer('litmus');
    user = await srv.addUser('litmus', 'litmus-password-2231', '--scope', '/litmus-home');
    cwd = mkdtempSync(join(tmpdir(), 'filedeck-litmus-')); // litmus writes debug.log in its working folder
  }, 60_000);

  afterAll(async () => {
    const sum = Object.values(totals).reduce((a, b) => a + b, 0);
    const all = Object.values(LITMUS_GROUPS).reduce((a, b) => a + b, 0);
    console.log(`litmus total: ${sum} of ${all} passed`);
    await srv?.stop();
    if (cwd) rmSync(cwd, { recursive: true, force: true });
  });

  for (const [group, expected] of Object.entries(LITMUS_GROUPS) as [LitmusGroup, number][]) {
    test(group, async () => {
      const { out } = await run(['litmus', srv.dav, user.username, user.token], { cwd, env: { TESTS: group }, timeoutMs: 60_000 });
      const r = parseLitmus(out);
      totals[group] = r.passed;
      console.log(`litmus ${group}: ${r.passed} of ${expected} passed${r.warnings.length ? ` (${r.warnings.length} warnings: ${r.warnings.join('; ')})` : ''}`);
      if (r.passed !== expected) console.log(out.split(/[\r\n]+/).filter((l) => /FAIL|SKIPPED|WARNING|summary/.test(l)).join('\n'));
      expect({ group, passed: r.passed, failed: r.failed }).toEqual({ group, passed: expected, failed: [] });
    }, 70_000);
  }
});
