/**
 * The first folder's listing, asked for by the page's inline start-up script (web/early.ts) while the app's own
 * script is still loading, parsing and renewing the session, and handed to the app's first GET of the same URL
 * (client.ts). A 100,000-item folder's answer thus arrives while the app starts instead of after it.
 *
 * Who may use it: only the session it was asked with. A login, a logout or a failed start-up discards it
 * (auth.state.ts), and an answer that is not 2xx is dropped: the app asks again and handles that answer itself.
 */
interface Early {
  url: string;
  response: Promise<Response>;
  abort: AbortController;
}

const KEY = '__filedeckEarly';
/** An answer nobody claimed by then (the app went elsewhere) is cancelled, releasing what it holds. */
const UNCLAIMED_MS = 30_000;

const holder = () => globalThis as unknown as { [KEY]?: Early };

/** Starts the early GET of `url` (an API URL) with the stored token; called once, by the start-up script. */
export function startEarlyRequest(url: string, token: string): void {
  const abort = new AbortController();
  const response = fetch(url, { headers: { 'X-Auth': token }, credentials: 'same-origin', signal: abort.signal });
  response.catch(() => {}); // a failure is the app's own request's to report
  holder()[KEY] = { url, response, abort };
  setTimeout(discardEarly, UNCLAIMED_MS);
}

/**
 * The early answer for `url`, once: a 2xx Response, or null when there is none for this URL, it failed or it was
 * not 2xx (then the caller asks the server itself). `signal` (the caller's) cancels it as it would the caller's fetch.
 */
export function takeEarlyResponse(url: string, signal?: AbortSignal): Promise<Response | null> | null {
  const early = holder()[KEY];
  if (!early || early.url !== url) return null;
  delete holder()[KEY];
  if (signal) {
    if (signal.aborted) early.abort.abort();
    else signal.addEventListener('abort', () => early.abort.abort(), { once: true });
  }
  return early.response.then(
    (res) => {
      if (res.ok) return res;
      void res.body?.cancel().catch(() => {});
      return null;
    },
    () => null,
  );
}

/** Drops the early request, if any (the session it was made with is not the app's). */
export function discardEarly(): void {
  const early = holder()[KEY];
  if (!early) return;
  delete holder()[KEY];
  early.abort.abort();
}
