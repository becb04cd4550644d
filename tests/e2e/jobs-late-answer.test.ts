import { afterAll, beforeAll, expect, test } from 'bun:test';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import type { RunningServer } from '../helpers/binary';
import { makeTree } from '../helpers/jobs-fixture';
import { closeSession, openSession, workspace, type Session } from './browser';

// The jobs panel follows the server's event stream, and the page also takes the job from the answer to its own
// POST /api/jobs. That answer can come after the stream already said the job ended (a small job on a busy
// network): it says "queued", and it must not take the ended job back (fixed in 14194a4, web/state/jobs.state.ts).
// The answer is held here until the panel shows the end, so the order is certain, not left to timing.
const ws = workspace('filedeck-jobs-late-');
const { root } = ws;
const PW = 'jobs-late-admin-password-3';
let server: RunningServer;
let page: Page;
let session: Session | undefined;

beforeAll(async () => {
  // More entries than web/actions/job-size.ts lets one request delete: the delete runs as a background job.
  makeTree(join(root, 'big'), 600);
  session = await openSession(ws, PW);
  ({ server, page } = session);
}, 60_000);
afterAll(() => closeSession(ws, session));

/** Two animation frames: React has committed whatever state changed before this call. */
const rendered = () => page.evaluate(() => new Promise<void>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r()))));

test('the answer to the POST that started a job, arriving after the job ended, leaves the job shown as ended', async () => {
  await page.goto(`${server.url}/files/`);
  await page.waitForSelector('[data-name="big"]');
  let answered: { state: string } | null = null;
  let endShownFirst = false;
  const jobsUrl = (url: URL) => url.pathname === '/api/jobs';
  await page.route(
    jobsUrl,
    async (route) => {
      if (route.request().method() !== 'POST') return route.continue();
      const response = await route.fetch();
      answered = (await response.json()) as { state: string };
      // The stream tells the page the job ended; only then does the page get the (older) answer.
      await page.waitForSelector('[data-testid=job][data-state=done]', { timeout: 30_000 });
      endShownFirst = true;
      await route.fulfill({ response });
    },
  );
  await page.click('[data-name="big"]');
  await page.keyboard.press('Delete');
  await page.waitForSelector('[data-testid=prompt-delete] [data-testid=prompt-confirm]:not([disabled])');
  await page.click('[data-testid=prompt-delete] [data-testid=prompt-confirm]');
  // The prompt closes once deleteItems has the answer and runJob has applied it: the late answer is in the panel.
  await page.waitForSelector('[data-testid=prompt-delete]', { state: 'detached', timeout: 30_000 });
  await rendered();
  await page.unroute(jobsUrl);

  expect(endShownFirst).toBe(true);
  // The answer really was older than what the panel had: it said the job had not ended.
  expect(answered).not.toBeNull();
  expect(['queued', 'running']).toContain(answered!.state);
  const states = await page.locator('[data-testid=job]').evaluateAll((els) => els.map((e) => e.getAttribute('data-state')));
  expect(states).toEqual(['done']);
  expect(existsSync(join(root, 'big'))).toBe(false);
  await page.waitForSelector('[data-name="big"]', { state: 'detached' });
}, 60_000);
