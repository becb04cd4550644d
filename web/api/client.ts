import { takeEarlyResponse } from './early-request';

/** An API failure: the HTTP status (0 = no connection) and the response body text as the message. */
export class ApiError extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
  }
}

export const isApiError = (e: unknown): e is ApiError => e instanceof ApiError;

/** What the session layer plugs into the client; the client itself knows nothing about state. */
export interface ClientHooks {
  token: () => string;
  /** A response carried `X-Renew-Token: true`. */
  renewRequested: () => void;
  /** An authenticated call was answered with 401. */
  unauthorized: () => void;
}

let apiBase = '/api';
let hooks: ClientHooks = { token: () => '', renewRequested: () => {}, unauthorized: () => {} };

/** Sets the API base (`<baseURL>/api`) and the session hooks. Called once at start-up. */
export function configureClient(baseURL: string, sessionHooks: ClientHooks): void {
  apiBase = `${baseURL}/api`;
  hooks = sessionHooks;
}

export interface RequestOptions {
  method?: string;
  /** Serialised as JSON with the matching content type. */
  json?: unknown;
  body?: BodyInit;
  headers?: Record<string, string>;
  /** Send X-Auth and treat a 401 as the end of the session (default true). */
  auth?: boolean;
  signal?: AbortSignal;
}

/** Performs a call under the API base; any non-2xx answer becomes an ApiError. */
export async function request(path: string, opts: RequestOptions = {}): Promise<Response> {
  const auth = opts.auth ?? true;
  const headers: Record<string, string> = { ...opts.headers };
  let body = opts.body;
  if (opts.json !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(opts.json);
  }
  const token = auth ? hooks.token() : '';
  if (token) headers['X-Auth'] = token;

  const method = opts.method ?? 'GET';
  // The first folder's listing may already be on its way (early-request.ts): a GET of that URL takes it over.
  const early = method === 'GET' && auth ? takeEarlyResponse(apiBase + path, opts.signal) : null;
  let res = early ? await early : null;
  if (!res) {
    try {
      res = await fetch(apiBase + path, { method, headers, body, signal: opts.signal, credentials: 'same-origin' });
    } catch (e) {
      if (e instanceof DOMException && e.name === 'AbortError') throw e;
      throw new ApiError(0, '000 No connection');
    }
  }

  // Refused with a token that has been renewed meanwhile (its grace can be short or 0): a read is asked again
  // with the current one instead of ending the session.
  if (res.status === 401 && token && (method === 'GET' || method === 'HEAD') && hooks.token() && hooks.token() !== token) {
    void res.body?.cancel().catch(() => {});
    return request(path, opts);
  }
  if (res.headers.get('X-Renew-Token') === 'true') hooks.renewRequested();
  if (!res.ok) {
    const message = await res.text().catch(() => '');
    if (res.status === 401 && token) hooks.unauthorized();
    throw new ApiError(res.status, message || `${res.status} ${res.statusText}`);
  }
  return res;
}

/** A call whose answer is plain text (tokens). */
export async function requestText(path: string, opts?: RequestOptions): Promise<string> {
  return (await request(path, opts)).text();
}

/** A call whose answer is JSON. */
export async function requestJson<T>(path: string, opts?: RequestOptions): Promise<T> {
  return (await request(path, opts)).json() as Promise<T>;
}
