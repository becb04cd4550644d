import { Elysia } from 'elysia';
import { AppError, type ErrorCode } from '../../core/errors';
import type { Logger } from '../../core/log';

/** The only table from AppError codes to HTTP statuses. */
export const STATUS: Record<ErrorCode, number> = {
  INVALID: 400,
  UNAUTHORIZED: 401,
  ACCEPTED: 202,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  EXISTS: 409,
  TOO_LARGE: 413,
  UNSUPPORTED_MEDIA: 415,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  UNSUPPORTED: 501,
  UNAVAILABLE: 503,
  NO_SPACE: 507,
  QUOTA: 507,
  PRECONDITION_FAILED: 412,
  LOCKED: 423,
};

const STATUS_TEXT: Record<number, string> = {
  200: 'OK', 201: 'Created', 202: 'Accepted', 204: 'No Content', 400: 'Bad Request', 401: 'Unauthorized',
  403: 'Forbidden', 404: 'Not Found', 405: 'Method Not Allowed', 409: 'Conflict', 412: 'Precondition Failed', 413: 'Payload Too Large', 415: 'Unsupported Media Type', 423: 'Locked',
  416: 'Range Not Satisfiable', 429: 'Too Many Requests', 500: 'Internal Server Error', 501: 'Not Implemented', 503: 'Service Unavailable', 507: 'Insufficient Storage',
};

/**
 * The reference's text envelope: "<code> <Status Text>\n", with the message appended as " (message)" on
 * client errors that carry one, and on 503 and 507. 401 never carries detail; 5xx never shows a cause.
 */
export function textResponse(status: number, detail?: string, headers: Record<string, string> = {}): Response {
  // 507 says which volume is full (files or database), 503 that the database is unreachable: our own message,
  // never a path, a URL or a cause.
  const withDetail = detail && ((status >= 400 && status < 500 && status !== 401) || status === 507 || status === 503);
  const body = `${status} ${STATUS_TEXT[status] ?? 'Error'}${withDetail ? ` (${detail})` : ''}\n`;
  return new Response(body, {
    status,
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': String(Buffer.byteLength(body)), 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'no-cache, no-store, must-revalidate', ...headers },
  });
}

/** Maps thrown errors to responses and logs "<path>: <status> <ip> <err>" for failures (fail2ban-friendly). */
export function errorPlugin(log: Logger, clientIp: (req: Request, server: unknown) => string) {
  return new Elysia({ name: 'error' })
    .error({ AppError })
    .onError({ as: 'global' }, ({ code, error, request, server }) => {
      const path = new URL(request.url).pathname;
      let res: Response;
      if (error instanceof AppError) {
        const status = STATUS[error.code];
        res = textResponse(status, error.detail, error.headers);
        if (status >= 500) log.error(`${path}: ${status} ${clientIp(request, server)} ${error.cause instanceof Error ? error.cause.message : error.message}`);
        else log.info(`${path}: ${status} ${clientIp(request, server)}`);
        return res;
      }
      if (code === 'NOT_FOUND') return textResponse(404);
      if (code === 'VALIDATION') {
        const e = error as { all?: { path?: string; summary?: string; message?: string }[]; message: string };
        const first = e.all?.[0];
        const msg = first ? `${(first.path ?? '').replace(/^\//, '') || 'input'}: ${first.summary ?? first.message}` : 'invalid input';
        return textResponse(400, msg);
      }
      if (code === 'PARSE') return textResponse(400, 'malformed request body');
      log.error(`${path}: 500 ${clientIp(request, server)} ${(error as Error)?.stack ?? String(error)}`);
      return textResponse(500);
    });
}
