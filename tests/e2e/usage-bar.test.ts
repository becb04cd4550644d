import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import type { RunningServer } from '../helpers/binary';
import { apiOf, createUser, shotsAround, tokenOf } from './account-fixture';
import { expectAccessible } from './axe';
import { closeSession, loginAs, openSession, shot, workspace, type Session } from './browser';

// The sidebar's quota bar (issue 35): a user near their quota sees the bar in warning colours with "used of quota";
// an upload over it is refused with the server's 507, named in the error toast.
const ws = workspace('filedeck-usage-bar-');
const { root, dir } = ws;
const PW = 'usage-admin-password-35';
const USER_PW = 'usage-user-password-35';
const QUOTA = 1024 * 1024;
let server: RunningServer;
let page: Page;
let session: Session | undefined;

beforeAll(async () => {
  mkdirSync(join(root, 'users', 'nearly'), { recursive: true });
  writeFileSync(join(root, 'users', 'nearly', 'big.bin'), Buffer.alloc(QUOTA - 60 * 1024, 7));
  session = await openSession(ws, PW);
  ({ server, page } = session);
  const api = apiOf(server.url);
  const admin = await tokenOf(api, 'admin', PW);
  const perm = { admin: false, execute: false, create: true, rename: true, modify: true, delete: true, share: false, download: true };
  await createUser(api, admin, PW, { username: 'nearly', password: USER_PW, scope: '/users/nearly', perm, quota: { bytes: QUOTA, files: 0 } });
  await page.context().clearCookies();
  await page.evaluate(() => localStorage.clear());
  await loginAs(page, server.url, 'nearly', USER_PW);
});
afterAll(() => closeSession(ws, session));

describe('usage bar', () => {
  test('near the quota: amber bar, "used of quota" and a warning', async () => {
    await page.waitForSelector('[data-testid=quota]');
    expect(await page.getAttribute('[data-testid=quota]', 'data-level')).toBe('near');
    expect(await page.textContent('[data-testid=quota-text]')).toMatch(/ of 1 MB/);
    await page.waitForSelector('[data-testid=quota-warning]');
    await expectAccessible(page, 'files with the quota bar');
    await shotsAround(page, 'usage-bar-near');
  });

  test('an upload over the quota is refused with a 507 that names it', async () => {
    const local = join(dir, 'too-big.bin');
    writeFileSync(local, Buffer.alloc(200 * 1024, 1));
    await page.click('[data-testid=action-upload]');
    await page.waitForSelector('[data-testid=prompt-upload]');
    await page.setInputFiles('[data-testid=upload-input-files]', [local]);
    await page.waitForSelector('[data-testid=notice-error]');
    const text = await page.textContent('[data-testid=notice-error]');
    expect(text).toContain('Out of storage space:');
    expect(text).toContain('507');
    await shot(page, 'usage-bar-507-toast');
  });
});
