import type { Server } from 'bun';
import type { Elysia } from 'elysia';
// Elysia's WebSocket handlers, which its own listen() hands to Bun.serve; we call Bun.serve ourselves (below).
import { websocket } from 'elysia/ws';
import type { Logger } from '../core/log';
import { textResponse } from './plugins/error.plugin';

export interface ListenOptions {
  hostname: string;
  port: number;
  tls?: { cert: ReturnType<typeof Bun.file>; key: ReturnType<typeof Bun.file> };
  log: Logger;
  /** config.baseURL: a request without it is routed as if it had it (see routableRequest). */
  baseURL?: string;
}

/**
 * Elysia's router finds the path at the first "/" from index 11 of the URL, which assumes a host of four
 * characters or more: with `Host: nas` ("http://nas/api/…") it cuts the path after "/api" and every API route
 * answers 404. A request whose path starts earlier gets its URL rewritten with a placeholder host for the router
 * (nothing here reads the host from the URL: origin checks read the Host header, which is left as sent).
 * An own `url` property keeps the native Request intact for WebSocket upgrades.
 */
export function routableRequest(req: Request, baseURL = ''): Request {
  const u = req.url;
  const start = u.indexOf('/', u.indexOf('://') + 3);
  let path = start === -1 ? '/' : u.slice(start);
  // As in the reference, the base URL is optional: a request without it is routed as if it had it, so a proxy that
  // strips the prefix (nginx `location /fb/ { proxy_pass http://filedeck/; }`) and scripts written against the bare
  // /api paths keep working. Same routes, same authentication: nothing is reachable that was not before.
  const prefix = !!baseURL && path !== baseURL && !path.startsWith(`${baseURL}/`) && !path.startsWith(`${baseURL}?`);
  if (prefix) path = baseURL + path;
  if (start === -1) return req;
  if (start < 11) Object.defineProperty(req, 'url', { value: `http://localhost${path}`, configurable: true });
  else if (prefix) Object.defineProperty(req, 'url', { value: u.slice(0, start) + path, configurable: true });
  return req;
}

/**
 * Serves the app in production mode whatever NODE_ENV says (Bun's development mode answers a failing body with
 * an HTML page naming absolute paths), with a last-resort error handler that says nothing about the cause.
 */
export function listenHttp(app: Elysia<any, any, any, any, any, any, any>, opts: ListenOptions): Server<unknown> {
  app.compile();
  const handle = app.fetch as (req: Request, server: Server<unknown>) => Response | Promise<Response>;
  const server = Bun.serve({
    hostname: opts.hostname,
    port: opts.port,
    tls: opts.tls,
    development: false,
    maxRequestBodySize: 1024 ** 4,
    idleTimeout: 120,
    websocket: websocket as never,
    fetch: (req, srv) => handle(routableRequest(req, opts.baseURL), srv),
    error(e) {
      opts.log.error(`unhandled: ${e?.stack ?? String(e)}`);
      return textResponse(500);
    },
  });
  // Elysia's WebSocket code reaches the server through the app.
  (app as unknown as { server: Server<unknown> }).server = server;
  return server;
}

/**
 * Drains the server: stops accepting, lets in-flight requests finish for up to `deadlineMs`, then closes what
 * is left (uploads still running lose their connection; their temporary files are swept). Resolves when done.
 */
export async function drain(server: Server<unknown>, deadlineMs: number, log: Logger): Promise<void> {
  const pending = server.pendingRequests + server.pendingWebSockets;
  if (pending) log.info(`draining ${pending} request(s), at most ${Math.round(deadlineMs / 1000)} s`);
  let timer: Timer | undefined;
  const finished = await Promise.race([
    server.stop(false).then(() => true),
    new Promise<boolean>((r) => (timer = setTimeout(() => r(false), deadlineMs))),
  ]);
  clearTimeout(timer);
  if (!finished) {
    log.warn(`shutdown deadline reached with ${server.pendingRequests} request(s) in flight; closing them`);
    await server.stop(true);
  }
}
