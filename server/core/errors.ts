/** The one error type of Filedeck. Services throw it; the HTTP error plugin and the CLI translate it. */
export type ErrorCode =
  | 'INVALID' // 400: bad input; the detail is shown to the caller
  | 'UNAUTHORIZED' // 401: no, bad, expired or revoked credentials
  | 'ACCEPTED' // 202: reference quirk kept for clients that expect it (not used for security decisions)
  | 'FORBIDDEN' // 403: authenticated but not allowed, or wrong login credentials
  | 'NOT_FOUND' // 404
  | 'METHOD_NOT_ALLOWED' // 405
  | 'EXISTS' // 409
  | 'PRECONDITION_FAILED' // 412: a condition of the request (If, If-Match, Overwrite: F) does not hold
  | 'TOO_LARGE' // 413
  | 'LOCKED' // 423: a WebDAV lock the request did not submit covers the resource
  | 'UNSUPPORTED_MEDIA' // 415
  | 'RATE_LIMITED' // 429
  | 'INTERNAL' // 500: never shows its cause to the client
  | 'UNAVAILABLE' // 503: the database cannot be reached; the detail says so (never the password)
  | 'NO_SPACE' // 507: the files volume or the database is full; the detail says which
  | 'QUOTA' // 507: a write would pass a user's quota; the detail names the quota and its usage
  | 'UNSUPPORTED'; // 501

export class AppError extends Error {
  readonly code: ErrorCode;
  /** A message safe to show to the caller (appended to 4xx bodies, printed by the CLI). */
  readonly detail?: string;
  /** Extra response headers, e.g. Retry-After on RATE_LIMITED. */
  readonly headers?: Record<string, string>;

  constructor(code: ErrorCode, detail?: string, options?: { cause?: unknown; headers?: Record<string, string> }) {
    super(detail ? `${code}: ${detail}` : code, options?.cause !== undefined ? { cause: options.cause } : undefined);
    this.name = 'AppError';
    this.code = code;
    this.detail = detail;
    this.headers = options?.headers;
  }
}

export const invalid = (detail: string) => new AppError('INVALID', detail);
export const notFound = (detail?: string) => new AppError('NOT_FOUND', detail);
export const forbidden = (detail?: string) => new AppError('FORBIDDEN', detail);
export const unauthorized = (detail?: string) => new AppError('UNAUTHORIZED', detail);
export const exists = (detail?: string) => new AppError('EXISTS', detail);

export function isAppError(e: unknown): e is AppError {
  return e instanceof AppError;
}
