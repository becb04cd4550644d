import { ApiError } from './client';
import { pageConfig } from './page-config';
import { publicBase } from './public';
import { encodePath } from './resources';
import { worthRetrying } from './upload';

/**
 * A visitor's resumable upload into a file request (decision 0051): tus 1.0 under `/api/public/tus/<hash>/<path>`.
 * The POST answers with a Location (the final, clash-free name, or on an upload-only link the name sent) and the
 * upload's key; every PATCH goes there. Written by
 * hand rather than with tus-js-client because the share token must ride on every request's query (the visitor has
 * no login header), including the Location the server made, and because a failed chunk must resume from the
 * server's offset (HEAD), never restart.
 */
export interface PublicUpload {
  /** Resolves with the share-relative path the file was stored at (upload-only links: the path it was sent as). */
  done: Promise<string>;
  cancel(): void;
}

export interface PublicUploadOptions {
  token?: string;
  onProgress(loaded: number): void;
}

const TUS = { 'Tus-Resumable': '1.0.0' };
const RETRY_MS = [1000, 3000, 8000];

/** Adds the share token to an address (absolute or relative) unless it is already there. */
function withToken(url: string, token?: string): string {
  if (!token) return url;
  const u = new URL(url, window.location.origin);
  if (!u.searchParams.has('token')) u.searchParams.set('token', token);
  return u.toString();
}

const b64 = (s: string) => btoa(String.fromCharCode(...new TextEncoder().encode(s)));

async function failure(res: Response): Promise<ApiError> {
  const text = (await res.text().catch(() => '')).slice(0, 300);
  return new ApiError(res.status, text || res.statusText);
}

/** One PATCH through XHR (fetch reports no upload progress); resolves with the new offset. */
function patch(url: string, offset: number, chunk: Blob, onBytes: (n: number) => void, xhrs: Set<XMLHttpRequest>): Promise<number> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhrs.add(xhr);
    xhr.open('PATCH', url);
    xhr.setRequestHeader('Tus-Resumable', '1.0.0');
    xhr.setRequestHeader('Upload-Offset', String(offset));
    xhr.setRequestHeader('Content-Type', 'application/offset+octet-stream');
    xhr.upload.onprogress = (e) => onBytes(e.loaded);
    xhr.onload = () => {
      xhrs.delete(xhr);
      if (xhr.status === 204 || xhr.status === 200) resolve(Number(xhr.getResponseHeader('Upload-Offset') ?? offset + chunk.size));
      else reject(new ApiError(xhr.status, (xhr.responseText || xhr.statusText).slice(0, 300)));
    };
    xhr.onerror = () => {
      xhrs.delete(xhr);
      reject(new ApiError(0, 'connection lost'));
    };
    xhr.onabort = () => {
      xhrs.delete(xhr);
      reject(new ApiError(0, 'aborted'));
    };
    xhr.send(chunk);
  });
}

/** The share-relative path a Location names: what follows `/api/public/tus/<hash>`. */
function storedPath(location: string, hash: string): string {
  const u = new URL(location, window.location.origin);
  const marker = `/api/public/tus/${encodeURIComponent(hash)}`;
  const i = u.pathname.indexOf(marker);
  const rest = i < 0 ? '' : u.pathname.slice(i + marker.length);
  try {
    return decodeURIComponent(rest) || '/';
  } catch {
    return rest || '/';
  }
}

/** Uploads `file` to `relPath` (share-relative, "/sub/name.ext") through tus, resuming after dropped chunks. */
export function publicTusUpload(hash: string, relPath: string, file: File, opts: PublicUploadOptions): PublicUpload {
  const xhrs = new Set<XMLHttpRequest>();
  const stop = new AbortController();
  let location = '';
  const run = async (): Promise<string> => {
    const create = await fetch(withToken(`${publicBase('tus', hash)}${encodePath(relPath)}`, opts.token), {
      method: 'POST',
      credentials: 'omit',
      signal: stop.signal,
      headers: { ...TUS, 'Upload-Length': String(file.size), 'Upload-Metadata': `filename ${b64(file.name)},filetype ${b64(file.type || 'application/octet-stream')}` },
    });
    if (create.status !== 201) throw await failure(create);
    location = withToken(create.headers.get('Location') ?? '', opts.token);
    if (!location) throw new ApiError(500, 'no Location');
    const chunkSize = pageConfig.TusSettings.chunkSize > 0 ? pageConfig.TusSettings.chunkSize : 10 * 1024 * 1024;
    let offset = 0;
    let retries = 0;
    while (offset < file.size) {
      const end = Math.min(file.size, offset + chunkSize);
      try {
        const start = offset;
        offset = await patch(location, offset, file.slice(offset, end), (n) => opts.onProgress(start + n), xhrs);
        retries = 0;
        opts.onProgress(offset);
      } catch (e) {
        const status = e instanceof ApiError ? e.status : 0;
        if (stop.signal.aborted) throw e;
        if (!worthRetrying(status, 'PATCH') || retries >= RETRY_MS.length) throw e;
        await new Promise((r) => setTimeout(r, RETRY_MS[retries++]));
        const head = await fetch(location, { method: 'HEAD', headers: TUS, credentials: 'omit', signal: stop.signal });
        if (!head.ok) throw await failure(head);
        offset = Number(head.headers.get('Upload-Offset') ?? offset);
      }
    }
    return storedPath(location, hash);
  };
  return {
    done: run(),
    cancel: () => {
      stop.abort();
      for (const x of xhrs) x.abort();
      if (location) void fetch(location, { method: 'DELETE', headers: TUS, credentials: 'omit' }).catch(() => undefined);
    },
  };
}
