import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { allRouteDocs } from '../../server/http/openapi/api-docs';
import { NOT_OPERATIONS, openApiPath } from '../../server/http/openapi/build-document';
import { checkSchema } from '../helpers/json-schema';
import { makeTestApp, type TestApp } from '../helpers/test-app';

let t: TestApp;
let doc: { openapi: string; paths: Record<string, Record<string, any>>; servers: { url: string }[] };
beforeAll(async () => {
  t = await makeTestApp({ baseURL: '/fd' });
  const r = await t.req('GET', '/api/openapi.json', { token: await t.adminToken() });
  expect(r.status).toBe(200);
  doc = (await r.json()) as typeof doc;
});
afterAll(() => t.close());

const routeKey = (r: { method: string; path: string }) => `${r.method} ${r.path.replace(/^\/fd/, '') || '/'}`;

describe('OpenAPI document', () => {
  test('is OpenAPI 3.1 with the base URL as its server', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.servers).toEqual([{ url: '/fd' }]);
  });

  test('every route of the app is an operation with a summary and tags', () => {
    const missing: string[] = [];
    for (const r of t.app.routes) {
      const key = routeKey(r);
      if (NOT_OPERATIONS.has(key)) continue;
      const op = doc.paths[openApiPath(key.slice(key.indexOf(' ') + 1))]?.[r.method === 'WS' ? 'get' : r.method.toLowerCase()];
      if (!op || op['x-undocumented'] || !op.summary || !op.tags?.length) missing.push(key);
    }
    expect(missing).toEqual([]);
    expect(t.app.routes.length).toBeGreaterThan(50);
  });

  test('no description is left without its route (renamed or removed routes)', () => {
    const keys = new Set(t.app.routes.map(routeKey));
    expect(Object.keys(allRouteDocs()).filter((k) => !keys.has(k))).toEqual([]);
  });

  test('wildcards and ids become path parameters', () => {
    const raw = doc.paths['/api/raw/{path}']!.get;
    expect(raw.parameters.find((p: any) => p.in === 'path')).toMatchObject({ name: 'path', required: true });
    const user = doc.paths['/api/users/{id}']!.put;
    expect(user.parameters).toContainEqual({ name: 'id', in: 'path', required: true, schema: { type: 'string' } });
    expect(user.security).toEqual([{ token: [] }]);
    expect(doc.paths['/health']!.get.security).toEqual([]);
    expect(doc.paths['/api/command/{path}']!.get['x-websocket']).toBe(true);
  });

  test('each example validates against its schema, and the checker catches a wrong one', () => {
    let checked = 0;
    const problems: string[] = [];
    for (const [path, ops] of Object.entries(doc.paths))
      for (const [method, op] of Object.entries(ops)) {
        const bodies = [op.requestBody?.content, ...Object.values(op.responses ?? {}).map((r: any) => r.content)].filter(Boolean);
        for (const content of bodies)
          for (const [type, media] of Object.entries(content as Record<string, any>)) {
            if (media.example === undefined) continue;
            checked++;
            for (const e of checkSchema(media.schema, media.example)) problems.push(`${method.toUpperCase()} ${path} ${type}: ${e}`);
          }
      }
    expect(problems).toEqual([]);
    expect(checked).toBeGreaterThan(30);
    const listing = doc.paths['/api/resources/{path}']!.get.responses['200'].content['application/json'];
    expect(checkSchema(listing.schema, { ...listing.example, isDir: 'yes' })).toEqual(['$.isDir: expected boolean, got string']);
  });

  test('examples match what the server really answers', async () => {
    const r = await t.req('GET', '/ready');
    const ready = doc.paths['/ready']!.get.responses['200'].content['application/json'];
    expect(checkSchema(ready.schema, await r.json())).toEqual([]);
    const token = await t.adminToken();
    const users = await (await t.req('GET', '/api/users', { token })).json();
    expect(checkSchema(doc.paths['/api/users']!.get.responses['200'].content['application/json'].schema, users)).toEqual([]);
    await t.req('POST', '/api/resources/docs/', { token });
    const listing = await (await t.req('GET', '/api/resources/', { token })).json();
    expect(checkSchema(doc.paths['/api/resources/{path}']!.get.responses['200'].content['application/json'].schema, listing)).toEqual([]);
    const settings = await (await t.req('GET', '/api/settings', { token })).json();
    expect(checkSchema(doc.paths['/api/settings']!.get.responses['200'].content['application/json'].schema, settings)).toEqual([]);
  });

  test('needs a login', async () => {
    expect((await t.req('GET', '/api/openapi.json')).status).toBe(401);
    expect((await t.req('GET', '/api/openapi.json', { token: await t.userToken('bob') })).status).toBe(200);
  });
});
