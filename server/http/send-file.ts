import type { Stats } from 'node:fs';
import { mimeOf } from '../services/files/detect-type';
import { textResponse } from './plugins/error.plugin';
import { userBytesHeaders } from './user-bytes';
import { checkReadable } from '../fs/open-regular';


/** RFC 6266/5987 Content-Disposition with an ASCII fallback and the exact UTF-8 name. */
export function disposition(kind: 'inline' | 'attachment', name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/** Parses a single-range "bytes=a-b" header; null = serve the whole file; 'unsatisfiable' = 416. */
export function parseRange(header: string | null, size: number): { start: number; end: number } | null | 'unsatisfiable' {
  if (!header) return null;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return null; // malformed or multi-range: ignore, send everything
  let start: number;
  let end: number;
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0) return 'unsatisfiable';
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  }
  if (start >= size || start > end) return 'unsatisfiable';
  return { start, end };
}

/**
 * Streams a file (never buffered) with Range/206, If-Modified-Since/304, If-Range, Last-Modified and a weak
 * ETag. `inline` keeps the detected type; otherwise the browser gets an octet-stream attachment.
 */
export async function sendFile(request: Request, real: string, stats: Stats, name: string, inline: boolean, extra: Record<string, string> = {}): Promise<Response> {
  // The body is opened lazily, after the headers: a file that vanished or cannot be read is refused here
  // (404/403/400), not as a failed stream.
  await checkReadable(real);
  const lastModified = new Date(Math.floor(stats.mtimeMs / 1000) * 1000);
  const etag = `W/"${stats.size.toString(16)}-${Math.floor(stats.mtimeMs).toString(16)}"`;
  const mime = mimeOf(name);
  const type = inline ? (mime.startsWith('text/') ? `${mime}; charset=utf-8` : mime) : 'application/octet-stream';
  const headers: Record<string, string> = {
    'Content-Type': type,
    'Content-Disposition': disposition(inline ? 'inline' : 'attachment', name),
    'Last-Modified': lastModified.toUTCString(),
    ETag: etag,
    'Accept-Ranges': 'bytes',
    'Cache-Control': 'private',
    ...userBytesHeaders(mime),
    ...extra,
  };
  const ims = request.headers.get('if-modified-since');
  const inm = request.headers.get('if-none-match');
  if ((inm && inm === etag) || (!inm && ims && Date.parse(ims) >= lastModified.getTime())) return new Response(null, { status: 304, headers });
  let range = parseRange(request.headers.get('range'), stats.size);
  const ifRange = request.headers.get('if-range');
  if (range && ifRange && ifRange !== etag && Date.parse(ifRange) !== lastModified.getTime()) range = null;
  if (range === 'unsatisfiable') return textResponse(416, undefined, { 'Content-Range': `bytes */${stats.size}` });
  const file = Bun.file(real);
  if (!range) return new Response(file, { headers: { ...headers, 'Content-Length': String(stats.size) } });
  return new Response(file.slice(range.start, range.end + 1), {
    status: 206,
    headers: { ...headers, 'Content-Range': `bytes ${range.start}-${range.end}/${stats.size}`, 'Content-Length': String(range.end - range.start + 1) },
  });
}
