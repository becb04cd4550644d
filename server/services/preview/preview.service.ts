import { mkdirSync } from 'node:fs';
import { rename, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { AppError, invalid } from '../../core/errors';
import type { PreviewCacheStore } from '../../db/preview-cache.store';
import { openRegular } from '../../fs/open-regular';
import { baseName } from '../../fs/virtual-path';
import type { Actor } from '../actor';
import { authorizePath } from '../policy/file-policy';
import { detectType } from '../files/detect-type';
import { cancelled } from '../work/fair-slots';
import type { HeavyWork } from '../work/heavy-work';
import { MAX_SOURCE_BYTES, type PreviewSize } from './image-render';

export { MAX_PIXELS, MAX_SIDE, MAX_SOURCE_BYTES, type PreviewSize } from './image-render';

const RESIZABLE = /\.(jpe?g|png|tiff?|bmp|webp)$/i;
const CACHE_LIMIT_BYTES = 1024 * 1024 * 1024;

export type PreviewResult = { kind: 'raw'; real: string; stats: import('node:fs').Stats } | { kind: 'image'; file: string; mime: string; modified: Date };

export interface PreviewDeps {
  cacheDir: string;
  store: PreviewCacheStore;
  enableThumbnails: boolean;
  resizePreview: boolean;
  /** Renders run here: worker threads, `imageProcessors` global slots, per-user slots, a time limit (services/work). */
  work: HeavyWork;
}

/** One render in flight, shared by every request for the same uncached preview. */
interface Render {
  /** true: the preview is in the cache file; false: the original is fine as it is. */
  done: Promise<boolean>;
  /** Requests still waiting for it; when the last one goes away the render is told to stop. */
  waiters: number;
  stop: AbortController;
}

/**
 * Thumbnails (256x256 centre crop, JPEG) and big previews (fit in 1080 px), cached on disk by real path,
 * modification time and size. GIF (animation), SVG and formats the resizer cannot read go through raw.
 * Only regular files are previewed (a FIFO named .jpg is a 400 before any open). Renders run on worker threads
 * (image-render.ts says why), and concurrent requests for the same uncached preview share one render.
 */
export class PreviewService {
  private readonly dir: string;
  private readonly inflight = new Map<string, Render>();

  constructor(private readonly d: PreviewDeps) {
    this.dir = join(d.cacheDir, 'previews');
  }

  /** `signal`: the request's; a client that goes away stops waiting (and the render, if nobody else waits for it). */
  async preview(actor: Actor, size: string, path: string, signal?: AbortSignal): Promise<PreviewResult> {
    if (size !== 'thumb' && size !== 'big') throw invalid(`${size} is not a valid preview size, try thumb or big`);
    authorizePath(actor, 'download', path);
    const { real, stats } = await actor.fs.stat(path);
    const name = baseName(path);
    if (stats.isDirectory() || detectType(name, stats.size) !== 'image') throw new AppError('UNSUPPORTED', 'previews are made for images only');
    if (!stats.isFile()) throw invalid('not a regular file');
    const raw = { kind: 'raw' as const, real, stats };
    if ((size === 'thumb' && !this.d.enableThumbnails) || (size === 'big' && !this.d.resizePreview) || !RESIZABLE.test(name)) return raw;
    if (stats.size > MAX_SOURCE_BYTES) throw new AppError('TOO_LARGE', 'the image is too large to preview');
    const key = new Bun.CryptoHasher('sha256').update(`${real}\0${stats.mtimeMs}\0${stats.size}\0${size}`).digest('hex');
    const outPng = size === 'big' && /\.png$/i.test(name);
    const file = join(this.dir, key.slice(0, 2), `${key}${outPng ? '.png' : '.jpg'}`);
    const image = { kind: 'image' as const, file, mime: outPng ? 'image/png' : 'image/jpeg', modified: stats.mtime };
    if (await Bun.file(file).exists()) {
      await this.d.store.touch(file);
      return image;
    }
    let r = this.inflight.get(key);
    if (!r || r.stop.signal.aborted) {
      const stop = new AbortController();
      const user = String(actor.user?.id ?? 'system');
      const fresh: Render = { done: this.render(user, real, file, size, outPng, stop.signal), waiters: 0, stop };
      void fresh.done.finally(() => this.inflight.get(key) === fresh && this.inflight.delete(key)).catch(() => {});
      this.inflight.set(key, (r = fresh));
    }
    return (await this.wait(r, signal)) ? image : raw;
  }

  /** Waits for a shared render on behalf of one request. */
  private wait(r: Render, signal?: AbortSignal): Promise<boolean> {
    r.waiters++;
    return new Promise<boolean>((resolve, reject) => {
      let left = false;
      const leave = () => {
        if (left) return;
        left = true;
        signal?.removeEventListener('abort', onAbort);
        if (--r.waiters === 0) r.stop.abort();
      };
      const onAbort = () => {
        leave();
        reject(cancelled());
      };
      if (signal?.aborted) return onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
      r.done.then(
        (v) => {
          leave();
          resolve(v);
        },
        (e) => {
          leave();
          reject(e);
        },
      );
    });
  }

  private async render(user: string, real: string, file: string, size: PreviewSize, png: boolean, signal: AbortSignal): Promise<boolean> {
    const { handle } = await openRegular(real);
    const data = await this.d.work.run<Uint8Array | null>(user, { kind: 'image', fd: handle.fd, size, png }, { signal, settled: () => void handle.close().catch(() => {}) });
    if (!data) return false; // small enough already and in a format browsers show
    mkdirSync(join(file, '..'), { recursive: true, mode: 0o700 });
    const tmp = `${file}.${crypto.randomUUID()}.tmp`;
    await writeFile(tmp, data, { mode: 0o600 });
    await rename(tmp, file);
    await this.d.store.add(real, file, data.length);
    void this.trim();
    return true;
  }

  /** Drops the cached previews of a real path and everything beneath it (delete, overwrite, rename). */
  async evict(realPath: string): Promise<void> {
    for (const f of await this.d.store.takeUnder(realPath)) void unlink(f).catch(() => {});
  }

  private async trim(): Promise<void> {
    for (const f of await this.d.store.takeOldest(CACHE_LIMIT_BYTES)) void unlink(f).catch(() => {});
  }
}
