import { expect } from 'bun:test';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Page } from 'playwright-core';

/** axe-core's browser bundle, injected into the page under test (it is a dev dependency, never shipped). */
const AXE = resolve(import.meta.dir, '../../node_modules/axe-core/axe.min.js');
let source = '';

/** Issue 16 item 10: these impacts fail a test; minor and moderate ones are reported by axe but tolerated. */
const FAILING = new Set(['critical', 'serious']);

interface AxeNode {
  target: string[];
  failureSummary?: string;
}
interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: AxeNode[];
}

/** Runs axe on what the page shows now and returns its critical and serious violations, one readable line each. */
export async function axeFindings(page: Page, opts: { include?: string } = {}): Promise<string[]> {
  await page.waitForSelector('#loading', { state: 'detached' });
  // Colours are measured as painted: a prompt still fading in would read as low contrast. Finite animations end first.
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => Number.isFinite(Number(a.effect?.getComputedTiming().endTime)))
        .map((a) => a.finished.catch(() => undefined)),
    ),
  );
  // Evaluated through the debugging protocol: the app's CSP (script-src 'self') rightly refuses an injected <script>.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate((src) => (0, eval)(src), (source ||= readFileSync(AXE, 'utf8')));
  const violations = await page.evaluate(async (include) => {
    const axe = (window as unknown as { axe: { run(ctx: unknown, opts: unknown): Promise<{ violations: unknown[] }> } }).axe;
    const result = await axe.run(include ?? document, { resultTypes: ['violations'] });
    return result.violations;
  }, opts.include) as AxeViolation[];
  return violations
    .filter((v) => v.impact && FAILING.has(v.impact))
    .flatMap((v) => v.nodes.slice(0, 5).map((n) => `${v.impact} ${v.id} (${v.help}) at ${n.target.join(' ')}: ${(n.failureSummary ?? '').replace(/\s+/g, ' ').slice(0, 240)}`));
}

/** Fails the test when axe finds a critical or serious violation on the page; `where` names the screen in the message. */
export async function expectAccessible(page: Page, where: string, opts: { include?: string } = {}): Promise<void> {
  const found = await axeFindings(page, opts);
  expect({ where, found }).toEqual({ where, found: [] });
}
