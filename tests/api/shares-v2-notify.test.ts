import { afterEach, expect, test } from 'bun:test';
import { createHmac } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeTestApp, type TestApp } from '../helpers/test-app';
import { silentLogger } from '../../server/core/log';
import { ShareWebhooks } from '../../server/services/shares/share-webhooks';

/** The owner is told (decision 0051): in-app notifications batched per link, the webhook, hooks with SHARE_HASH. */
let t: TestApp;
afterEach(() => t?.close());

async function inbox(app: TestApp, body: Record<string, unknown> = {}) {
  mkdirSync(join(app.root, 'bob/inbox'), { recursive: true });
  const bob = await app.userToken('bob', {}, { scope: '/bob' });
  const r = await app.req('POST', '/api/share/inbox/', { token: bob, body: { mode: 'upload', ...body } });
  expect(r.status).toBe(200);
  return { bob, share: (await r.json()) as { hash: string; webhookSecret: string } };
}
const send = (hash: string, name: string, body = 'x') => t.req('POST', `/api/public/upload/${hash}/${name}`, { raw: body });
const until = async (ok: () => boolean, ms: number) => {
  for (const end = Date.now() + ms; Date.now() < end && !ok(); ) await Bun.sleep(50);
};

test('arrivals through one link within 5 minutes make one notification; read marks', async () => {
  t = await makeTestApp();
  const { bob, share } = await inbox(t);
  expect((await send(share.hash, 'a.txt', 'aaa')).status).toBe(201);
  expect((await send(share.hash, 'b.txt', 'bb')).status).toBe(201);
  let n = (await (await t.req('GET', '/api/notifications', { token: bob })).json()) as { unread: number; items: { id: number; files: number; bytes: number; hash: string; name: string; read: boolean }[] };
  expect(n.unread).toBe(1);
  expect(n.items).toHaveLength(1);
  expect(n.items[0]).toMatchObject({ kind: 'share-upload', hash: share.hash, name: 'inbox', files: 2, bytes: 5, read: false });
  // Older than five minutes: the next arrival starts a new one.
  await t.s.db.run('UPDATE notifications SET started = started - ?', 6 * 60_000);
  expect((await send(share.hash, 'c.txt')).status).toBe(201);
  n = (await (await t.req('GET', '/api/notifications', { token: bob })).json()) as typeof n;
  expect([n.unread, n.items.map((i) => i.files)]).toEqual([2, [1, 2]]);
  // Someone else cannot mark bob's; bob marks one, then all.
  const carol = await t.userToken('carol');
  expect((await t.req('POST', '/api/notifications/read', { token: carol, body: { ids: [n.items[0]!.id] } })).status).toBe(204);
  expect(((await (await t.req('GET', '/api/notifications', { token: bob })).json()) as typeof n).unread).toBe(2);
  expect(((await (await t.req('GET', '/api/notifications', { token: carol })).json()) as typeof n).items).toEqual([]);
  expect((await t.req('POST', '/api/notifications/read', { token: bob, body: { ids: [n.items[0]!.id] } })).status).toBe(204);
  expect(((await (await t.req('GET', '/api/notifications', { token: bob })).json()) as typeof n).unread).toBe(1);
  // A read batch is closed: the next arrival starts a new one.
  expect((await send(share.hash, 'd.txt')).status).toBe(201);
  expect(((await (await t.req('GET', '/api/notifications', { token: bob })).json()) as typeof n).unread).toBe(2);
  expect((await t.req('POST', '/api/notifications/read', { token: bob })).status).toBe(204);
  expect(((await (await t.req('GET', '/api/notifications', { token: bob })).json()) as typeof n).unread).toBe(0);
  expect((await t.req('POST', '/api/notifications/read', { token: bob, body: { ids: ['x'] } })).status).toBe(400);
  expect((await t.req('GET', '/api/notifications')).status).toBe(401);
}, 30_000);

test('at most 200 notifications per user, the oldest dropped', async () => {
  t = await makeTestApp();
  const { bob } = await inbox(t);
  const id = (await t.s.users.find('bob')).id;
  for (let i = 0; i < 205; i++) await t.s.notifications.arrived(id, `link${i}`, 'inbox', 1, 1);
  const n = (await (await t.req('GET', '/api/notifications', { token: bob })).json()) as { unread: number; items: { hash: string }[] };
  expect([n.unread, n.items.length, n.items[0]!.hash, n.items.at(-1)!.hash]).toEqual([200, 200, 'link204', 'link5']);
}, 30_000);

test('the webhook: a signed JSON summary to a local receiver, retried after a 500', async () => {
  const got: { body: string; sig: string | null; type: string | null }[] = [];
  const receiver = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch: async (req) => {
      got.push({ body: await req.text(), sig: req.headers.get('x-filedeck-signature'), type: req.headers.get('content-type') });
      return new Response('', { status: got.length === 1 ? 500 : 200 });
    },
  });
  try {
    t = await makeTestApp({}, { shares: { webhookPrivateHosts: true } });
    const { share } = await inbox(t, { webhookUrl: `http://127.0.0.1:${receiver.port}/hook` });
    const started = Date.now();
    expect((await send(share.hash, 'a.txt', 'aaa')).status).toBe(201);
    expect((await send(share.hash, 'b.txt', 'bb')).status).toBe(201);
    expect(Date.now() - started).toBeLessThan(1500); // the upload never waits for the webhook
    await until(() => got.length >= 2, 15_000);
    expect(got).toHaveLength(2);
    const { time: _a, ...first } = JSON.parse(got[0]!.body);
    const { time: _b, ...retry } = JSON.parse(got[1]!.body);
    expect(retry).toEqual(first); // the same summary, sent again (its time is the sending's)
    for (const g of got) {
      expect(g.type).toBe('application/json');
      expect(g.sig).toBe(`sha256=${createHmac('sha256', share.webhookSecret).update(g.body).digest('hex')}`);
    }
    const body = JSON.parse(got[0]!.body);
    expect(body).toMatchObject({ event: 'share.upload', hash: share.hash, name: 'inbox', files: 2, bytes: 5, items: [{ path: '/a.txt', size: 3 }, { path: '/b.txt', size: 2 }] });
    expect(typeof body.time).toBe('number');
    expect(JSON.stringify(body)).not.toContain(share.webhookSecret);
  } finally {
    await receiver.stop(true);
  }
}, 30_000);

test('a webhook to a loopback or private host is refused unless the admin allows it (SSRF)', async () => {
  let hits = 0;
  const receiver = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => (hits++, new Response('ok')) });
  try {
    t = await makeTestApp();
    const { share } = await inbox(t, { webhookUrl: `http://127.0.0.1:${receiver.port}/hook` });
    expect((await send(share.hash, 'a.txt')).status).toBe(201);
    await Bun.sleep(3_500); // past the 2 s gathering window and the refused attempt
    expect(hits).toBe(0);
    // A stopped server drops what is pending (Services.close stops the queue): no timer left behind.
    expect((await send(share.hash, 'b.txt')).status).toBe(201);
  } finally {
    await receiver.stop(true);
  }
}, 30_000);

test('hooks hear SHARE_HASH for uploads through a link (and none for the owner\'s own)', async () => {
  t = await makeTestApp({ enableExec: 'true' });
  if (t.s.runner.mode === 'off') return; // no usable sandbox on this machine: hooks are off (sandbox.test.ts covers it)
  const { bob, share } = await inbox(t);
  await t.s.settings.update({ commands: { after_upload: ['sh -c \'printf "%s" "$SHARE_HASH" > hook-saw.txt\''] } }, ['commands']);
  expect((await send(share.hash, 'a.txt')).status).toBe(201);
  // The hook runs in the visitor's actor's scope: the shared folder.
  expect(readFileSync(join(t.root, 'bob/inbox/hook-saw.txt'), 'utf8')).toBe(share.hash);
  expect((await t.req('POST', '/api/resources/own.txt', { token: bob, raw: 'x' })).status).toBe(200);
  expect(readFileSync(join(t.root, 'bob/hook-saw.txt'), 'utf8')).toBe('');
}, 30_000);

test('arrivals at the same moment still make one notification', async () => {
  t = await makeTestApp();
  const { bob, share } = await inbox(t);
  const rs = await Promise.all(['a', 'b', 'c', 'd', 'e', 'f'].map((n) => send(share.hash, `${n}.txt`)));
  expect(rs.map((r) => r.status)).toEqual([201, 201, 201, 201, 201, 201]);
  const n = (await (await t.req('GET', '/api/notifications', { token: bob })).json()) as { unread: number; items: { files: number }[] };
  expect([n.unread, n.items.map((i) => i.files)]).toEqual([1, [6]]);
}, 30_000);

test('webhook delivery stops with the server: a request in flight is aborted, nothing is left pending', async () => {
  let arrived = 0;
  let aborted = false;
  const receiver = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch: (req) => {
      arrived++;
      req.signal.addEventListener('abort', () => (aborted = true));
      return new Promise<Response>(() => {}); // never answers
    },
  });
  try {
    const hooks = new ShareWebhooks(silentLogger, () => true, { gatherMs: 10, timeoutMs: 60_000, backoffMs: [60_000] });
    hooks.arrived({ hash: 'h', name: 'inbox', url: `http://127.0.0.1:${receiver.port}/`, secret: 's' }, { path: '/a', size: 1 });
    await until(() => arrived === 1, 5_000);
    expect(hooks.active).toBe(2); // the batch, and its request
    await hooks.stop();
    expect(hooks.active).toBe(0);
    await until(() => aborted, 5_000);
    expect(aborted).toBe(true);
    hooks.arrived({ hash: 'h', name: 'inbox', url: `http://127.0.0.1:${receiver.port}/`, secret: 's' }, { path: '/b', size: 1 });
    expect(hooks.active).toBe(0); // nothing is queued after stop
  } finally {
    await receiver.stop(true);
  }
}, 30_000);
