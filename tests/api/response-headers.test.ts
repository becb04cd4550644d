import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeTestApp, type TestApp } from '../helpers/test-app';

// Every response carries nosniff, no-referrer and its request id, whatever produced it: a route's JSON, a streamed
// and a compressed listing, a file, an error, a 404, a refused login, the web app and a probe. They are stamped on
// the response by the observer (http/observe/request-observer.ts `stamp`), not through Elysia's set.headers.
let t: TestApp;
let token = '';

beforeAll(async () => {
  t = await makeTestApp();
  token = await t.adminToken();
  mkdirSync(join(t.root, 'many'));
  for (let i = 0; i < 300; i++) writeFileSync(join(t.root, 'many', `f-${i}.txt`), 'x');
  writeFileSync(join(t.root, 'note.txt'), 'hello');
});
afterAll(() => t.close());

describe('headers on every response', () => {
  const cases: [string, () => Promise<Response>, number][] = [
    ['a route answering JSON', () => t.req('GET', '/api/users/1', { token }), 200],
    ['a small listing', () => t.req('GET', '/api/resources/', { token }), 200],
    ['a streamed listing', () => t.req('GET', '/api/resources/many/', { token, headers: { 'Accept-Encoding': 'identity' } }), 200],
    ['a compressed listing', () => t.req('GET', '/api/resources/many/', { token, headers: { 'Accept-Encoding': 'br' } }), 200],
    ['a raw file', () => t.req('GET', '/api/raw/note.txt', { token }), 200],
    ['a missing item', () => t.req('GET', '/api/resources/nothing-here', { token }), 404],
    ['an unknown API path', () => t.req('GET', '/api/no-such-route', { token }), 404],
    ['no token', () => t.req('GET', '/api/resources/'), 401],
    ['a refused login', () => t.req('POST', '/api/login', { body: { username: 'admin', password: 'wrong-password-000' } }), 403],
    ['the web app', () => t.req('GET', '/files/'), 200],
    ['the health probe', () => t.req('GET', '/health'), 200],
  ];
  for (const [what, send, status] of cases)
    test(what, async () => {
      const r = await send();
      await r.arrayBuffer();
      expect(r.status).toBe(status);
      expect(r.headers.get('x-content-type-options')).toBe('nosniff');
      expect(r.headers.get('referrer-policy')).toBe('no-referrer');
      expect(r.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    });
});
