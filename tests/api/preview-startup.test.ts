import { afterEach, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type RunningServer } from '../helpers/binary';

// The real `filedeck serve` (sources, or FILEDECK_BIN), its log on stdout: what an admin reads at start.
let server: RunningServer | null = null;
let dir = '';
afterEach(async () => {
  await server?.stop();
  server = null;
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Starts a server with these flags and returns its log lines up to the line logged after it listens (so every start-up warning is in). */
async function startLog(flags: string[]): Promise<string[]> {
  dir = mkdtempSync(join(tmpdir(), 'preview-startup-'));
  server = await startServer(['-d', join(dir, 'fd.db'), '-r', dir, '--password', 'a-long-admin-password', '--log', 'stdout', ...flags], { cwd: dir });
  // Warnings are written before "listening on", the root line after it, on the same stream: once it is there, all are.
  const deadline = Date.now() + 15_000;
  while (!/root .*, database /.test(server.output())) {
    if (Date.now() > deadline) throw new Error(`no start-up log:\n${server.output()}`);
    await Bun.sleep(20);
  }
  return server.output().split('\n');
}

const unconfined = (lines: string[]) => lines.filter((l) => /pdftoppm, ffmpeg and heif-convert/.test(l) && /WITHOUT a sandbox/.test(l));
const noSandbox = (lines: string[]) => lines.filter((l) => /thumbnails are off: bubblewrap is missing or unusable/.test(l));

test('converters set to run unconfined: exactly one warning line at start', async () => {
  const lines = await startLog(['--bwrapPath', '/nonexistent/bwrap', '--execUnsafeNoSandbox', 'true']);
  expect(unconfined(lines)).toHaveLength(1);
  expect(unconfined(lines)[0]).toMatch(/warn/i);
  expect(noSandbox(lines)).toHaveLength(0);
}, 30_000);

test('no bubblewrap and no unsafe flag: the converters are off and the log says why, once', async () => {
  const lines = await startLog(['--bwrapPath', '/nonexistent/bwrap']);
  expect(noSandbox(lines)).toHaveLength(1);
  expect(unconfined(lines)).toHaveLength(0);
}, 30_000);

test('thumbnails off: no converter can run, so neither line is logged', async () => {
  const lines = await startLog(['--bwrapPath', '/nonexistent/bwrap', '--execUnsafeNoSandbox', 'true', '--enableThumbnails', 'false']);
  expect([unconfined(lines), noSandbox(lines)]).toEqual([[], []]);
}, 30_000);
