import { deflateSync } from 'node:zlib';

/** CRC-32 of PNG chunks (the polynomial of ISO 3309). */
function crc32(bytes: Uint8Array): number {
  let c = ~0;
  for (const b of bytes) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
  }
  return ~c >>> 0;
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const v = new DataView(out.buffer);
  v.setUint32(0, data.length);
  out.set(new TextEncoder().encode(type), 4);
  out.set(data, 8);
  v.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

/**
 * A valid RGBA PNG of `width` x `height` pixels, all black, which compresses to almost nothing: a small file that
 * costs 4 bytes a pixel to decode (16000x16000: ~1 GiB). The picture is `rows` rows of one deflate stream of
 * zeros repeated: each row is a filter byte and width*4 zero bytes, so the whole image data is zeros.
 */
export function pngBomb(width: number, height: number): Uint8Array {
  const ihdr = new Uint8Array(13);
  const v = new DataView(ihdr.buffer);
  v.setUint32(0, width);
  v.setUint32(4, height);
  ihdr.set([8, 6, 0, 0, 0], 8); // 8 bits, RGBA, deflate, no filter method, no interlace
  const raw = new Uint8Array((width * 4 + 1) * height); // zero-filled: filter 0 and black, transparent pixels
  const idat = deflateSync(raw, { level: 9 });
  const sig = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const parts = [sig, chunk('IHDR', ihdr), chunk('IDAT', idat), chunk('IEND', new Uint8Array())];
  return new Uint8Array(Buffer.concat(parts));
}
