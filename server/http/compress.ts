import { brotliCompressSync, constants, createBrotliCompress, createGzip } from 'node:zlib';

/** Bodies at least this long (or of unknown length: streamed) are compressed; below it the headers cost more. */
export const COMPRESS_MIN = 1024;
const COMPRESSIBLE = /^application\/(json|x-ndjson)\b/;
/**
 * Bodies of a declared length up to this size are compressed in one synchronous call (tens of µs: a 20-item
 * listing's 4 KB take ~25 µs in brotli, ~11 µs in gzip). Setting up a compressor stream per response costs far more
 * than the compression itself (issue 15 item 5: it was a fifth of a small listing's CPU). Above it, the stream.
 */
export const SYNC_MAX = 64 * 1024;
/** Brotli for one small body: the same quality as the stream, a window just big enough for SYNC_MAX (a smaller allocation). */
const SMALL_BR = { params: { [constants.BROTLI_PARAM_QUALITY]: 4, [constants.BROTLI_PARAM_LGWIN]: 16, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT } };

type Coding = 'br' | 'gzip';

/**
 * What an Accept-Encoding header allows: `best`, br before gzip at equal weight (none when both are refused), and
 * `small`, the coding for a small body (gzip whenever it is accepted: smallCoding). Clients send the same few header
 * values over and over, so the last ones are kept (parsing them took a sixth of a small listing's compression work).
 */
interface Accepted {
  best: Coding | null;
  small: Coding | null;
}
const accepted = new Map<string, Accepted>();

function acceptedBy(header: string): Accepted {
  let a = accepted.get(header);
  if (a) return a;
  const best = negotiate(header);
  a = { best, small: best && smallCoding(header, best) };
  if (accepted.size >= 64) accepted.clear();
  accepted.set(header, a);
  return a;
}

/** The coding to use for an Accept-Encoding header: br before gzip at equal weight, none when q=0 or absent. */
export function negotiate(header: string | null): Coding | null {
  if (!header) return null;
  const q: Record<string, number> = {};
  for (const part of header.toLowerCase().split(',')) {
    const [name, ...params] = part.trim().split(';');
    if (!name) continue;
    const p = params.map((s) => s.trim()).find((s) => s.startsWith('q='));
    const w = p ? Number(p.slice(2)) : 1;
    q[name] = Number.isFinite(w) ? w : 0;
  }
  const weight = (c: string) => q[c] ?? q['*'] ?? 0;
  const br = weight('br');
  const gz = weight('gzip');
  if (br <= 0 && gz <= 0) return null;
  return br >= gz ? 'br' : 'gzip';
}

/**
 * Compresses a JSON response for a client that accepts it. The compressor is a node:zlib stream: its work runs on
 * the thread pool, off the event loop, and it is fed with backpressure, so a big listing is compressed as it is
 * produced, never held. Levels are chosen for speed (brotli 4, gzip 5; a small body's gzip: 1, compressedWhole):
 * the text is regular and the gain of higher levels is small next to their cost.
 */
export function compressResponse(request: Request, res: Response): Response | Promise<Response> {
  if (request.method === 'HEAD' || res.status === 204 || res.status === 206 || res.status === 304) return res;
  const type = res.headers.get('content-type') ?? '';
  if (res.headers.has('content-encoding') || !COMPRESSIBLE.test(type)) return res;
  const length = res.headers.get('content-length');
  if (length !== null && Number(length) < COMPRESS_MIN) return res;
  const header = request.headers.get('accept-encoding');
  const accepts = header ? acceptedBy(header) : null;
  const coding = accepts?.best;
  // `body` last: asking it of a Response made from a string or bytes builds a stream around them (measured: a
  // small listing's most expensive check), and most answers are settled by the headers above.
  if (!coding || !res.body) return res;
  const small = length !== null && Number(length) <= SYNC_MAX;
  const use = small ? accepts.small! : coding;
  const headers = new Headers(res.headers);
  headers.delete('content-length');
  headers.set('Content-Encoding', use);
  headers.append('Vary', 'Accept-Encoding');
  if (small) return compressedWhole(res, use, headers);
  return new Response(compressed(res.body, coding, type.startsWith('application/x-ndjson')), { status: res.status, statusText: res.statusText, headers });
}

/**
 * For a small body gzip when the client takes it: at a few KB both codings give the same size, and gzip costs less
 * than half of brotli's time (its per-call setup dominates).
 */
function smallCoding(header: string | null, chosen: Coding): Coding {
  return chosen === 'gzip' || negotiate(header?.replace(/\bbr\b/gi, 'x-none') ?? null) !== 'gzip' ? chosen : 'gzip';
}

/**
 * A small body of known length, compressed at once: the answer keeps a Content-Length. gzip at level 1: a 20-item
 * listing's 3.7 KB become 472 bytes in ~5 µs where level 5 took ~15 µs for 366 bytes; at these sizes (up to
 * SYNC_MAX, a few KB once compressed: within a connection's first TCP window) the bytes level 5 saves change no
 * round trip.
 */
async function compressedWhole(res: Response, coding: Coding, headers: Headers): Promise<Response> {
  const raw = new Uint8Array(await res.arrayBuffer());
  const out = coding === 'br' ? brotliCompressSync(raw, SMALL_BR) : Bun.gzipSync(raw, { level: 1 });
  headers.set('Content-Length', String(out.byteLength));
  return new Response(out, { status: res.status, statusText: res.statusText, headers });
}

/**
 * `progressive`: every chunk is flushed as it is written. A search's results (NDJSON) come in chunks its route has
 * already sized (64 KB or 50 ms of searching): without a flush, the results of a slow search (the walk while the
 * index builds) waited in the compressor's buffer until tens of KB more arrived, and gzip sent none before that.
 */
function compressed(body: ReadableStream<Uint8Array>, coding: Coding, progressive: boolean): ReadableStream<Uint8Array> {
  const z =
    coding === 'br'
      ? createBrotliCompress({ params: { [constants.BROTLI_PARAM_QUALITY]: 4, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT } })
      : createGzip({ level: 5 });
  // Errors reach the reader through the iterator below; a listener keeps an 'error' event from being unhandled.
  z.on('error', () => {});
  const reader = body.getReader();
  const out = z[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const writable = () => new Promise<void>((r) => {
    const done = () => {
      z.off('drain', done);
      z.off('close', done);
      r();
    };
    z.on('drain', done);
    z.on('close', done);
  });
  const pump = async () => {
    try {
      for (let n = 0; ; n++) {
        const { done, value } = await reader.read();
        if (z.destroyed) return;
        if (done) return void z.end();
        const room = z.write(value);
        // The head and the first items go out at once (a listing's first screen), not when the compressor's
        // buffers fill: brotli held them back for ~200 ms of a 100,000-item folder.
        if (n === 1 || progressive) z.flush();
        if (!room) await writable();
      }
    } catch (e) {
      z.destroy(e as Error);
    }
  };
  return new ReadableStream<Uint8Array>({
    start() {
      void pump();
    },
    async pull(c) {
      const r = await out.next();
      if (r.done) c.close();
      else c.enqueue(new Uint8Array(r.value.buffer, r.value.byteOffset, r.value.byteLength));
    },
    cancel() {
      // The client left: stop producing (the listing generator is returned) and free the compressor.
      void reader.cancel().catch(() => {});
      z.destroy();
    },
  });
}
