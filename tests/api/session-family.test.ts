/**
 * Sessions end as a family (issue 32, item 12; sessions.store.ts deleteFamily): one renewal chain T1 -> T2 -> T3
 * is ended whole by a logout with any of its tokens, on this process and on a second set of services sharing the
 * database (another instance), even while every token is held in memory.
 */
import { afterEach, describe, expect, test } from 'bun:test';
import { createServices } from '../../server/app';
import { silentLogger } from '../../server/core/log';
import { ADMIN_PASSWORD, makeTestApp, tokenPayload, type TestApp } from '../helpers/test-app';

let t: TestApp;
afterEach(() => t?.close());

const status = async (token: string) => (await t.req('GET', '/api/users/1', { token })).status;

/** T1 -> T2 -> T3 inside the grace window: every token works. */
async function chain(): Promise<string[]> {
  const t1 = await t.login('admin', ADMIN_PASSWORD);
  const t2 = await (await t.req('POST', '/api/renew', { token: t1 })).text();
  const t3 = await (await t.req('POST', '/api/renew', { token: t2 })).text();
  const tokens = [t1, t2, t3];
  expect(new Set(tokens.map((x) => tokenPayload(x).sid)).size).toBe(3);
  for (const x of tokens) expect(await status(x)).toBe(200);
  return tokens;
}

describe('sessions end as a family', () => {
  for (const [end, which] of [['the newest', 2], ['the oldest', 0], ['the middle', 1]] as const) {
    test(`logout with ${end} token of T1 -> T2 -> T3 ends all three`, async () => {
      t = await makeTestApp({ tokenRenewGrace: '60s' });
      const other = await t.login('admin', ADMIN_PASSWORD); // another family of the same user
      const tokens = await chain();
      expect((await t.req('POST', '/api/logout', { token: tokens[which]! })).status).toBe(200);
      for (const [i, x] of tokens.entries()) {
        expect([i, await status(x)]).toEqual([i, 401]);
        expect([i, (await t.req('POST', '/api/renew', { token: x })).status]).toEqual([i, 401]);
      }
      expect(await status(other)).toBe(200);
      const left = await t.s.auth.sessions(1);
      expect(left.map((x) => x.id)).toEqual([tokenPayload(other).sid]);
    });
  }

  test('another instance on the same database refuses every token of the ended family at once', async () => {
    t = await makeTestApp({ tokenRenewGrace: '60s' });
    const tokens = await chain();
    const sids = tokens.map((x) => tokenPayload(x).sid as string);
    const other = await createServices(t.s.config, silentLogger);
    try {
      const claims = (sid: string) => ({ sid, user: { id: 1 } });
      // The other instance holds every session in memory...
      for (const sid of sids) expect((await other.auth.authenticate(claims(sid))).id).toBe(1);
      await t.req('POST', '/api/logout', { token: tokens[2]! });
      // ...and refuses all of them on the next request.
      for (const sid of sids) expect(await other.auth.authenticate(claims(sid)).then(() => 'ok', (e) => e.code)).toBe('UNAUTHORIZED');
    } finally {
      await other.close();
    }
  });

  test('a renewal made after an earlier renewal joins the same family (the chain id is carried, not recomputed)', async () => {
    t = await makeTestApp({ tokenRenewGrace: '60s' });
    const tokens = await chain();
    // A second renew of T1 inside its window answers T2 again, not a fourth session.
    const again = await (await t.req('POST', '/api/renew', { token: tokens[0]! })).text();
    expect(tokenPayload(again).sid).toBe(tokenPayload(tokens[1]!).sid);
    const rows = await Promise.all(tokens.map((x) => t.s.db.get<{ family: string }>('SELECT family FROM sessions WHERE id = ?', tokenPayload(x).sid)));
    expect(new Set(rows.map((r) => r?.family)).size).toBe(1);
    expect(rows[0]!.family).toBe(tokenPayload(tokens[0]!).sid);
  });
});
