import { pageConfig } from './page-config';
import { ApiError } from './client';
import { encodePath, resourceApiPath } from './resources';

/** A running transfer: its completion, and a way to stop it. */
export interface Transfer {
  done: Promise<void>;
  /** Stops the transfer and tells the server to drop what it received. */
  cancel(): Promise<void>;
}

export interface TusOptions {
  override: boolean;
  /** The current session token, read before every request (it may be renewed during a long upload). */
  token: () => string;
  onProgress(loaded: number): void;
}

/** The connection dropped or the transfer was stopped (spec §8). */
export const abortedError = () => new ApiError(0, '001 Connection aborted');

/**
 * Whether a failed tus request is worth asking again: a lost connection (0), a server hiccup (5xx but 507: a full
 * disk or quota stays full however often it is asked), a lock (423), a stale offset (409, but not on the creation
 * POST). Every other answer, limits included, stays what it is. The one rule for both tus clients.
 */
export const worthRetrying = (status: number, method: string): boolean =>
  status === 0 || (status >= 500 && status !== 507) || status === 423 || (status === 409 && method !== 'POST');

const RETRY_BASE_MS = 1000;
const RETRY_MAX_MS = 20_000;

function retryDelays(count: number): number[] | null {
  if (!count || count < 1) return null;
  return Array.from({ length: count }, (_, i) => Math.min(RETRY_BASE_MS * 2 ** i, RETRY_MAX_MS));
}

/**
 * A resumable, chunked upload of one file (tus 1.0) to `${BaseURL}/api/tus{path}?override=`. The creation POST
 * answers with a Location that the chunk PATCHes go to; a dropped chunk is retried from the server's offset.
 * tus-js-client is loaded only now, so the first page load does not carry it.
 */
export function tusUpload(path: string, file: File, opts: TusOptions): Transfer {
  let upload: import('tus-js-client').Upload | null = null;
  let cancelled = false;
  const done = import('tus-js-client').then(
    (tus) =>
      new Promise<void>((resolve, reject) => {
        if (cancelled) return reject(abortedError());
        const { chunkSize, retryCount } = pageConfig.TusSettings;
        upload = new tus.Upload(file, {
          endpoint: `${pageConfig.BaseURL}/api/tus${encodePath(path)}?override=${opts.override}`,
          chunkSize: chunkSize > 0 ? chunkSize : Infinity,
          retryDelays: retryDelays(retryCount),
          // A getter: tus-js-client reads the headers for every request, and the token may be renewed meanwhile.
          headers: {
            get 'X-Auth'() {
              return opts.token();
            },
          },
          storeFingerprintForResuming: false,
          metadata: { filename: file.name, filetype: file.type },
          // Retry what a retry can fix: lost connections, server errors, and a PATCH whose offset was stale.
          onShouldRetry: (err) => worthRetrying(err.originalResponse?.getStatus() ?? 0, err.originalRequest?.getMethod() ?? ''),
          onProgress: (sent) => opts.onProgress(sent),
          onSuccess: () => resolve(),
          onError: (err) => {
            const res = (err as { originalResponse?: { getStatus(): number; getBody(): string } | null }).originalResponse;
            const status = res?.getStatus() ?? 0;
            reject(status ? new ApiError(status, res?.getBody() || `${status}`) : abortedError());
          },
        });
        upload.start();
      }),
  );
  return {
    done,
    async cancel() {
      cancelled = true;
      // abort(true) also sends the tus termination (DELETE), so the server drops the partial file.
      await upload?.abort(true).catch(() => {});
    },
  };
}

/**
 * POST /api/resources/{path} for folders (path ending in '/') and empty files; progress is reported through
 * XMLHttpRequest's upload events.
 */
export function postUpload(path: string, body: Blob | null, opts: TusOptions): Transfer {
  const xhr = new XMLHttpRequest();
  const done = new Promise<void>((resolve, reject) => {
    xhr.open('POST', `${pageConfig.BaseURL}/api${resourceApiPath(path)}?override=${opts.override}`);
    const token = opts.token();
    if (token) xhr.setRequestHeader('X-Auth', token);
    xhr.upload.onprogress = (e) => opts.onProgress(e.loaded);
    xhr.onload = () => (xhr.status >= 200 && xhr.status < 300 ? resolve() : reject(new ApiError(xhr.status, xhr.responseText || `${xhr.status}`)));
    xhr.onerror = () => reject(abortedError());
    xhr.onabort = () => reject(abortedError());
    xhr.send(body);
  });
  return {
    done,
    async cancel() {
      xhr.abort();
    },
  };
}
