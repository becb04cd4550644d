import { afterEach, describe, expect, test } from 'bun:test';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createHttpApp } from '../../server/app';
import { createLogger } from '../../server/core/log';
import { MetricsRegistry } from '../../server/core/metrics';
import { startJob, waitJob } from '../helpers/jobs-fixture';
import { listenHttp } from '../../server/http/listen';
import { ADMIN_PASSWORD, makeTestApp, type TestApp } from '../helpers/test-app';
import { settled } from '../helpers/settle';

const TOKEN = 'metrics-token-0123456789';
let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanup.reverse()) await c();
  cleanup = [];
});

/** A test app served on 127.0.0.1 (real sockets: Content-Length, peer address, streamed bodies). */
async function served(flags: Record<string, unknown> = {}, opts: { jsonLog?: boolean } = {}) {
  const t = await makeTestApp(flags);
  let app = t.app;
  const logFile = join(t.dir, 'requests.log');
  const log = createLogger(logFile, 'json');
  if (opts.jsonLog) {
    // The same services with a real JSON file logger and a fresh registry (the first app registered its metrics).
    app = await createHttpApp({ ...t.s, log, metrics: new MetricsRegistry() });
  }
  const server = listenHttp(app as never, { hostname: '127.0.0.1', port: 0, log: t.s.log });
  const url = `http://127.0.0.1:${server.port}`;
  cleanup.push(async () => {
    server.stop(true);
    await t.close();
  });
  const login = async () => (await fetch(`${url}/api/login`, { method: 'POST', body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }) })).text();
  return { t, url, login, server, logFile, log };
}

/** Parses the exposition text into "name{labels}" -> value. */
function parseMetrics(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const i = line.lastIndexOf(' ');
    out.set(line.slice(0, i), Number(line.slice(i + 1)));
  }
  return out;
}

const scrape = async (url: string) => {
  const r = await fetch(`${url}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } });
  expect(r.status).toBe(200);
  expect(r.headers.get('content-type')).toStartWith('text/plain; version=0.0.4');
  return parseMetrics(await r.text());
};

describe('health and readiness', () => {
  test('/health keeps its shape; /ready reports the database and fails with a message when it is gone', async () => {
    const t = await makeTestApp();
    cleanup.push(() => t.close());
    const h = await t.req('GET', '/health');
    expect(h.status).toBe(200);
    expect(await h.json()).toEqual({ status: 'OK' });
    const r = await t.req('GET', '/ready');
    expect(r.status).toBe(200);
    // The name index is named with its state, and never fails readiness (search walks folders meanwhile).
    expect(await r.json()).toEqual({ status: 'OK', checks: [{ name: 'database', ok: true }, { name: 'index', ok: true, state: 'off' }] });
    // A check that never answers is cut at the time limit: the probe answers 503 instead of hanging.
    t.s.health.addCheck('slow', () => new Promise(() => {}));
    const started = Date.now();
    const slow = await t.req('GET', '/ready');
    expect(slow.status).toBe(503);
    expect(Date.now() - started).toBeLessThan(4000);
    const body = (await slow.json()) as { status: string; checks: { name: string; ok: boolean; message?: string }[] };
    expect(body.status).toBe('unavailable');
    expect(body.checks.find((c) => c.name === 'slow')).toEqual({ name: 'slow', ok: false, message: 'no answer within 2000 ms' });
  });

  test('/ready names the index state; /metrics shows the index, jobs and errors by kind', async () => {
    const t = await makeTestApp({ metricsToken: TOKEN });
    cleanup.push(() => t.close());
    const token = await t.adminToken();
    mkdirSync(join(t.root, 'src', 'deep'), { recursive: true });
    mkdirSync(join(t.root, 'dst'));
    for (let i = 0; i < 5; i++) writeFileSync(join(t.root, 'src', 'deep', `f${i}.txt`), 'x');
    t.s.index.start();
    await t.s.index.settled();
    const ready = (await (await t.req('GET', '/ready')).json()) as { checks: { name: string; state?: string }[] };
    expect(ready.checks.find((c) => c.name === 'index')?.state).toBe('ready');
    const job = await waitJob(t, token, (await startJob(t, token, { kind: 'copy', items: ['/src'], destination: '/dst' })).id);
    expect(job.state).toBe('done');
    expect((await t.req('GET', '/api/resources/missing-file', { token })).status).toBe(404);
    expect((await t.req('GET', '/api/resources/', { token: 'not-a-token' })).status).toBe(401);
    const m = parseMetrics(await (await t.req('GET', '/metrics', { headers: { Authorization: `Bearer ${TOKEN}` } })).text());
    expect(m.get('filedeck_index_state{state="ready"}')).toBe(1);
    expect(m.get('filedeck_index_state{state="building"}')).toBe(0);
    expect(m.get('filedeck_index_entries{kind="all"}')).toBeGreaterThanOrEqual(7);
    expect(m.get('filedeck_index_builds_total')).toBe(1);
    expect(m.get('filedeck_index_lag_seconds')).toBeGreaterThanOrEqual(0);
    expect(m.get('filedeck_jobs{state="done"}')).toBe(1);
    expect(m.get('filedeck_jobs{state="queued"}')).toBe(0);
    expect(m.get('filedeck_jobs_finished_total{kind="copy",state="done"}')).toBe(1);
    expect(m.get('filedeck_http_errors_total{kind="not_found"}')).toBe(1);
    expect(m.get('filedeck_http_errors_total{kind="unauthorized"}')).toBe(1);
  });

  test('/ready answers 503 when the database cannot be reached', async () => {
    const t = await makeTestApp();
    // Closed as far as it still goes (its database is closed below), and its folder removed whatever that says.
    cleanup.push(async () => {
      await t.close().catch(() => {});
      rmSync(t.dir, { recursive: true, force: true });
    });
    await t.s.db.close();
    const r = await t.req('GET', '/ready');
    expect(r.status).toBe(503);
    const body = (await r.json()) as { checks: { name: string; ok: boolean; message?: string }[] };
    expect(body.checks[0]).toMatchObject({ name: 'database', ok: false });
    expect(body.checks[0]!.message).toBeTruthy();
    expect(JSON.stringify(body)).not.toContain(t.database); // never the connection string or file path
  });
});

describe('metrics protection', () => {
  test('off unless configured', async () => {
    const t = await makeTestApp();
    cleanup.push(() => t.close());
    const r = await t.req('GET', '/metrics');
    expect(r.status).toBe(404);
    expect(await r.text()).toContain('metrics are off');
  });

  test('token: 401 without or with a wrong one, 200 with it', async () => {
    const { url } = await served({ metricsToken: TOKEN });
    expect((await fetch(`${url}/metrics`)).status).toBe(401);
    const wrong = await fetch(`${url}/metrics`, { headers: { Authorization: 'Bearer wrong-token-0123456789' } });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('www-authenticate')).toContain('Bearer');
    expect((await fetch(`${url}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } })).status).toBe(200);
  });

  test('allowlist: the peer address must be inside; with a token too, both must hold', async () => {
    const inside = await served({ metricsAllow: '127.0.0.0/8' });
    expect((await fetch(`${inside.url}/metrics`)).status).toBe(200);
    const outside = await served({ metricsAllow: '10.0.0.0/8' });
    expect((await fetch(`${outside.url}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } })).status).toBe(403);
    // X-Forwarded-For from an untrusted peer changes nothing.
    expect((await fetch(`${outside.url}/metrics`, { headers: { 'X-Forwarded-For': '10.1.2.3' } })).status).toBe(403);
    const both = await served({ metricsAllow: '127.0.0.1', metricsToken: TOKEN });
    expect((await fetch(`${both.url}/metrics`)).status).toBe(401);
    expect((await fetch(`${both.url}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } })).status).toBe(200);
  });

  test('bad config values are refused with the key named', async () => {
    await expect(makeTestApp({ metricsToken: 'short' })).rejects.toThrow(/metricsToken/);
    await expect(makeTestApp({ metricsAllow: 'not-an-ip' })).rejects.toThrow(/metricsAllow/);
    await expect(makeTestApp({ logFormat: 'xml' })).rejects.toThrow(/logFormat/);
  });
});

describe('request metrics after a scripted workload', () => {
  test('requests by route and status, bytes, uploads, sessions, errors, memory', async () => {
    const { url, login } = await served({ metricsToken: TOKEN });
    const token = await login();
    const auth = { 'X-Auth': token };
    const payload = new Uint8Array(3000).fill(7);
    for (const name of ['a.bin', 'b.bin']) expect((await fetch(`${url}/api/resources/docs/${name}`, { method: 'POST', headers: auth, body: payload })).status).toBe(200);
    expect((await fetch(`${url}/api/resources/docs/`, { method: 'POST', headers: auth })).status).toBe(200); // a folder: not an upload
    const tus = await fetch(`${url}/api/tus/docs/c.bin`, { method: 'POST', headers: { ...auth, 'Upload-Length': '1000', 'Tus-Resumable': '1.0.0' } });
    expect(tus.status).toBe(201);
    const patch = await fetch(`${url}/api/tus/docs/c.bin`, { method: 'PATCH', headers: { ...auth, 'Upload-Offset': '0', 'Content-Type': 'application/offset+octet-stream', 'Tus-Resumable': '1.0.0' }, body: new Uint8Array(1000) });
    expect(patch.status).toBe(204);
    const list = await fetch(`${url}/api/resources/docs/`, { headers: auth });
    expect(list.status).toBe(200);
    const listBytes = (await list.arrayBuffer()).byteLength;
    for (let i = 0; i < 3; i++) expect((await fetch(`${url}/api/resources/nope-${i}`, { headers: auth })).status).toBe(404);
    // A streamed archive (no declared length) is counted as its bytes leave.
    const zip = await fetch(`${url}/api/raw/docs/?algo=zip`, { headers: auth });
    expect(zip.status).toBe(200);
    const zipBytes = (await zip.arrayBuffer()).byteLength;
    expect(zipBytes).toBeGreaterThan(6000);
    // The archive's last bytes are counted as they leave, which can be after the client has read them all.
    const rawBytes = async () => (await scrape(url)).get('filedeck_http_response_bytes_total{route="/api/raw/*"}');
    expect(await settled(rawBytes, zipBytes)).toBe(zipBytes);

    const m = await scrape(url);
    expect(m.get('filedeck_http_requests_total{route="/api/login",method="POST",status="200"}')).toBe(1);
    expect(m.get('filedeck_http_requests_total{route="/api/resources/*",method="POST",status="200"}')).toBe(3);
    expect(m.get('filedeck_http_requests_total{route="/api/resources/*",method="GET",status="404"}')).toBe(3);
    expect(m.get('filedeck_http_requests_total{route="/api/tus/*",method="POST",status="201"}')).toBe(1);
    expect(m.get('filedeck_uploads_total{protocol="post"}')).toBe(2);
    expect(m.get('filedeck_uploads_total{protocol="tus"}')).toBe(1);
    expect(m.get('filedeck_upload_bytes_total{protocol="post"}')).toBe(6000);
    expect(m.get('filedeck_upload_bytes_total{protocol="tus"}')).toBe(1000);
    expect(m.get('filedeck_http_request_bytes_total{route="/api/resources/*"}')).toBe(6000);
    expect(m.get('filedeck_http_response_bytes_total{route="/api/raw/*"}')).toBe(zipBytes);
    expect(m.get('filedeck_http_response_bytes_total{route="/api/resources/*"}')).toBeGreaterThanOrEqual(listBytes);
    expect(m.get('filedeck_http_request_duration_seconds_count{route="/api/resources/*",method="GET"}')).toBe(4);
    expect(m.get('filedeck_http_request_duration_seconds_bucket{route="/api/resources/*",method="GET",le="+Inf"}')).toBe(4);
    expect(m.get('filedeck_active_sessions')).toBe(1);
    expect(m.get('filedeck_process_memory_bytes{kind="rss"}')).toBeGreaterThan(1e6);
    expect(m.get('filedeck_http_server_errors_total{route="/api/resources/*"}')).toBeUndefined();
    // No user path ever becomes a label.
    const text = await (await fetch(`${url}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } })).text();
    expect(text).not.toContain('nope-');
    expect(text).not.toContain('docs');
  });

  test('5xx responses are counted as errors', async () => {
    const t = await makeTestApp({ metricsToken: TOKEN });
    cleanup.push(() => t.close());
    const token = await t.adminToken();
    await t.s.db.exec('DROP TABLE shares'); // the route's query now fails inside the service
    const r = await t.req('GET', '/api/shares', { token });
    expect(r.status).toBe(500);
    const m = parseMetrics(await (await t.req('GET', '/metrics', { headers: { Authorization: `Bearer ${TOKEN}` } })).text());
    expect(m.get('filedeck_http_server_errors_total{route="/api/shares"}')).toBe(1);
    expect(m.get('filedeck_http_requests_total{route="/api/shares",method="GET",status="500"}')).toBe(1);
  });

  test('per-request overhead stays small', async () => {
    const t = await makeTestApp();
    cleanup.push(() => t.close());
    const n = 2000;
    for (let i = 0; i < 200; i++) await t.req('GET', '/health'); // warm up
    const started = performance.now();
    for (let i = 0; i < n; i++) await t.req('GET', '/health');
    const perRequest = (performance.now() - started) / n;
    // The whole request (routing, settings freshness, observation) well under a millisecond on a shared CI core.
    expect(perRequest).toBeLessThan(1);
  });
});

describe('request ids and JSON request logs', () => {
  test('an id per request, echoed; a proxy id only from a trusted proxy', async () => {
    const plain = await served();
    const a = await fetch(`${plain.url}/health`);
    const b = await fetch(`${plain.url}/nothing-here`, { headers: { 'X-Request-Id': 'from-client-1' } });
    expect(a.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(b.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(a.headers.get('x-request-id')).not.toBe(b.headers.get('x-request-id'));
    const proxied = await served({ trustedProxies: '127.0.0.1' });
    expect((await fetch(`${proxied.url}/health`, { headers: { 'X-Request-Id': 'edge-42.abc' } })).headers.get('x-request-id')).toBe('edge-42.abc');
    // A malformed id from the proxy is replaced, not echoed.
    expect((await fetch(`${proxied.url}/health`, { headers: { 'X-Request-Id': 'bad id\twith spaces' } })).headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  test('logFormat json: one line per request with id, route, status, duration, bytes, client and user', async () => {
    const { url, login, logFile, log } = await served({ logFormat: 'json' }, { jsonLog: true });
    const token = await login();
    const r = await fetch(`${url}/api/resources/`, { headers: { 'X-Auth': token } });
    expect(r.status).toBe(200);
    const id = r.headers.get('x-request-id')!;
    await fetch(`${url}/api/resources/missing`, { headers: { 'X-Auth': token } });
    // The file logger writes in batches off the event loop: nothing is in the file until its batch is written.
    await log.flush!();
    const lines = readFileSafe(logFile).trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    const line = lines.find((l) => l.request_id === id)!;
    expect(line).toMatchObject({ level: 'info', msg: 'request', method: 'GET', route: '/api/resources', status: 200, client: '127.0.0.1', user_id: 1 });
    expect(line.bytes_out).toBeGreaterThan(0);
    expect(typeof line.duration_ms).toBe('number');
    expect(typeof line.time).toBe('string');
    const login1 = lines.find((l) => l.route === '/api/login')!;
    expect(login1.user_id).toBeUndefined();
    const missing = lines.find((l) => l.msg === 'request' && l.status === 404)!;
    expect(missing).toMatchObject({ route: '/api/resources/*', user_id: 1 });
    expect(JSON.stringify(missing)).not.toContain('missing'); // request lines name routes, not paths
  });
});

function readFileSafe(p: string): string {
  try {
    return readFileSync(p, 'utf8');
  } catch {
    return '';
  }
}
