import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { systemActor } from '../../server/services/actor';
import type { FilebrowserDump } from '../../server/services/import/filebrowser/fb-dump';
import type { ImportOptions } from '../../server/services/import/filebrowser/filebrowser-import.service';
import { toVirtualPath } from '../../server/fs/virtual-path';
import type { TestApp } from './test-app';
import { FB_FIXTURES } from './fb-fixtures';

/** The fixtures of issue 38 (fb-fixtures.ts): a file's path, and an expected-*.json file parsed. */
export const fbFile = (name: string) => join(FB_FIXTURES, name);
export const expected = (name: string) => JSON.parse(readFileSync(fbFile(name), 'utf8'));

/** 2026-07-01, the date the large fixture's expired-share count is given for. */
export const JULY_2026 = Date.UTC(2026, 6, 1) / 1000;

/**
 * The test app's first admin is called "admin", as the fixtures' is: renamed so an import creates the fixture's
 * (a conflict is what the conflict tests want instead).
 */
export async function renameTestAdmin(t: TestApp): Promise<void> {
  await t.s.users.update(systemActor, 1, ['username'], { username: 'filedeck-admin' });
}

/** Creates, under the files root, the item each link of `dump` names (in its owner's scope), with known content. */
export function createShareTargets(t: TestApp, dump: FilebrowserDump, hashes?: string[]): void {
  const scopes = new Map(dump.users.map((u) => [u.value.id, u.value.scope]));
  for (const { value: s } of dump.shares) {
    if (hashes && !hashes.includes(s.hash)) continue;
    const scope = toVirtualPath(String(scopes.get(s.userID) ?? '/').replace(/^\.\/?/, '/')).path;
    const full = join(t.root, scope, toVirtualPath(s.path).path);
    if (s.path.endsWith('/')) {
      mkdirSync(full, { recursive: true });
      writeFileSync(join(full, 'inside.txt'), `inside ${s.hash}`);
    } else {
      mkdirSync(dirname(full), { recursive: true });
      writeFileSync(full, `content of ${s.hash}`);
    }
  }
}

/** Plans and applies an import through the service, as the CLI does. */
export async function runImport(t: TestApp, dump: FilebrowserDump, opts: Partial<ImportOptions> = {}) {
  const plan = await t.s.filebrowserImport.plan(dump, { source: 'fixture', ...opts });
  const result = await t.s.filebrowserImport.apply(plan);
  return { plan, result };
}

/** What our database holds, to show that something wrote nothing. */
export async function dbState(t: TestApp) {
  const users = await t.s.stores.users.all();
  return {
    users: users.map((u) => ({ ...u, updatedAt: 0 })),
    shares: await t.s.stores.shares.all(),
    settings: await t.s.stores.settings.getAll(),
    revision: await t.s.stores.settings.revision(),
  };
}
