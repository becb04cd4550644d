import { Transform, type TransformCallback } from 'node:stream';
import { Compressor as XzCompressor } from '@napi-rs/lzma/xz';
import { compressFrameSync } from 'lz4-napi';
import { Compressor as SnappyCompressor } from 'snappy';
// @ts-ignore: an emscripten module without type declarations
import Bzip2 from 'libbzip2-wasm';

export type Codec = 'bz2' | 'xz' | 'lz4' | 'sz';

/** An incremental compressor (update/finish) as a stream. napi views are copied before the next call. */
function incremental(c: { update(b: Uint8Array): Uint8Array; finish(): Promise<Uint8Array> }): Transform {
  return new Transform({
    transform(chunk: Buffer, _e, cb: TransformCallback) {
      try {
        const out = c.update(chunk);
        if (out.length) this.push(Buffer.from(out));
        cb();
      } catch (e) {
        cb(e as Error);
      }
    },
    flush(cb: TransformCallback) {
      c.finish().then((tail) => cb(null, Buffer.from(tail)), (e) => cb(e as Error));
    },
  });
}

/**
 * A block codec: input is gathered into blocks of `size` bytes, each compressed into an independent
 * frame/stream; concatenated frames are valid .lz4 and .bz2 files. At most one block is held in memory.
 */
function blocks(size: number, compress: (block: Buffer) => Promise<Uint8Array> | Uint8Array): Transform {
  let parts: Buffer[] = [];
  let held = 0;
  const emit = async (t: Transform, final: boolean) => {
    while (held >= size || (final && held > 0)) {
      const all = Buffer.concat(parts);
      const block = all.subarray(0, Math.min(size, all.length));
      const rest = all.subarray(block.length);
      parts = rest.length ? [Buffer.from(rest)] : [];
      held = rest.length;
      t.push(Buffer.from(await compress(block)));
    }
  };
  return new Transform({
    transform(chunk: Buffer, _e, cb: TransformCallback) {
      parts.push(chunk);
      held += chunk.length;
      emit(this, false).then(() => cb(), (e) => cb(e as Error));
    },
    flush(cb: TransformCallback) {
      emit(this, true).then(() => cb(), (e) => cb(e as Error));
    },
  });
}

let bzip2: Promise<{ compressBZ2(b: Uint8Array, level: number, work: number): { output: Uint8Array; error: number } }> | null = null;
function bzip2Module() {
  bzip2 ??= (async () => {
    const mod = Bzip2({});
    for (let i = 0; !mod.compressBZ2; i++) {
      if (i > 2000) throw new Error('bzip2 module did not initialise');
      await Bun.sleep(1);
    }
    return mod;
  })();
  return bzip2;
}

/** The compressor stream for a tar codec (gzip is done by archiver itself). */
export function compressor(codec: Codec): Transform {
  switch (codec) {
    case 'xz':
      return incremental(new XzCompressor({ preset: 1 })); // preset 1: ~20 MB/s; higher presets are 10x slower
    case 'sz':
      return incremental(new SnappyCompressor());
    case 'lz4':
      return blocks(4 * 1024 * 1024, (b) => compressFrameSync(b));
    case 'bz2':
      return blocks(900 * 1000, async (b) => {
        const r = (await bzip2Module()).compressBZ2(b, 9, 0);
        if (r.error) throw new Error(`bzip2 error ${r.error}`);
        return r.output.slice();
      });
  }
}
