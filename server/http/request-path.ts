import { AppError } from '../core/errors';
import { decodeOnce, toVirtualPath } from '../fs/virtual-path';

/** The user path after `<baseURL><prefix>`, decoded exactly once from the raw URL and canonicalised. */
export function pathAfter(request: Request, prefix: string) {
  const pathname = new URL(request.url).pathname;
  return toVirtualPath(decodeOnce(pathname.startsWith(prefix) ? pathname.slice(prefix.length) || '/' : '/'));
}

/** The PATCH destination as the web app sends it: encoded twice (the second decode keeps '+' as space, as Go did). */
export function decodeDestination(value: string | null) {
  if (!value) throw new AppError('INVALID', 'destination is required');
  return toVirtualPath(decodeOnce(value.replace(/\+/g, ' '))).path;
}
