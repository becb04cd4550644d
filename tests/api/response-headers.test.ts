import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runScenarios, type Scenario } from '../helpers/scenario';

// Every response carries nosniff, no-referrer and its request id, whatever produced it: a route's JSON, a streamed
// and a compressed listing, a file, an error, a 404, a refused login, the web app and a probe. They are stamped on
// the response by the observer (http/observe/request-observer.ts `stamp`), not through Elysia's set.headers.
const STAMPED = { 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer', 'x-request-id': /^[0-9a-f-]{36}$/ };
const row = (name: string, as: string, method: string, url: string, status: number, more: Partial<Scenario> = {}): Scenario => ({ name, as, method, url, status, responseHeaders: STAMPED, ...more });

runScenarios(
  'headers on every response',
  async (t) => {
    mkdirSync(join(t.root, 'many'));
    for (let i = 0; i < 300; i++) writeFileSync(join(t.root, 'many', `f-${i}.txt`), 'x');
    writeFileSync(join(t.root, 'note.txt'), 'hello');
    return {};
  },
  [
    row('a route answering JSON', 'admin', 'GET', '/api/users/1', 200),
    row('a small listing', 'admin', 'GET', '/api/resources/', 200),
    row('a streamed listing', 'admin', 'GET', '/api/resources/many/', 200, { headers: { 'Accept-Encoding': 'identity' } }),
    row('a compressed listing', 'admin', 'GET', '/api/resources/many/', 200, { headers: { 'Accept-Encoding': 'br' } }),
    row('a raw file', 'admin', 'GET', '/api/raw/note.txt', 200),
    row('a missing item', 'admin', 'GET', '/api/resources/nothing-here', 404),
    row('an unknown API path', 'admin', 'GET', '/api/no-such-route', 404),
    row('no token', 'anon', 'GET', '/api/resources/', 401),
    row('a refused login', 'anon', 'POST', '/api/login', 403, { body: { username: 'admin', password: 'wrong-password-000' } }),
    row('the web app', 'anon', 'GET', '/files/', 200),
    row('the health probe', 'anon', 'GET', '/health', 200),
  ],
  { shared: true },
);
