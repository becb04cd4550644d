import { AppError, invalid } from '../../core/errors';
import { decodeOnce, toVirtualPath } from '../../fs/virtual-path';
import type { ClientIp } from '../client-ip';
import { publicOrigin } from '../public-origin';
import { rawPath } from '../request-path';

/** The Depth header (RFC 4918 §10.2): null when absent; anything else than 0, 1 or infinity is a 400. */
export function depthOf(request: Request): '0' | '1' | 'infinity' | null {
  const v = request.headers.get('depth');
  if (v === null) return null;
  const d = v.trim().toLowerCase();
  if (d === '0' || d === '1' || d === 'infinity') return d;
  throw invalid('Depth must be 0, 1 or infinity');
}

/** The Overwrite header (RFC 4918 §10.6): T by default. */
export function overwriteOf(request: Request): boolean {
  const v = request.headers.get('overwrite');
  if (v === null) return true;
  const o = v.trim().toUpperCase();
  if (o === 'T' || o === 'F') return o === 'T';
  throw invalid('Overwrite must be T or F');
}

/**
 * The Destination header of COPY and MOVE, strictly (RFC 4918 §10.3): an absolute URL of this origin or an
 * absolute path, under `<base>/dav/`, decoded exactly once from its text as written (no URL normalisation that could
 * resolve dot segments first), then canonicalised like every request path (`.`, `..`, empty segments, control
 * characters and backslashes refused; reserved names are refused by the scoped file system).
 */
export function destinationOf(request: Request, server: unknown, ip: ClientIp, prefix: string): string {
  const v = request.headers.get('destination');
  if (!v) throw invalid('Destination is required');
  if (v.length > 8192) throw invalid('Destination is too long');
  let raw: string;
  if (v.startsWith('/')) {
    if (v.startsWith('//')) throw new AppError('FORBIDDEN', 'the destination is on another server');
    raw = v.split(/[?#]/)[0]!;
  } else {
    let url: URL;
    try {
      url = new URL(v);
    } catch {
      throw invalid('Destination is not a URL');
    }
    const here = new URL(request.url).origin;
    if (url.origin !== here && url.origin !== publicOrigin(request, server, ip)) throw new AppError('FORBIDDEN', 'the destination is on another server');
    if (url.username || url.password) throw invalid('Destination may not carry credentials');
    raw = rawPath(v);
  }
  if (raw !== prefix && !raw.startsWith(`${prefix}/`)) throw new AppError('FORBIDDEN', 'the destination is outside the WebDAV endpoint');
  return toVirtualPath(decodeOnce(raw.slice(prefix.length) || '/')).path;
}

/** X-OC-Mtime (seconds since the epoch, as ownCloud clients and rclone send it): milliseconds, or undefined. */
export function ocMtimeOf(request: Request): number | undefined {
  const v = request.headers.get('x-oc-mtime');
  if (v === null) return undefined;
  if (!/^\d{1,12}(\.\d+)?$/.test(v.trim())) throw invalid('X-OC-Mtime must be seconds since the epoch');
  return Math.round(Number(v.trim()) * 1000);
}

/** An href for a virtual path: `<prefix>` and each segment percent-encoded; collections end with '/'. */
export function hrefOf(prefix: string, path: string, isDir: boolean): string {
  const segs = path === '/' ? '' : path.split('/').map((s) => encodeURIComponent(s)).join('/');
  return `${prefix}${segs}${isDir ? '/' : ''}`;
}
