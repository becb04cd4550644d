/**
 * UI benchmark in headless Chromium against the compiled binary: time from navigation to the first 50 items of
 * a 10,000-item folder painted, and the gzip size of the JavaScript the listing page loads.
 * Usage: bun scripts/bench/ui.bench.ts   (builds dist/filedeck if missing; needs /usr/bin/chromium)
 */
import { spawn, spawnSync } from 'bun';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';

const ROOT = resolve(import.meta.dir, '../..');
const BIN = process.env.FILEDECK_BIN ?? join(ROOT, 'dist/filedeck');
if (!existsSync(BIN) && spawnSync([process.execPath, 'scripts/build.ts'], { cwd: ROOT, stdout: 'inherit' }).exitCode !== 0) process.exit(1);
const PW = 'bench-admin-password-1';
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const work = mkdtempSync(join(tmpdir(), 'filedeck-ui-bench-'));
const data = join(work, 'files');
mkdirSync(join(data, 'big'), { recursive: true });
for (let i = 0; i < 10_000; i++) writeFileSync(join(data, 'big', `document-${String(i).padStart(5, '0')}.txt`), 'x');
const s = Bun.serve({ port: 0, fetch: () => new Response() });
const port = s.port!;
s.stop(true);
const server = spawn([BIN, 'serve', '-p', String(port), '-d', join(work, 'db.sqlite'), '-r', data, '--password', PW, '--log', ''], { stdout: 'ignore', stderr: 'ignore' });
const base = `http://127.0.0.1:${port}`;
try {
  for (let i = 0; i < 500; i++) {
    try {
      if ((await fetch(`${base}/health`)).ok) break;
    } catch {}
    await Bun.sleep(10);
  }
  const login = async () => (await fetch(`${base}/api/login`, { method: 'POST', body: JSON.stringify({ username: 'admin', password: PW }) })).text();
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'] });
  const times: number[] = [];
  let jsGzip = 0;
  let jsRaw = 0;
  for (let run = 0; run < 5; run++) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const token = await login(); // a fresh session each run: the app renews (and so revokes) the one it starts with
    await context.addCookies([{ name: 'auth', value: token, url: base, sameSite: 'Strict' }]);
    await context.addInitScript(`localStorage.setItem('jwt', ${JSON.stringify(token)});`);
    const page = await context.newPage();
    const scripts: string[] = [];
    page.on('response', (r) => {
      if (r.request().resourceType() === 'script') scripts.push(r.url());
    });
    await page.goto(`${base}/files/big/`);
    // Checked once per animation frame: the first frame in which 50 items are in the DOM (time since navigation start).
    const painted = await page.waitForFunction(() => (document.querySelectorAll('[data-testid=item]').length >= 50 ? performance.now() : 0), null, { polling: 'raf', timeout: 30_000 }).catch(async (e) => {
      await page.screenshot({ path: join(tmpdir(), 'filedeck-ui-bench-failure.png') });
      throw new Error(`the listing did not show 50 items (at ${page.url()}; screenshot in ${tmpdir()}): ${(e as Error).message}`);
    });
    times.push((await painted.jsonValue()) as number);
    if (run === 0) {
      for (const url of new Set(scripts)) {
        const body = Buffer.from(await (await fetch(url, { headers: { 'Accept-Encoding': 'identity' } })).arrayBuffer());
        jsRaw += body.length;
        jsGzip += gzipSync(body, { level: 9 }).length;
      }
    }
    await context.close();
  }
  await browser.close();
  console.log('\nFiledeck UI benchmark (headless Chromium, compiled binary)');
  console.log(`  navigation to first 50 of 10,000 items painted (median of 5)   ${median(times).toFixed(0)} ms  (runs: ${times.map((t) => t.toFixed(0)).join(', ')})`);
  console.log(`  JavaScript loaded by the listing page                        ${(jsGzip / 1024).toFixed(1)} KiB gzip (${(jsRaw / 1024).toFixed(0)} KiB raw)`);
} finally {
  server.kill();
  rmSync(work, { recursive: true, force: true });
}
