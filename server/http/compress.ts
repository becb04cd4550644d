import { constants, createBrotliCompress, createGzip } from 'node:zlib';

/** Bodies at least this long (or of unknown length: streamed) are compressed; below it the headers cost more. */
export const COMPRESS_MIN = 1024;
const COMPRESSIBLE = /^application\/(json|x-ndjson)\b/;

type Coding = 'br' | 'gzip';

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
 * produced, never held. Levels are chosen for speed (brotli 4, gzip 5): the text is regular and the gain of higher
 * levels is small next to their cost.
 */
export function compressResponse(request: Request, res: Response): Response {
  if (request.method === 'HEAD' || !res.body || res.headers.has('content-encoding')) return res;
  if (res.status === 204 || res.status === 206 || res.status === 304) return res;
  if (!COMPRESSIBLE.test(res.headers.get('content-type') ?? '')) return res;
  const length = res.headers.get('content-length');
  if (length !== null && Number(length) < COMPRESS_MIN) return res;
  const coding = negotiate(request.headers.get('accept-encoding'));
  if (!coding) return res;
  const headers = new Headers(res.headers);
  headers.delete('content-length');
  headers.set('Content-Encoding', coding);
  headers.append('Vary', 'Accept-Encoding');
  return new Response(compressed(res.body, coding), { status: res.status, statusText: res.statusText, headers });
}

function compressed(body: ReadableStream<Uint8Array>, coding: Coding): ReadableStream<Uint8Array> {
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
      for (;;) {
        const { done, value } = await reader.read();
        if (z.destroyed) return;
        if (done) return void z.end();
        if (!z.write(value)) await writable();
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
