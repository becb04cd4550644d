import type { Transform } from 'node:stream';
import { constants, createBrotliCompress, createGzip, createZstdCompress } from 'node:zlib';
import type { ArchiveFormat } from '../../contract/archive';

/** A compression step: bytes in, compressed bytes out, pulled (the consumer's pace is the producer's). */
export type Stage = (src: AsyncIterable<Uint8Array>) => AsyncGenerator<Uint8Array>;

/**
 * Bytes through a node:zlib stream (its work runs on the thread pool, off the event loop). Every error of the
 * stream or of the source is caught here and thrown to the consumer, never left as an 'error' event without a
 * listener (which ends the process). When the consumer stops early, the stream is destroyed and the source is
 * returned (closing the file it was reading).
 */
export async function* through(src: AsyncIterable<Uint8Array>, t: Transform): AsyncGenerator<Uint8Array> {
  let stopped = false;
  let failure: unknown = null;
  t.on('error', (e) => void (failure ??= e));
  const drained = () =>
    new Promise<void>((resolve) => {
      const done = () => {
        t.off('drain', done);
        t.off('close', done);
        resolve();
      };
      t.on('drain', done);
      t.on('close', done);
    });
  const feeding = (async () => {
    try {
      for await (const chunk of src) {
        if (stopped || t.destroyed) break;
        if (!t.write(chunk)) await drained();
      }
      if (!stopped && !t.destroyed) t.end();
    } catch (e) {
      failure ??= e;
      t.destroy();
    }
  })();
  try {
    for await (const out of t as AsyncIterable<Buffer>) yield out;
  } catch (e) {
    failure ??= e;
  } finally {
    stopped = true;
    t.destroy();
    await feeding;
  }
  if (failure) throw failure;
}

/**
 * An incremental codec (update/finish): xz on its own thread, snappy in short native calls. napi views are reused
 * by the next call (and an empty one may be detached), so only non-empty output is yielded, copied.
 */
export function incremental(make: () => Promise<{ update(b: Uint8Array): Uint8Array; finish(): Promise<Uint8Array> }>): Stage {
  return async function* (src) {
    const c = await make();
    for await (const chunk of src) {
      const out = c.update(chunk);
      if (out.length) yield Buffer.from(out);
    }
    const tail = await c.finish();
    if (tail.length) yield Buffer.from(tail);
  };
}

/**
 * A block codec: input gathered into blocks of `size` bytes, each compressed into an independent frame;
 * concatenated frames are valid .lz4 and .bz2 files. At most one block is held in memory.
 */
function blocks(size: number, make: () => Promise<(block: Uint8Array) => Uint8Array>): Stage {
  return async function* (src) {
    const compress = await make();
    let parts: Uint8Array[] = [];
    let held = 0;
    for await (const chunk of src) {
      parts.push(chunk);
      held += chunk.length;
      while (held >= size) {
        const all = Buffer.concat(parts);
        parts = [all.subarray(size)];
        held = all.length - size;
        yield Buffer.from(compress(all.subarray(0, size)));
      }
    }
    if (held > 0) yield Buffer.from(compress(Buffer.concat(parts)));
  };
}

// The codecs below are native add-ons (and a wasm module): loaded on first use, so a server that never makes such
// an archive never pays their memory.
type Bz2 = (block: Uint8Array) => Uint8Array;
let bzip2: Promise<Bz2> | null = null;
function bzip2Module(): Promise<Bz2> {
  bzip2 ??= (async () => {
    // @ts-ignore: an emscripten module without type declarations
    const { default: Bzip2 } = await import('libbzip2-wasm');
    const mod = Bzip2({});
    for (let i = 0; !mod.compressBZ2; i++) {
      if (i > 2000) throw new Error('bzip2 module did not initialise');
      await Bun.sleep(1);
    }
    // Never resolve a promise with the emscripten Module itself: it is a thenable, and awaiting it hangs.
    return (block: Uint8Array) => {
      const r = mod.compressBZ2(block, 9, 0) as { output: Uint8Array; error: number };
      if (r.error) throw new Error(`bzip2 error ${r.error}`);
      return r.output.slice();
    };
  })();
  bzip2.catch(() => (bzip2 = null)); // a failed load is tried again next time, and is never an unhandled rejection
  return bzip2;
}

/**
 * The compression step of each tar format (none for zip and tar). Levels favour speed: a download should go at
 * disk or network speed, not at the compressor's (xz preset 1 ~20 MB/s; brotli quality 5 and zstd level 3 are
 * within a few percent of their best ratio at a tenth of the time).
 */
export const STAGES: Partial<Record<ArchiveFormat, Stage>> = {
  'tar.gz': (src) => through(src, createGzip({ level: 6 })),
  'tar.br': (src) => through(src, createBrotliCompress({ params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_LGWIN]: 22 } })),
  'tar.zst': (src) => through(src, createZstdCompress({ params: { [constants.ZSTD_c_compressionLevel]: 3 } })),
  'tar.xz': incremental(async () => new (await import('@napi-rs/lzma/xz')).Compressor({ preset: 1 })),
  'tar.sz': incremental(async () => new (await import('snappy')).Compressor()),
  'tar.lz4': blocks(4 * 1024 * 1024, async () => {
    const { compressFrameSync } = await import('lz4-napi');
    return (b) => compressFrameSync(Buffer.from(b.buffer, b.byteOffset, b.byteLength));
  }),
  'tar.bz2': blocks(900 * 1000, bzip2Module),
};
