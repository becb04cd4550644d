/**
 * Sessions and settings trusted from memory between requests (auth.service.ts authenticate, settings.service.ts
 * fresh: the database's change mark, sql.ts changeMark): every change committed anywhere applies to the very next
 * request. Each case first uses the token (so its session is held in memory), then changes the database from
 * outside this process's services: another SQLite connection, the CLI in another process, or time alone.
 * On PostgreSQL (FILEDECK_TEST_PG) there is no mark and every request reads the rows: the same cases hold.
 */
import { Database } from 'bun:sqlite';
import { afterEach, describe, expect, test } from 'bun:test';
import { mkdirSync } from 'node:fs';
import { cli } from '../helpers/binary';
import { settled } from '../helpers/settle';
import { USER_PASSWORD, makeTestApp, tokenPayload, type TestApp } from '../helpers/test-app';

let t: TestApp;
afterEach(() => t?.close());

const onSqlite = () => !t.database.startsWith('postgres');
/** A statement on the app's database from a connection of its own (SQLite only). */
function elsewhere(sql: string, ...params: (string | number)[]): void {
  const db = new Database(t.database);
  try {
    db.query(sql).run(...params);
  } finally {
    db.close();
  }
}
const names = async (token: string) => {
  const r = await t.req('GET', '/api/resources/', { token });
  expect(r.status).toBe(200);
  return ((await r.json()) as { items: { name: string }[] }).items.map((i) => i.name).sort();
};

describe('sessions held in memory', () => {
  test('a session row deleted by another connection ends the token on the next request', async () => {
    t = await makeTestApp();
    if (!onSqlite()) return;
    const bob = await t.userToken('bob');
    for (let i = 0; i < 3; i++) expect((await t.req('GET', '/api/users/2', { token: bob })).status).toBe(200);
    elsewhere('DELETE FROM sessions WHERE id = ?', tokenPayload(bob).sid);
    expect((await t.req('GET', '/api/users/2', { token: bob })).status).toBe(401);
  });

  test('a user row changed by another connection applies on the next request (scope, rules)', async () => {
    t = await makeTestApp();
    if (!onSqlite()) return;
    mkdirSync(`${t.root}/a/inner`, { recursive: true });
    mkdirSync(`${t.root}/b`);
    const bob = await t.userToken('bob');
    expect(await names(bob)).toEqual(['a', 'b']);
    elsewhere("UPDATE users SET rules = ? WHERE username = 'bob'", JSON.stringify([{ allow: false, regex: false, path: '/b', regexp: null }]));
    expect(await names(bob)).toEqual(['a']);
    elsewhere("UPDATE users SET scope = '/a' WHERE username = 'bob'");
    expect(await names(bob)).toEqual(['inner']);
  });

  test('global rules written by another connection apply on the next request', async () => {
    t = await makeTestApp();
    if (!onSqlite()) return;
    mkdirSync(`${t.root}/open`);
    mkdirSync(`${t.root}/secret`);
    const bob = await t.userToken('bob');
    expect(await names(bob)).toEqual(['open', 'secret']);
    elsewhere("UPDATE settings SET value = ? WHERE key = 'rules'", JSON.stringify([{ allow: false, regex: false, path: '/secret', regexp: null }]));
    elsewhere("UPDATE revisions SET n = n + 1 WHERE name = 'settings'");
    expect(await names(bob)).toEqual(['open']);
  });

  test('a session that reaches its end while nothing is written is 401 from then on', async () => {
    t = await makeTestApp();
    if (!onSqlite()) return;
    const bob = await t.userToken('bob');
    // The session row ends in ~1.2 s (the token itself lives for hours); the next request holds it in memory.
    elsewhere('UPDATE sessions SET expires_at = ? WHERE id = ?', Date.now() + 1200, tokenPayload(bob).sid);
    expect((await t.req('GET', '/api/users/2', { token: bob })).status).toBe(200);
    await Bun.sleep(1400);
    expect((await t.req('GET', '/api/users/2', { token: bob })).status).toBe(401);
  });

  test('the user object of a held session cannot be changed in place by a request', async () => {
    t = await makeTestApp();
    const bob = await t.userToken('bob');
    await t.req('GET', '/api/users/2', { token: bob });
    const u = await t.s.auth.authenticate(tokenPayload(bob));
    if (onSqlite()) expect(Object.isFrozen(u) && Object.isFrozen(u.perm) && Object.isFrozen(u.rules)).toBe(true);
    expect(() => {
      (u.perm as { delete: boolean }).delete = !u.perm.delete;
    }).toThrow();
  });
});

describe('the CLI in another process', () => {
  test('sessions end --user ends a token the server holds in memory, at once', async () => {
    t = await makeTestApp();
    const bob = await t.userToken('bob');
    const admin = await t.adminToken();
    for (let i = 0; i < 3; i++) expect((await t.req('GET', '/api/resources/', { token: bob })).status).toBe(200);
    const r = await cli(['sessions', 'end', '--user', 'bob', '--database', t.database, '--root', t.root]);
    expect(r.code).toBe(0);
    expect((await t.req('GET', '/api/resources/', { token: bob })).status).toBe(401);
    expect((await t.req('GET', '/api/resources/', { token: admin })).status).toBe(200);
  });

  /** A fresh app with /open and /secret, bob's token (which sees both), then `rules add /secret` by the CLI with `extra`. */
  async function bobThenRuleByCli(extra: string[]): Promise<string> {
    t = await makeTestApp();
    mkdirSync(`${t.root}/open`);
    mkdirSync(`${t.root}/secret`);
    const bob = await t.userToken('bob');
    expect(await names(bob)).toEqual(['open', 'secret']);
    const r = await cli(['rules', 'add', '/secret', ...extra, '--database', t.database, '--root', t.root]);
    expect(r.code).toBe(0);
    return bob;
  }

  test('rules add --user ends the live token at once (a rule change revokes), and the next login obeys the rule', async () => {
    const bob = await bobThenRuleByCli(['--user', 'bob']);
    expect((await t.req('GET', '/api/resources/', { token: bob })).status).toBe(401);
    expect(await names(await t.login('bob', USER_PASSWORD))).toEqual(['open']);
  });

  test('a global rule added by the CLI applies to the next request of a live token', async () => {
    const bob = await bobThenRuleByCli([]);
    // SQLite: the very next request. PostgreSQL re-reads the settings revision at most every 500 ms.
    if (onSqlite()) expect(await names(bob)).toEqual(['open']);
    else expect(await settled(() => names(bob), ['open'], 1500)).toEqual(['open']);
  });
});
