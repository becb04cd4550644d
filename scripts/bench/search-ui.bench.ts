/**
 * Search in the browser over 1,000,000 files (issue 15; not a test, prints figures): in headless Chromium, the
 * search overlay asked a broad query (tens to hundreds of thousands of results, streamed and ranked in the page):
 * when the first result is on screen, when the count of every result is, and the longest main-thread task meanwhile
 * (how long the page froze). Data: ../shared/bench/gen-scale.mjs search-1m, made once (as search.bench.ts does).
 * Usage: bun scripts/bench/search-ui.bench.ts [--data DIR] [--runs 3]   (FILEDECK_BIN = a compiled binary)
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { startServer } from '../../tests/helpers/binary';
import { signedInContext } from './bench-browser';

const ROOT = resolve(import.meta.dir, '../..');
const arg = (name: string, dflt: string) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1]! : dflt);
const DATA = arg('--data', join(tmpdir(), 'filedeck-search-1m'));
const RUNS = Number(arg('--runs', '3'));
const PW = 'bench-admin-password-1';
const QUERIES = ['report', 'txt'];
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

if (!existsSync(join(DATA, 'top-9'))) {
  console.log(`generating 1,000,000 files in ${DATA} …`);
  Bun.spawnSync(['node', resolve(ROOT, '../shared/bench/gen-scale.mjs'), 'search-1m', DATA], { stdout: 'inherit' });
}

/** Reads the page's own marks every 20 ms (no Playwright helper script in the page while it is measured). */
async function until<T>(page: Page, read: () => T | 0, timeoutMs: number): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await page.evaluate(read);
    if (v) return v as T;
    if (Date.now() > end) throw new Error('timed out');
    await Bun.sleep(20);
  }
}

const work = mkdtempSync(join(tmpdir(), 'filedeck-search-ui-bench-'));
const srv = await startServer(['-a', '127.0.0.1', '-r', DATA, '-d', join(work, 'db.sqlite'), '--password', PW], { cwd: ROOT });
const login = async () => (await fetch(`${srv.url}/api/login`, { method: 'POST', body: JSON.stringify({ username: 'admin', password: PW }) })).text();
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] });
try {
  const token = await login();
  for (let i = 0; ; i++) {
    const r = await fetch(`${srv.url}/api/search/?query=none`, { headers: { 'X-Auth': token } });
    await r.arrayBuffer();
    if (r.headers.get('x-search-source') === 'index') break;
    if (i === 600) throw new Error('the name index was not ready within 2 minutes');
    await Bun.sleep(200);
  }
  console.log(`\nFiledeck search in the browser (headless Chromium, ${RUNS} runs per query, 1,000,000 files)`);
  for (const query of QUERIES) {
    const first: number[] = [];
    const all: number[] = [];
    const longest: number[] = [];
    let count = '';
    for (let run = 0; run < RUNS; run++) {
      // A fresh session each run: the app renews (and so revokes) the one it starts with.
      const context = await signedInContext(browser, srv.url, await login(), { longTasks: true });
      const page = await context.newPage();
      await page.goto(`${srv.url}/files/`);
      await until(page, () => document.querySelector('[data-testid=item]') !== null || 0, 30_000);
      await page.keyboard.press('Control+f');
      await until(page, () => document.querySelector('[data-testid=search-input]') !== null || 0, 30_000);
      await page.fill('[data-testid=search-input]', query);
      // From Enter: the first result on screen, then the count's last change (none for 1.5 s: the stream has ended).
      await page.evaluate(() => {
        const w = window as unknown as { longest: number; t0: number };
        w.longest = 0;
        w.t0 = performance.now();
      });
      await page.keyboard.press('Enter');
      first.push(await until(page, () => (document.querySelector('[data-testid=search-hit]') ? performance.now() - (window as unknown as { t0: number }).t0 : 0), 120_000));
      let last = '';
      let lastAt = 0;
      for (let since = Date.now(); Date.now() - since < 1500; await Bun.sleep(20)) {
        const [now, at] = await page.evaluate(() => [document.querySelector('[data-testid=search-count]')?.textContent ?? '', performance.now() - (window as unknown as { t0: number }).t0] as const);
        if (now === last) continue;
        last = now;
        lastAt = at;
        since = Date.now();
      }
      all.push(lastAt);
      longest.push(await page.evaluate(() => (window as unknown as { longest: number }).longest));
      count = last;
      await context.close();
    }
    const runs = (xs: number[]) => xs.map((x) => x.toFixed(0)).join(', ');
    console.log(`  "${query}" (${count}): first result ${median(first).toFixed(0)} ms (${runs(first)}); every result counted ${median(all).toFixed(0)} ms (${runs(all)}); longest task ${median(longest).toFixed(0)} ms (${runs(longest)})`);
  }
} finally {
  await browser.close();
  await srv.stop();
  rmSync(work, { recursive: true, force: true });
}
