import { Transform, type TransformCallback } from 'node:stream';

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

// The codecs are native add-ons (and a wasm module): loaded on first use, so a server that never makes such an
// archive never pays their memory.
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
  return bzip2;
}

/** The compressor stream for a tar codec (gzip is done by archiver itself). */
export async function compressor(codec: Codec): Promise<Transform> {
  switch (codec) {
    case 'xz': {
      const { Compressor } = await import('@napi-rs/lzma/xz');
      return incremental(new Compressor({ preset: 1 })); // preset 1: ~20 MB/s; higher presets are 10x slower
    }
    case 'sz': {
      const { Compressor } = await import('snappy');
      return incremental(new Compressor());
    }
    case 'lz4': {
      const { compressFrameSync } = await import('lz4-napi');
      return blocks(4 * 1024 * 1024, (b) => compressFrameSync(b));
    }
    case 'bz2':
      return blocks(900 * 1000, async (b) => (await bzip2Module())(b));
  }
}
