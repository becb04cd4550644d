import { invalid } from '../core/errors';

/** A canonical virtual path: always starts with "/", no "." or ".." segments, no empty segments. */
export interface VirtualPath {
  path: string;
  /** The request ended with "/": handlers read it as "this is a folder". */
  dir: boolean;
}

/** Percent-decodes a raw URL path tail exactly once; malformed escapes are a 400. */
export function decodeOnce(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    throw invalid('malformed percent-encoding in path');
  }
}

/**
 * Canonicalises an already-decoded user path. Security invariant: the result can only name something at or
 * below "/" of the scope; anything ambiguous (NUL, control characters, backslashes, ".", "..", "//") is refused
 * instead of being cleaned, so no encoding trick can make two layers disagree about what a path means.
 */
export function toVirtualPath(decoded: string): VirtualPath {
  if (/[\x00-\x1f\x7f]/.test(decoded)) throw invalid('path contains control characters');
  if (decoded.includes('\\')) throw invalid('path contains a backslash');
  const dir = decoded.endsWith('/');
  let body = decoded.startsWith('/') ? decoded.slice(1) : decoded;
  if (dir) body = body.slice(0, -1);
  if (body === '') return { path: '/', dir: true };
  const parts = body.split('/');
  for (const p of parts) {
    if (p === '') throw invalid('path contains an empty segment');
    if (p === '.' || p === '..') throw invalid('path contains a relative segment');
    if (Buffer.byteLength(p) > 255) throw invalid('path segment is too long');
  }
  return { path: '/' + parts.join('/'), dir };
}

/** Joins a canonical parent and a single validated name. */
export function joinVirtual(parent: string, name: string): string {
  return parent === '/' ? `/${name}` : `${parent}/${name}`;
}

export function baseName(path: string): string {
  return path === '/' ? '' : path.slice(path.lastIndexOf('/') + 1);
}

export function parentOf(path: string): string {
  const i = path.lastIndexOf('/');
  return i <= 0 ? '/' : path.slice(0, i);
}

/** True when `path` equals `base` or lies beneath it on a segment boundary. */
export function isWithin(path: string, base: string): boolean {
  return base === '/' || path === base || path.startsWith(base + '/');
}
