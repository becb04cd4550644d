import { afterAll } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Preloaded by every `bun test` (bunfig.toml). A server or CLI run on PostgreSQL without `indexDir` keeps its name
 * index under $XDG_CACHE_HOME/filedeck (server/core/config.ts): pointed at a folder of this run, so the suite
 * leaves nothing in the home folder of whoever runs it (it left index folders under ~/.cache/filedeck).
 */
if (!process.env.FILEDECK_TEST_CACHE_HOME) {
  // Bun keeps its transpiler cache under $XDG_CACHE_HOME when that is set: the spawned `bun cmd/main.ts` runs keep
  // using the usual one, or each would transpile everything again.
  process.env.BUN_RUNTIME_TRANSPILER_CACHE_PATH ??= join(process.env.BUN_INSTALL_CACHE_DIR || join(homedir(), '.bun/install/cache'), '@t@');
  const dir = mkdtempSync(join(tmpdir(), 'filedeck-test-cache-'));
  process.env.FILEDECK_TEST_CACHE_HOME = dir;
  process.env.XDG_CACHE_HOME = dir;
  afterAll(() => rmSync(dir, { recursive: true, force: true })); // a preload's afterAll runs once, after every file
}
