import { AppError } from '../../core/errors';

/** What is read here: a descriptor opened by openRegular (fs/open-regular.ts ReadHandle). */
type FileHandle = { read(buf: Uint8Array, offset: number, length: number, position: number): Promise<{ bytesRead: number }> };
import { MAX_PIXELS, MAX_SIDE } from './image-render';

/**
 * HEIC/HEIF photos: recognised by name or by the brand of their `ftyp` box, decoded by heif-convert (libheif) in
 * the thumbnail sandbox (tool-thumbs.ts), then resized by the image worker like any JPEG. Before any decode the
 * declared sizes are read here from the container (every image item carries an `ispe` property), so a decode bomb
 * is refused without starting the decoder.
 */

export const HEIF_NAME = /\.(heic|heif|hif)$/i;
/** A top-level box past this is not looked at; the `meta` box of a photo is a few KB. */
const META_CAP = 1024 * 1024;
const MAX_BOXES = 64;

/** Reads `n` bytes at `pos` (fewer at the end of the file). */
async function readAt(h: FileHandle, pos: number, n: number): Promise<Buffer> {
  const buf = Buffer.alloc(n);
  const { bytesRead } = await h.read(buf, 0, n, pos);
  return buf.subarray(0, bytesRead);
}

/** The children of a box body, [type, start, end] within `b`; stops at the first malformed one. */
function boxes(b: Buffer, start: number, end: number): [string, number, number][] {
  const out: [string, number, number][] = [];
  for (let p = start; p + 8 <= end && out.length < 4096; ) {
    let size = b.readUInt32BE(p);
    let head = 8;
    if (size === 1) {
      if (p + 16 > end) break;
      size = Number(b.readBigUInt64BE(p + 8));
      head = 16;
    } else if (size === 0) size = end - p;
    if (size < head || p + size > end) break;
    out.push([b.toString('latin1', p + 4, p + 8), p + head, p + size]);
    p += size;
  }
  return out;
}

/**
 * Every image size the file declares (the `ispe` properties in its `meta` box: the whole picture of a grid and
 * each tile). Empty when there is no `meta` box among its first top-level boxes or it names no size.
 */
export async function heifSizes(h: FileHandle): Promise<{ width: number; height: number }[]> {
  let pos = 0;
  for (let i = 0; i < MAX_BOXES; i++) {
    const head = await readAt(h, pos, 16);
    if (head.length < 8) return [];
    let size = head.readUInt32BE(0);
    let hl = 8;
    if (size === 1) {
      if (head.length < 16) return [];
      size = Number(head.readBigUInt64BE(8));
      hl = 16;
    }
    if (head.toString('latin1', 4, 8) === 'meta') {
      if (size === 0 || size > META_CAP) return [];
      return ispes(await readAt(h, pos, size), hl + 4); // a full box: version and flags first
    }
    if (size === 0 || size < hl) return []; // runs to the end, or malformed
    pos += size;
  }
  return [];
}

function ispes(meta: Buffer, start: number): { width: number; height: number }[] {
  const out: { width: number; height: number }[] = [];
  for (const [t, s, e] of boxes(meta, start, meta.length)) {
    if (t !== 'iprp') continue;
    for (const [t2, s2, e2] of boxes(meta, s, e)) {
      if (t2 !== 'ipco') continue;
      for (const [t3, s3, e3] of boxes(meta, s2, e2)) if (t3 === 'ispe' && e3 - s3 >= 12) out.push({ width: meta.readUInt32BE(s3 + 4), height: meta.readUInt32BE(s3 + 8) });
    }
  }
  return out;
}

/** Refuses a HEIF that declares a size past the image limits (413), or declares none (415: not a readable HEIF), before any decode. */
export async function checkHeifSize(h: FileHandle): Promise<void> {
  const sizes = await heifSizes(h);
  if (!sizes.length) throw new AppError('UNSUPPORTED_MEDIA', 'the HEIC/HEIF image cannot be read (no image size in its header)');
  for (const { width, height } of sizes)
    if (width > MAX_SIDE || height > MAX_SIDE || width * height > MAX_PIXELS) throw new AppError('TOO_LARGE', `the image is ${width}x${height} pixels, above the preview limit`);
}
