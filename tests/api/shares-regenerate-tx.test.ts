import { afterEach, expect, test } from 'bun:test';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { makeTestApp, type TestApp } from '../helpers/test-app';

/**
 * Regenerating a link's hash is one transaction (decision 0051): the share row, its access-log lines and its owner's
 * notifications move to the new hash together, or, when any of them fails, none does and the old URL keeps working.
 */
let t: TestApp;
afterEach(() => t?.close());

const onPostgres = () => !!process.env.FILEDECK_TEST_PG;

/** Makes every UPDATE of notifications fail, as a broken statement in the middle of the regeneration would. */
async function refuseNotificationUpdates(t: TestApp): Promise<void> {
  if (onPostgres()) {
    await t.s.db.run("CREATE FUNCTION refuse_update() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'refused by the test'; END $$");
    await t.s.db.run('CREATE TRIGGER refuse_update BEFORE UPDATE ON notifications FOR EACH ROW EXECUTE FUNCTION refuse_update()');
  } else await t.s.db.run("CREATE TRIGGER refuse_update BEFORE UPDATE ON notifications BEGIN SELECT RAISE(ABORT, 'refused by the test'); END");
}

async function uploadLink(t: TestApp) {
  mkdirSync(join(t.root, 'bob/inbox'), { recursive: true });
  const bob = await t.userToken('bob', {}, { scope: '/bob' });
  const r = await t.req('POST', '/api/share/inbox/', { token: bob, body: { mode: 'upload-view', slug: 'bobs-inbox' } });
  const hash = ((await r.json()) as { hash: string }).hash;
  expect((await t.req('POST', `/api/public/upload/${hash}/a.txt`, { raw: 'aaa' })).status).toBe(201);
  expect((await t.req('GET', `/api/public/share/${hash}/`)).status).toBe(200);
  return { bob, hash };
}

const logOf = async (hash: string) => (await t.s.db.all<{ kind: string }>('SELECT kind FROM share_access WHERE hash = ? ORDER BY id', hash)).map((r) => r.kind);
const notified = async (hash: string) => (await t.s.db.all<{ files: number }>('SELECT files FROM notifications WHERE hash = ?', hash)).map((r) => Number(r.files));

test('regeneration moves the link, its log and its notifications together', async () => {
  t = await makeTestApp();
  const { bob, hash } = await uploadLink(t);
  expect(await logOf(hash)).toEqual(['upload', 'view']);
  expect(await notified(hash)).toEqual([1]);
  const r = await t.req('POST', `/api/share/${hash}/regenerate`, { token: bob });
  expect(r.status).toBe(200);
  const next = ((await r.json()) as { hash: string }).hash;
  expect([await logOf(hash), await notified(hash)]).toEqual([[], []]);
  expect([await logOf(next), await notified(next)]).toEqual([['upload', 'view'], [1]]);
  expect((await t.req('GET', `/api/public/share/${hash}/`)).status).toBe(404);
  expect((await t.req('GET', `/api/public/share/${next}/`)).status).toBe(200);
}, 30_000);

test('a regeneration that fails part-way changes nothing: old hash, slug, log and notifications all kept', async () => {
  t = await makeTestApp();
  const { bob, hash } = await uploadLink(t);
  await refuseNotificationUpdates(t);
  const r = await t.req('POST', `/api/share/${hash}/regenerate`, { token: bob });
  expect(r.status).toBe(500);
  const rows = await t.s.db.all<{ hash: string; slug: string }>('SELECT hash, slug FROM shares');
  expect(rows).toEqual([{ hash, slug: 'bobs-inbox' }]);
  expect(await logOf(hash)).toEqual(['upload', 'view']);
  expect(await notified(hash)).toEqual([1]);
  expect((await t.s.db.all('SELECT hash FROM share_access WHERE hash <> ?', hash))).toEqual([]);
  // The old URL and the slug still work.
  expect((await t.req('GET', `/api/public/share/${hash}/`)).status).toBe(200);
  expect((await t.req('GET', '/api/public/share/bobs-inbox/')).status).toBe(200);
}, 30_000);
