import { createHash } from 'node:crypto';
import { copyFileSync, chmodSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The filebrowser database fixtures (real bbolt files, see their README): copied into the repository so a fresh clone has them; read-only. */
export const FB_FIXTURES = join(import.meta.dir, '../fixtures/filebrowser-db');
export const FB_FIXTURE_DBS = ['basic.db', 'basic-16k.db', 'large.db', 'older.db'] as const;

export function fbExpected(name: string): Record<string, unknown> {
  return JSON.parse(readFileSync(join(FB_FIXTURES, name), 'utf8'));
}

/** A writable copy of a fixture in `dir`, to damage in a test (the fixtures themselves are never touched). */
export function copyFbFixture(name: string, dir: string, as = name): string {
  const to = join(dir, as);
  copyFileSync(join(FB_FIXTURES, name), to);
  chmodSync(to, 0o600);
  return to;
}

/** sha256 of every fixture database, to show a test run left them byte for byte as they were. */
export function fbFixtureHashes(): Record<string, string> {
  return Object.fromEntries(FB_FIXTURE_DBS.map((n) => [n, createHash('sha256').update(readFileSync(join(FB_FIXTURES, n))).digest('hex')]));
}
