import { AppError } from '../../core/errors';

export type PreviewSize = 'thumb' | 'big';
/** The sizes a preview route accepts (the signed-in one and the share page's). */
export const isPreviewSize = (size: string): size is PreviewSize => size === 'thumb' || size === 'big';
/** Above this many pixels an image is refused (413): decoding would cost ~4 bytes a pixel. */
export const MAX_PIXELS = 50_000_000;
export const MAX_SIDE = 10_000;
/** Source files above this size are not decoded at all. */
export const MAX_SOURCE_BYTES = 64 * 1024 * 1024;

type ImageLib = typeof import('@napi-rs/image');

/**
 * Renders a preview from an image's bytes with the synchronous calls of @napi-rs/image. It runs on a worker
 * thread (work.worker.ts), never on the event loop: the library's async calls use the runtime's small shared
 * thread pool, where a few big decodes (measured: 4 × 7000×7000) queue every file-system call of every other
 * request behind them for seconds. Returns null when the original is fine as it is (small, a format browsers show).
 * `stop()` is checked between steps (a decode itself cannot be interrupted).
 */
export function renderImage(lib: ImageLib, input: Uint8Array, size: PreviewSize, png: boolean, stop: () => boolean): Uint8Array | null {
  const { ResizeFit, Transformer } = lib;
  let meta;
  try {
    meta = new Transformer(input).metadataSync();
  } catch (e) {
    // The decoder refuses images whose dimensions would need too much memory: that is a bomb, not a bad file.
    if (/memory limit/i.test((e as Error).message)) throw new AppError('TOO_LARGE', 'the image is too large to preview');
    throw new AppError('UNSUPPORTED', 'the image cannot be decoded');
  }
  if (meta.width > MAX_SIDE || meta.height > MAX_SIDE || meta.width * meta.height > MAX_PIXELS)
    throw new AppError('TOO_LARGE', `the image is ${meta.width}x${meta.height} pixels, above the preview limit`);
  if (stop()) throw new AppError('UNAVAILABLE', 'the preview was stopped');
  const t = new Transformer(input).rotate();
  try {
    if (size === 'thumb') return t.resize({ width: 256, height: 256, fit: ResizeFit.Cover }).jpegSync(80);
    const browserShows = /jpeg|png|webp/i.test(meta.format);
    if (meta.width <= 1080 && meta.height <= 1080 && browserShows && !meta.orientation) return null;
    const r = t.resize({ width: 1080, height: 1080, fit: ResizeFit.Inside });
    return png ? r.pngSync() : r.jpegSync(85);
  } catch {
    throw new AppError('UNSUPPORTED', 'the image cannot be decoded');
  }
}
