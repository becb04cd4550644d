import { mkdirSync } from 'node:fs';
import { rename, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { AppError, forbidden, invalid } from '../../core/errors';
import type { PreviewCacheStore } from '../../db/preview-cache.store';
import { baseName } from '../../fs/virtual-path';
import type { Actor } from '../actor';
import { authorizePath } from '../policy/file-policy';
import { detectType } from '../files/detect-type';

export type PreviewSize = 'thumb' | 'big';
/** Above this many pixels an image is refused (413): decoding would cost ~4 bytes a pixel. */
export const MAX_PIXELS = 50_000_000;
export const MAX_SIDE = 10_000;
/** Source files above this size are not decoded at all. */
export const MAX_SOURCE_BYTES = 64 * 1024 * 1024;
const RESIZABLE = /\.(jpe?g|png|tiff?|bmp|webp)$/i;
const CACHE_LIMIT_BYTES = 1024 * 1024 * 1024;

export type PreviewResult = { kind: 'raw'; real: string; stats: import('node:fs').Stats } | { kind: 'image'; file: string; mime: string; modified: Date };

/** A small counting semaphore: at most `n` decodes at once (a 12 MP decode briefly needs ~250 MB). */
class Semaphore {
  private waiting: (() => void)[] = [];
  constructor(private free: number) {}
  async run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.free > 0) this.free--;
    else await new Promise<void>((r) => this.waiting.push(r));
    try {
      return await fn();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.free++;
    }
  }
}

export interface PreviewDeps {
  cacheDir: string;
  store: PreviewCacheStore;
  enableThumbnails: boolean;
  resizePreview: boolean;
  imageProcessors: number;
}

/**
 * Thumbnails (256x256 centre crop, JPEG) and big previews (fit in 1080 px), cached on disk by real path,
 * modification time and size. GIF (animation), SVG and formats the resizer cannot read go through raw.
 */
export class PreviewService {
  private readonly sem: Semaphore;
  private readonly dir: string;

  constructor(private readonly d: PreviewDeps) {
    this.sem = new Semaphore(d.imageProcessors);
    this.dir = join(d.cacheDir, 'previews');
  }

  async preview(actor: Actor, size: string, path: string): Promise<PreviewResult> {
    if (size !== 'thumb' && size !== 'big') throw invalid(`${size} is not a valid preview size, try thumb or big`);
    authorizePath(actor, 'download', path);
    const { real, stats } = await actor.fs.stat(path);
    const name = baseName(path);
    if (stats.isDirectory() || detectType(name, stats.size) !== 'image') throw new AppError('UNSUPPORTED', 'previews are made for images only');
    const raw = { kind: 'raw' as const, real, stats };
    if ((size === 'thumb' && !this.d.enableThumbnails) || (size === 'big' && !this.d.resizePreview) || !RESIZABLE.test(name)) return raw;
    if (stats.size > MAX_SOURCE_BYTES) throw new AppError('TOO_LARGE', 'the image is too large to preview');
    const key = new Bun.CryptoHasher('sha256').update(`${real}\0${stats.mtimeMs}\0${stats.size}\0${size}`).digest('hex');
    const outPng = size === 'big' && /\.png$/i.test(name);
    const file = join(this.dir, key.slice(0, 2), `${key}${outPng ? '.png' : '.jpg'}`);
    const mime = outPng ? 'image/png' : 'image/jpeg';
    if (await Bun.file(file).exists()) {
      await this.d.store.touch(file);
      return { kind: 'image', file, mime, modified: stats.mtime };
    }
    const data = await this.sem.run(() => this.render(real, size, outPng));
    if (!data) return raw; // small enough already and in a format browsers show
    mkdirSync(join(this.dir, key.slice(0, 2)), { recursive: true, mode: 0o700 });
    const tmp = `${file}.${crypto.randomUUID()}.tmp`; // concurrent renders of one image each write their own
    await writeFile(tmp, data, { mode: 0o600 });
    await rename(tmp, file);
    await this.d.store.add(real, file, data.length);
    this.trim();
    return { kind: 'image', file, mime, modified: stats.mtime };
  }

  private async render(real: string, size: PreviewSize, png: boolean): Promise<Uint8Array | null> {
    // The image library is an 18 MB native add-on: loaded on the first preview, not at start-up.
    const { ResizeFit, Transformer } = await import('@napi-rs/image');
    const input = await Bun.file(real).bytes();
    let meta;
    try {
      meta = await new Transformer(input).metadata();
    } catch (e) {
      // The decoder refuses images whose dimensions would need too much memory: that is a bomb, not a bad file.
      if (/memory limit/i.test((e as Error).message)) throw new AppError('TOO_LARGE', 'the image is too large to preview');
      throw new AppError('UNSUPPORTED', 'the image cannot be decoded');
    }
    if (meta.width > MAX_SIDE || meta.height > MAX_SIDE || meta.width * meta.height > MAX_PIXELS)
      throw new AppError('TOO_LARGE', `the image is ${meta.width}x${meta.height} pixels, above the preview limit`);
    const t = new Transformer(input).rotate();
    try {
      if (size === 'thumb') return await t.resize({ width: 256, height: 256, fit: ResizeFit.Cover }).jpeg(80);
      const browserShows = /jpeg|png|webp/i.test(meta.format);
      if (meta.width <= 1080 && meta.height <= 1080 && browserShows && !meta.orientation) return null;
      const r = t.resize({ width: 1080, height: 1080, fit: ResizeFit.Inside });
      return png ? await r.png() : await r.jpeg(85);
    } catch {
      throw new AppError('UNSUPPORTED', 'the image cannot be decoded');
    }
  }

  /** Drops the cached previews of a real path and everything beneath it (delete, overwrite, rename). */
  async evict(realPath: string): Promise<void> {
    for (const f of await this.d.store.takeUnder(realPath)) void unlink(f).catch(() => {});
  }

  private async trim(): Promise<void> {
    for (const f of await this.d.store.takeOldest(CACHE_LIMIT_BYTES)) void unlink(f).catch(() => {});
  }
}

