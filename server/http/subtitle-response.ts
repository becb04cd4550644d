import type { Subtitle } from '../services/files/subtitles';
import { textResponse } from './plugins/error.plugin';
import { disposition, parseRange, sendFile } from './send-file';
import { userBytesHeaders } from './user-bytes';

const VTT = 'text/vtt; charset=utf-8';

/**
 * A subtitle as WebVTT: a .vtt file streamed as it is (sendFile: Range, conditional requests), or converted
 * bytes with the same headers, Range and validators (the source file's size and time, marked as converted).
 * The bytes are the user's: nosniff and a sandbox CSP, as for raw files.
 */
export async function subtitleResponse(request: Request, sub: Subtitle): Promise<Response> {
  if (sub.kind === 'file') return sendFile(request, sub.file, sub.name, true, { 'Content-Type': VTT });
  const { body, stats } = sub;
  const lastModified = new Date(Math.floor(stats.mtimeMs / 1000) * 1000);
  const etag = `W/"vtt-${stats.size.toString(16)}-${Math.floor(stats.mtimeMs).toString(16)}"`;
  const headers: Record<string, string> = {
    'Content-Type': VTT,
    'Content-Disposition': disposition('inline', sub.name),
    'Last-Modified': lastModified.toUTCString(),
    ETag: etag,
    'Accept-Ranges': 'bytes',
    'Cache-Control': 'private',
    ...userBytesHeaders('text/vtt'),
  };
  if (request.headers.get('if-none-match') === etag) return new Response(null, { status: 304, headers });
  let range = parseRange(request.headers.get('range'), body.length);
  const ifRange = request.headers.get('if-range');
  if (range && ifRange && ifRange !== etag) range = null;
  if (range === 'unsatisfiable') return textResponse(416, undefined, { 'Content-Range': `bytes */${body.length}` });
  if (!range) return new Response(body, { headers: { ...headers, 'Content-Length': String(body.length) } });
  return new Response(body.subarray(range.start, range.end + 1), {
    status: 206,
    headers: { ...headers, 'Content-Range': `bytes ${range.start}-${range.end}/${body.length}`, 'Content-Length': String(range.end - range.start + 1) },
  });
}
