/**
 * Runs before the app's bundle has loaded (its own tiny script, first in index.html): when the address is a folder
 * or file of the files screen and a token is stored, it starts that listing's request at once, so the server reads
 * the folder while the browser parses and starts the app. The app uses the answer only if its session starts from
 * the same token (web/api/prefetch.ts). Dependency-free on purpose: importing the app's modules would put them in a
 * chunk this script has to wait for.
 */
import type { ListingPrefetch } from '../api/prefetch';

/** web/state/token.ts's storage key and web/api/prefetch.ts's PREFETCH_KEY (tests/e2e/listing-prefetch.test.ts). */
const STORAGE_KEY = 'jwt';
const KEY = '__filedeckPrefetch';
/** An answer the app has not taken by then is cancelled (it went elsewhere, or never started). */
const UNCLAIMED_MS = 20_000;

function start(): void {
  const token = localStorage.getItem(STORAGE_KEY);
  if (!token) return;
  const cfg = JSON.parse(document.getElementById('filedeck-config')?.textContent || '{}') as { BaseURL?: string };
  const base = String(cfg.BaseURL ?? '').replace(/\/+$/, '');
  const prefix = `${base}/files/`;
  if (!location.pathname.startsWith(prefix)) return;
  const url = `${base}/api/resources/${location.pathname.slice(prefix.length)}`;
  const controller = new AbortController();
  const response = fetch(url, { headers: { 'X-Auth': token }, signal: controller.signal, credentials: 'same-origin' });
  response.catch(() => {}); // a failure is the app's to see (it asks again), never an unhandled rejection
  const p: ListingPrefetch = { url, token, response, controller };
  (globalThis as unknown as Record<string, ListingPrefetch | undefined>)[KEY] = p;
  setTimeout(() => {
    const g = globalThis as unknown as Record<string, ListingPrefetch | undefined>;
    if (g[KEY] !== p) return;
    g[KEY] = undefined;
    controller.abort();
  }, UNCLAIMED_MS);
}

try {
  start();
} catch {
  // Storage refused or an unreadable config: the app asks for the listing itself.
}
