import { AppError } from '../core/errors';
import { decodeOnce, toVirtualPath } from '../fs/virtual-path';

/** The path of an absolute request URL as it is written (to its "?" or "#"), without building a URL object. */
export function rawPath(url: string): string {
  const start = url.indexOf('/', url.indexOf('//') + 2);
  return start < 0 ? '/' : pathFrom(url, start);
}

function pathFrom(url: string, start: number): string {
  const q = url.indexOf('?', start);
  const h = url.indexOf('#', start);
  const end = q < 0 ? (h < 0 ? url.length : h) : h < 0 ? q : Math.min(q, h);
  return url.slice(start, end);
}

/** Origins and paths in which URL parsing changes nothing: no backslash, dot segment or character it would encode. */
const PLAIN_ORIGIN = /^https?:\/\/[A-Za-z0-9.:[\]-]+$/;
const PLAIN_PATH = /^\/[A-Za-z0-9\-._~!$&'()*+,;=:@/%]*$/;

/**
 * `new URL(url).pathname`, read off the text when parsing could change nothing (most API requests: this runs for
 * every one), parsed otherwise: dot segments (also percent-encoded), backslashes and characters URL would encode.
 */
export function urlPath(url: string): string {
  const start = url.indexOf('/', url.indexOf('//') + 2);
  if (start > 0) {
    const path = pathFrom(url, start);
    if (PLAIN_PATH.test(path) && !path.includes('/.') && !/%2e/i.test(path) && PLAIN_ORIGIN.test(url.slice(0, start))) return path;
  }
  return new URL(url).pathname;
}

/** The user path after `<baseURL><prefix>`, decoded exactly once from the raw URL and canonicalised. */
export function pathAfter(request: Request, prefix: string) {
  const pathname = urlPath(request.url);
  return toVirtualPath(decodeOnce(pathname.startsWith(prefix) ? pathname.slice(prefix.length) || '/' : '/'));
}

/** The PATCH destination as the web app sends it: encoded twice (the second decode keeps '+' as space, as Go did). */
export function decodeDestination(value: string | null) {
  if (!value) throw new AppError('INVALID', 'destination is required');
  return toVirtualPath(decodeOnce(value.replace(/\+/g, ' '))).path;
}
