import type { Services } from '../../services/services';
import type { ClientIp } from '../client-ip';
import { errorKind, httpMetrics, uploadOf } from './http-metrics';
import { recordOf, startRecord, type RequestRecord } from './request-record';

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
/** A proxy's request id is echoed and logged: only a short token of safe characters is believed. */
const PROXY_ID = /^[A-Za-z0-9._:@/+=-]{1,128}$/;

/**
 * Counts a streamed body's bytes as they leave; `done` runs once, at the end or when the client goes away (the
 * cancel reaches the source, so archives still stop on hang-up). Only bodies without a declared length get this.
 */
function counted(body: ReadableStream<Uint8Array>, done: (bytes: number) => void): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  let bytes = 0;
  let ended = false;
  const end = () => {
    if (!ended) (ended = true), done(bytes);
  };
  return new ReadableStream<Uint8Array>(
    {
      async pull(c) {
        try {
          const r = await reader.read();
          if (r.done) {
            end();
            return c.close();
          }
          bytes += r.value.byteLength;
          c.enqueue(r.value);
        } catch (e) {
          end();
          c.error(e);
        }
      },
      cancel(reason) {
        end();
        return reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
}

/**
 * Per-request observation for the whole app: a request id (a trusted proxy's X-Request-Id, else a fresh one)
 * echoed as X-Request-Id (with the headers every response carries: `stamp`), request metrics by route pattern, and with logFormat json one log line per request.
 * `wrap` is an Elysia higher-order function around the app's fetch, so it sees every response: routed, 404,
 * errors and app.handle() in tests. `transform` notes the matched route pattern.
 */
export function requestObserver(s: Services, ip: ClientIp, server: () => unknown) {
  const metrics = httpMetrics(s.metrics, s.health);
  const base = s.config.baseURL;
  const logRequests = s.config.logFormat === 'json' && !!s.log.fields;

  // The series one kind of request updates, kept by route, method and status (a handful of each): no label keys
  // to build per request.
  const seriesOf = new Map<string, { requests: { v: number }; duration: ReturnType<typeof metrics.duration.handle>; bytesIn: { v: number }; bytesOut: { v: number } }>();
  const series = (route: string, method: string, status: number) => {
    const key = `${route}\u0000${method}\u0000${status}`;
    let h = seriesOf.get(key);
    if (!h) {
      if (seriesOf.size >= 10_000) seriesOf.clear();
      h = { requests: metrics.requests.handle({ route, method, status: String(status) }), duration: metrics.duration.handle({ route, method }), bytesIn: metrics.bytesIn.handle({ route }), bytesOut: metrics.bytesOut.handle({ route }) };
      seriesOf.set(key, h);
    }
    return h;
  };

  const finish = (req: Request, rec: RequestRecord, status: number, bytesOut: number) => {
    const route = rec.route ?? 'unmatched';
    const method = METHODS.has(req.method) ? req.method : 'OTHER';
    const seconds = (performance.now() - rec.start) / 1000;
    const bytesIn = Number(req.headers.get('content-length')) || 0;
    const h = series(route, method, status);
    h.requests.v++;
    metrics.duration.observeInto(h.duration, seconds);
    if (bytesIn > 0) h.bytesIn.v += bytesIn;
    if (bytesOut > 0) h.bytesOut.v += bytesOut;
    if (status >= 500) metrics.errors.inc({ route });
    if (status >= 400) metrics.errorsByKind.inc({ kind: errorKind(status) });
    const upload = rec.route ? uploadOf(rec.route, req.method, status, req.url) : null;
    if (upload) {
      if (upload.counts) metrics.uploads.inc({ protocol: upload.protocol });
      metrics.uploadBytes.inc({ protocol: upload.protocol }, bytesIn);
    }
    if (logRequests)
      s.log.fields!('info', 'request', {
        request_id: rec.id,
        method,
        route,
        status,
        duration_ms: Math.round(seconds * 100000) / 100,
        bytes_in: bytesIn,
        bytes_out: bytesOut,
        client: ip.client(req, server()),
        user_id: rec.userId,
      });
  };

  /** Adds the id header and arranges for finish() once the body is out. */
  const complete = (req: Request, rec: RequestRecord, res: Response | undefined): Response | undefined => {
    if (!res) {
      finish(req, rec, 101, 0); // a WebSocket upgrade: the server took the connection
      return res;
    }
    const declared = res.headers.get('content-length');
    // A declared length first: asking `body` of a Response made from a string or bytes builds a stream around them.
    if (declared !== null || req.method === 'HEAD' || !res.body) {
      finish(req, rec, res.status, req.method === 'HEAD' ? 0 : Number(declared) || 0);
      try {
        stamp(res.headers, rec.id);
        return res;
      } catch {
        return new Response(res.body, { status: res.status, statusText: res.statusText, headers: stamp(new Headers(res.headers), rec.id) });
      }
    }
    const body = counted(res.body, (bytes) => finish(req, rec, res.status, bytes));
    return new Response(body, { status: res.status, statusText: res.statusText, headers: stamp(new Headers(res.headers), rec.id) });
  };

  return {
    wrap:
      (fn: (r: Request) => unknown) =>
      (r: Request): unknown => {
        const proxied = r.headers.get('x-request-id');
        const id = proxied && PROXY_ID.test(proxied) && ip.fromTrustedProxy(r, server()) ? proxied : crypto.randomUUID();
        const rec = startRecord(r, id);
        let out: unknown;
        try {
          out = fn(r);
        } catch (e) {
          finish(r, rec, 500, 0);
          throw e;
        }
        if (out instanceof Promise) return out.then((res: Response | undefined) => complete(r, rec, res), (e) => (finish(r, rec, 500, 0), Promise.reject(e)));
        return complete(r, rec, out as Response | undefined);
      },
    transform: ({ request, route }: { request: Request; route: string }) => {
      const rec = recordOf(request);
      if (rec) rec.route = base && route.startsWith(base) ? route.slice(base.length) || '/' : route;
    },
  };
}

/** What every response carries besides its own headers; a value a route set itself is kept. */
const EVERY_RESPONSE = [
  ['X-Content-Type-Options', 'nosniff'],
  ['Referrer-Policy', 'no-referrer'],
] as const;

/**
 * Adds the request id and EVERY_RESPONSE to a response's headers. Done here, on the response itself, and not through
 * Elysia's `set.headers`: with any header there, Elysia rebuilds every Response (`new Response(res.body, …)`), which
 * turns a string body into a stream and copied every listing's headers (issue 15 item 5).
 */
function stamp(h: Headers, id: string): Headers {
  h.set('X-Request-Id', id);
  for (const [name, value] of EVERY_RESPONSE) if (!h.has(name)) h.set(name, value);
  return h;
}
