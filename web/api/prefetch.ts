/**
 * The first listing, asked for by web/boot/listing-prefetch.ts before the app's bundle has even loaded: the server
 * reads a big folder while the browser parses the app. The session decides whether the answer may be used
 * (settlePrefetch: only when the session was renewed from the very token the request carried); the client then
 * takes it once, for the same URL, in place of its own request (takePrefetched). Anything else cancels it.
 */
export interface ListingPrefetch {
  /** The API URL asked for, as sent (base path included). */
  url: string;
  /** The stored token the request carried. */
  token: string;
  response: Promise<Response>;
  controller: AbortController;
  /** Set by settlePrefetch: the session started from `token`. */
  kept?: boolean;
}

/** Where the boot script leaves its request for the app. */
export const PREFETCH_KEY = '__filedeckPrefetch';

type Holder = Record<typeof PREFETCH_KEY, ListingPrefetch | undefined>;
const holder = () => globalThis as unknown as Holder;

function drop(): void {
  const p = holder()[PREFETCH_KEY];
  holder()[PREFETCH_KEY] = undefined;
  p?.controller.abort();
}

/** The session has started from `token` (or from none: null); a request sent with another token is cancelled. */
export function settlePrefetch(token: string | null): void {
  const p = holder()[PREFETCH_KEY];
  if (!p) return;
  if (token !== null && p.token === token) p.kept = true;
  else drop();
}

/** A URL's path, decoded and without its trailing slashes, so that two spellings of one path compare equal. */
function samePath(a: string, b: string): boolean {
  try {
    const norm = (u: string) => decodeURIComponent(new URL(u, location.href).pathname).replace(/\/+$/, '');
    return norm(a) === norm(b);
  } catch {
    return false;
  }
}

/**
 * The early answer for a listing's GET of `url`, once. Null when there is none for it: the first listing the app
 * loads is another one (then the early request is cancelled). An abort of `signal` cancels it as it would the app's
 * own request.
 */
export function takePrefetched(url: string, signal?: AbortSignal): Promise<Response> | null {
  const p = holder()[PREFETCH_KEY];
  if (!p?.kept) return null;
  if (!samePath(p.url, url)) {
    drop();
    return null;
  }
  holder()[PREFETCH_KEY] = undefined;
  if (signal?.aborted) p.controller.abort();
  else signal?.addEventListener('abort', () => p.controller.abort(), { once: true });
  return p.response;
}
