import { afterEach, expect, test } from 'bun:test';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeTestApp, type TestApp } from '../helpers/test-app';
import { runScenarios, type Scenario } from '../helpers/scenario';

// Rules are also checked where an in-scope symlink really leads: a link cannot open what the rules deny.
let t: TestApp;
afterEach(async () => {
  await t?.close();
  t = undefined as unknown as TestApp; // a scenario table's rows leave it unset: close each app once
});

async function setup() {
  t = await makeTestApp();
  return layout(t);
}

/** Denied /private, reached by links from the root; bob's token. */
async function layout(t: TestApp) {
  mkdirSync(join(t.root, 'private'), { recursive: true });
  mkdirSync(join(t.root, 'public'), { recursive: true });
  writeFileSync(join(t.root, 'private', 'secret.txt'), 'top secret');
  writeFileSync(join(t.root, 'public', 'ok.txt'), 'fine');
  symlinkSync(join(t.root, 'private'), join(t.root, 'pub-link'));
  symlinkSync(join(t.root, 'private', 'secret.txt'), join(t.root, 'secret-link.txt'));
  symlinkSync(join(t.root, 'public', 'ok.txt'), join(t.root, 'ok-link.txt'));
  (await t.s.settings.update({ rules: [{ allow: false, regex: false, path: '/private', regexp: null }] }, ['rules']));
  return t.userToken('bob');
}

test('links to denied targets are hidden from listings and archives; a link to an allowed target is served', async () => {
  const token = await setup();
  const root = await (await t.req('GET', '/api/resources/', { token })).json();
  expect(root.items.map((i: { name: string }) => i.name).sort()).toEqual(['ok-link.txt', 'public']);
  const tar = Buffer.from(await (await t.req('GET', '/api/raw/?algo=tar', { token })).arrayBuffer()).toString('latin1');
  expect(tar).not.toContain('top secret');
  expect(tar).toContain('fine');
  const ok = await t.req('GET', '/api/raw/ok-link.txt', { token });
  expect([ok.status, await ok.text()]).toEqual([200, 'fine']);
});

test('a public share of a folder cannot reach the owner\'s denied paths through links inside it', async () => {
  const token = await setup();
  symlinkSync(join(t.root, 'private'), join(t.root, 'public', 'inner-link'));
  const share = await (await t.req('POST', '/api/share/public/', { token, body: {} })).json();
  const list = await (await t.req('GET', `/api/public/share/${share.hash}/`)).json();
  expect(list.items.map((i: { name: string }) => i.name)).toEqual(['ok.txt']);
  expect((await t.req('GET', `/api/public/dl/${share.hash}/inner-link/secret.txt`)).status).toBe(403);
});

// Every route refuses a link whose target the rules deny, and changes nothing (one app: the rows only try).
runScenarios(
  'links to denied targets are refused on every route',
  async (t) => ({ bob: await layout(t) }),
  ([
    ['GET', '/api/raw/pub-link/secret.txt'],
    ['GET', '/api/raw/secret-link.txt'],
    ['GET', '/api/resources/pub-link'],
    ['GET', '/api/resources/secret-link.txt'],
    ['PUT', '/api/resources/secret-link.txt'],
    ['POST', '/api/resources/pub-link/new.txt'],
    ['DELETE', '/api/resources/pub-link/secret.txt'],
  ] as const).map(([method, url]): Scenario => ({ name: `${method} ${url}`, as: 'bob', method, url, raw: method === 'PUT' || method === 'POST' ? 'x' : undefined, status: 403, excludes: 'top secret' })),
  { shared: true },
);
