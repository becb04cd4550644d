import { expect, test } from 'bun:test';
import { brotliDecompressSync, constants, gunzipSync } from 'node:zlib';
import { compressResponse } from '../../server/http/compress';

/** What the bytes received so far decode to (a prefix of the stream: decoded up to what was flushed). */
const decoded = (coding: string, parts: Uint8Array[]) => {
  const all = Buffer.concat(parts);
  if (!all.length) return '';
  return (coding === 'gzip' ? gunzipSync(all, { finishFlush: constants.Z_SYNC_FLUSH }) : brotliDecompressSync(all, { finishFlush: constants.BROTLI_OPERATION_FLUSH })).toString();
};

for (const coding of ['gzip', 'br']) {
  test(`a compressed NDJSON stream (${coding}) sends each chunk's lines as it is written, not when the compressor's buffer fills`, async () => {
    let source!: ReadableStreamDefaultController<Uint8Array>;
    const body = new ReadableStream<Uint8Array>({ start: (c) => void (source = c) });
    const res = new Response(body, { headers: { 'Content-Type': 'application/x-ndjson; charset=utf-8' } });
    const out = (await compressResponse(new Request('http://localhost/api/search/?query=a', { headers: { 'Accept-Encoding': coding } }), res)) as Response;
    expect(out.headers.get('content-encoding')).toBe(coding);
    const reader = out.body!.getReader();
    const parts: Uint8Array[] = [];
    let sent = '';
    // A slow search: a few results now and then (the walk while the index builds). Each chunk must reach the
    // client before the next one is produced.
    for (let k = 0; k < 5; k++) {
      const lines = `{"dir":false,"path":"folder-${k}/report-${k}.txt"}\n`;
      sent += lines;
      source.enqueue(new TextEncoder().encode(lines));
      const deadline = Date.now() + 3000;
      while (decoded(coding, parts) !== sent) {
        const r = await Promise.race([reader.read(), Bun.sleep(Math.max(0, deadline - Date.now())).then(() => null)]);
        if (!r) throw new Error(`chunk ${k} was held back by the compressor`);
        expect(r.done).toBe(false);
        parts.push(r.value!);
      }
    }
    source.close();
    for (let r = await reader.read(); !r.done; r = await reader.read()) parts.push(r.value);
    const all = Buffer.concat(parts);
    expect((coding === 'gzip' ? gunzipSync(all) : brotliDecompressSync(all)).toString()).toBe(sent);
  });
}
