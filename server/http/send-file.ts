import type { Stats } from 'node:fs';
import { downloadEtag } from '../services/files/download-etag';
import { mimeOf } from '../services/files/detect-type';
import { textResponse } from './plugins/error.plugin';
import { userBytesHeaders } from './user-bytes';
import type { ReadHandle } from '../fs/open-regular';


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

/** A file opened for reading (ScopedFs.openReal / openRead), with the stats its validators and length come from. */
export interface OpenedFile {
  handle: ReadHandle;
  stats: Pick<Stats, 'size' | 'mtimeMs'>;
}

/**
 * Bodies up to this size are read whole and the descriptor closed at once (they go out with their Content-Length, as
 * Bun sends files this small without sendfile anyway); larger ones are streamed from it.
 */
const READ_WHOLE = 1024 * 1024;
/** Bytes per read of a streamed body: large enough that a download keeps sendfile's pace (files benchmark). */
const CHUNK = 1024 * 1024;

/**
 * Streams a file from its open descriptor (never buffered, never opened again by path) with Range/206,
 * If-Modified-Since/304, If-Range, Last-Modified and a weak ETag. `inline` keeps the detected type; otherwise the
 * browser gets an octet-stream attachment. Takes the handle over: it is closed on every path (answered without a
 * body, read whole, streamed to the end, failed, or the client gone). A HEAD takes the GET path: the framework
 * counts the body's bytes for its Content-Length, as it did when the body was read by path.
 */
export async function sendFile(request: Request, file: OpenedFile, name: string, inline: boolean, extra: Record<string, string> = {}): Promise<Response> {
  const { handle, stats } = file;
  let streaming = false;
  try {
    const lastModified = new Date(Math.floor(stats.mtimeMs / 1000) * 1000);
    const etag = downloadEtag(stats.size, stats.mtimeMs);
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
    const start = range ? range.start : 0;
    const length = range ? range.end - range.start + 1 : stats.size;
    const init = range
      ? { status: 206, headers: { ...headers, 'Content-Range': `bytes ${range.start}-${range.end}/${stats.size}`, 'Content-Length': String(length) } }
      : { headers: { ...headers, 'Content-Length': String(length) } };
    if (length <= READ_WHOLE) return new Response(await readWhole(handle, start, length), init);
    streaming = true;
    return new Response(streamFrom(handle, start, length), init);
  } finally {
    if (!streaming) await handle.close().catch(() => {});
  }
}

/** `length` bytes from `start` (fewer when the file shrank since its stat: the response then ends short, as a truncated stream would). */
async function readWhole(handle: ReadHandle, start: number, length: number): Promise<Uint8Array<ArrayBuffer>> {
  const buf = new Uint8Array(length);
  let got = 0;
  while (got < length) {
    const { bytesRead } = await handle.read(buf, got, length - got, start + got);
    if (bytesRead === 0) break;
    got += bytesRead;
  }
  return buf.subarray(0, got);
}

/**
 * The body of a large file: `length` bytes from `start`, read from the descriptor one chunk ahead of the socket
 * (pulled: a slow client holds one or two chunks, not the file; measured as fast as sendfile on loopback). Why not
 * Bun.file(fd), which sendfile()s: Bun never closes a descriptor it was given and says nothing when such a body is
 * sent, so its end could not close the file. The cost: Bun (1.4.5) sends a stream body chunked, dropping the
 * Content-Length the response declares (oven-sh/bun#10507); the header stays on the Response (HEAD, in-process
 * callers, the request log). The descriptor is closed when the last byte is read, on a read error, or when the
 * client goes away (cancel), and never while a read is in flight: a descriptor number closed and reused meanwhile
 * would be read in its place.
 */
function streamFrom(handle: ReadHandle, start: number, length: number): ReadableStream<Uint8Array> {
  const end = start + length;
  let pos = start;
  let stopped = false;
  let inflight: Promise<Uint8Array> | null = null;
  // One read at a time (the next starts once this one is taken), so `pos` is where the bytes sent so far end.
  const next = async (): Promise<Uint8Array> => {
    const want = Math.min(CHUNK, end - pos);
    const buf = Buffer.allocUnsafe(want);
    const { bytesRead } = await handle.read(buf, 0, want, pos);
    pos += bytesRead;
    return bytesRead === want ? buf : buf.subarray(0, bytesRead);
  };
  const finish = () => handle.close().catch(() => {});
  return new ReadableStream<Uint8Array>(
    {
      async pull(out) {
        try {
          inflight ??= next();
          const chunk = await inflight;
          inflight = null;
          if (stopped) return;
          // Zero bytes: the file shrank since its stat; the body ends short, as a truncated file's would.
          if (chunk.length > 0) out.enqueue(chunk);
          if (chunk.length > 0 && pos < end) inflight = next();
          else {
            out.close();
            await finish();
          }
        } catch (e) {
          inflight = null;
          await finish();
          throw e;
        }
      },
      async cancel() {
        stopped = true;
        await inflight?.catch(() => {});
        await finish();
      },
    },
    { highWaterMark: 0 },
  );
}
