import { createBrotliDecompress, createGunzip, createZstdDecompress } from 'node:zlib';
import type { ArchiveFormat } from '../../contract/archive';
import { AppError } from '../../core/errors';
import { incremental, through, type Stage } from './compressors';

/** A damaged or unsupported compressed stream: the extraction is refused with this message. */
const bad = (detail: string) => new AppError('INVALID', detail);

/** Gathers a stream into one buffer that can be cut at the front: the frame splitters below work on it. */
class Pending {
  buf = Buffer.alloc(0);
  add(b: Uint8Array): void {
    this.buf = this.buf.length ? Buffer.concat([this.buf, b]) : Buffer.from(b);
  }
  take(n: number): Buffer {
    const head = this.buf.subarray(0, n);
    this.buf = this.buf.subarray(n);
    return head;
  }
}

/** At most this much compressed data is held while looking for the end of one lz4 block or bzip2 stream. */
const HOLD_MAX = 16 * 1024 * 1024;

/**
 * .lz4: frames are parsed (lz4-napi decodes whole frames only, and only the first of concatenated ones). A frame of
 * independent blocks is decoded block by block, each re-wrapped as a one-block frame, so memory stays at one block
 * (at most 4 MiB) whatever the frame holds; dependent blocks are decoded as one frame of at most 64 MiB.
 */
const lz4: Stage = async function* (src) {
  const { decompressFrame } = await import('lz4-napi');
  const p = new Pending();
  let state: { header: Buffer; independent: boolean; blockChecksum: boolean; contentChecksum: boolean; blocks: Buffer[]; held: number } | null = null;
  const decode = async (frame: Buffer) => {
    try {
      return Buffer.from(await decompressFrame(frame));
    } catch {
      throw bad('the lz4 data is damaged');
    }
  };
  const step = async function* (final: boolean): AsyncGenerator<Uint8Array> {
    for (;;) {
      const b = p.buf;
      if (!state) {
        if (b.length < 7) break;
        const magic = b.readUInt32LE(0);
        if ((magic & 0xfffffff0) === 0x184d2a50) { // a skippable frame
          if (b.length < 8 + b.readUInt32LE(4)) break;
          p.take(8 + b.readUInt32LE(4));
          continue;
        }
        if (magic !== 0x184d2204) throw bad('not lz4 data');
        const flg = b[4]!;
        const headerLen = 7 + (flg & 0x08 ? 8 : 0) + (flg & 0x01 ? 4 : 0);
        if (b.length < headerLen) break;
        state = { header: Buffer.from(p.take(headerLen)), independent: !!(flg & 0x20) && !(flg & 0x08) && !(flg & 0x01), blockChecksum: !!(flg & 0x10), contentChecksum: !!(flg & 0x04), blocks: [], held: 0 };
        continue;
      }
      if (b.length < 4) break;
      const size = b.readUInt32LE(0) & 0x7fffffff;
      if (size === 0) { // EndMark, then the optional content checksum
        const end = 4 + (state.contentChecksum ? 4 : 0);
        if (b.length < end) break;
        const tail = p.take(end);
        if (!state.independent) {
          const out = await decode(Buffer.concat([state.header, ...state.blocks, tail]));
          if (out.length) yield out;
        }
        state = null;
        continue;
      }
      const len = 4 + size + (state.blockChecksum ? 4 : 0);
      if (len > HOLD_MAX) throw bad('an lz4 block is larger than Filedeck reads');
      if (b.length < len) break;
      const block = Buffer.from(p.take(len));
      if (state.independent) {
        // The frame header with the content checksum flag cleared (its header checksum recomputed), the block, an EndMark.
        const h = Buffer.from(state.header);
        h[4] = h[4]! & ~0x04;
        h[6] = (Bun.hash.xxHash32(h.subarray(4, 6)) >>> 8) & 0xff;
        const out = await decode(Buffer.concat([h, block, Buffer.alloc(4)]));
        if (out.length) yield out;
      } else {
        state.blocks.push(block);
        state.held += len;
        if (state.held > 4 * 1024 * 1024) throw bad('lz4 frames of dependent blocks over 4 MiB are not supported');
      }
    }
    if (final && (state || p.buf.length)) throw bad('the lz4 data ends early');
  };
  for await (const chunk of src) {
    p.add(chunk);
    yield* step(false);
  }
  yield* step(true);
};

type Bz2Decode = (stream: Uint8Array) => { error: number; output: Uint8Array };
let bz2Module: Promise<Bz2Decode> | null = null;
function bzip2Decoder(): Promise<Bz2Decode> {
  bz2Module ??= (async () => {
    // @ts-ignore: an emscripten module without type declarations
    const { default: Bzip2 } = await import('libbzip2-wasm');
    const mod = Bzip2({});
    for (let i = 0; !mod.decompressBZ2; i++) {
      if (i > 2000) throw new Error('bzip2 module did not initialise');
      await Bun.sleep(1);
    }
    // Never resolve with the emscripten Module itself (a thenable); its decoder writes into a fixed 10 MB buffer.
    return (stream: Uint8Array) => mod.decompressBZ2(stream, 0) as { error: number; output: Uint8Array };
  })();
  bz2Module.catch(() => (bz2Module = null));
  return bz2Module;
}

/** A bzip2 stream starts "BZh1".."BZh9" then a block magic (pi) or the end-of-stream magic (sqrt pi). */
function nextStreamStart(b: Buffer, from: number): number {
  for (let i = b.indexOf('BZh', from); i >= 0; i = b.indexOf('BZh', i + 1)) {
    if (b.length < i + 10) return -1;
    const d = b[i + 3]!;
    const m = b.readUIntBE(i + 4, 6);
    if (d >= 0x31 && d <= 0x39 && (m === 0x314159265359 || m === 0x177245385090)) return i;
  }
  return -1;
}

/**
 * .bz2: a file of concatenated streams (as Filedeck writes them, one per 900 kB block) is cut at stream starts and
 * each stream decoded alone (libbzip2-wasm decodes whole streams into at most 10 MB). A cut that falls inside a
 * stream by chance fails to decode and is joined to the next piece. A single stream expanding past 10 MB (bzip2's
 * usual output for big files) is refused with a message: the decoder we ship cannot stream it.
 */
const bz2: Stage = async function* (src) {
  const decodeStream = await bzip2Decoder();
  const p = new Pending();
  let searchFrom = 4;
  const attempt = (piece: Buffer, last: boolean) => {
    const r = decodeStream(piece);
    if (r.error === 0 || r.error === 4) return Buffer.from(r.output); // BZ_OK / BZ_STREAM_END
    if (r.error === -8) throw bad('a bzip2 stream expands past 10 MB; Filedeck extracts bzip2 files made of smaller streams (as it writes them)');
    if (last) throw bad('the bzip2 data is damaged');
    return null;
  };
  const step = function* (final: boolean): Generator<Uint8Array> {
    for (;;) {
      if (p.buf.length < 10) break;
      if (!p.buf.subarray(0, 3).equals(Buffer.from('BZh'))) throw bad('not bzip2 data');
      const next = nextStreamStart(p.buf, searchFrom);
      if (next < 0) {
        if (p.buf.length > HOLD_MAX) throw bad('a bzip2 stream is larger than Filedeck reads');
        if (!final) break;
        const out = attempt(p.take(p.buf.length), true)!;
        if (out.length) yield out;
        break;
      }
      const out = attempt(p.buf.subarray(0, next), false);
      if (!out) {
        searchFrom = next + 1; // a false start inside the stream: look for the next one
        continue;
      }
      p.take(next);
      searchFrom = 4;
      if (out.length) yield out;
    }
  };
  for await (const chunk of src) {
    p.add(chunk);
    yield* step(false);
  }
  yield* step(true);
};

/** The decompression step of each tar format (none for plain tar; zip is read by entry, not as a stream). */
export const DECOMPRESSORS: Partial<Record<ArchiveFormat, Stage>> = {
  'tar.gz': (src) => through(src, createGunzip()),
  'tar.br': (src) => through(src, createBrotliDecompress()),
  'tar.zst': (src) => through(src, createZstdDecompress()),
  'tar.xz': incremental(async () => new (await import('@napi-rs/lzma/xz')).Decompressor()),
  'tar.sz': incremental(async () => new (await import('snappy')).Decompressor()),
  'tar.lz4': lz4,
  'tar.bz2': bz2,
};
