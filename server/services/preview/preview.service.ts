import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { AppError, invalid, type ErrorCode } from '../../core/errors';
import type { PreviewCacheStore } from '../../db/preview-cache.store';
import type { ScopedFs } from '../../fs/scoped-fs';
import { baseName } from '../../fs/virtual-path';
import type { Actor } from '../actor';
import { authorizePath } from '../policy/file-policy';
import { detectType, isHeifBrand, needsSniff } from '../files/detect-type';
import { sniffFile } from '../files/sniff-cache';
import type { HeavyWork } from '../work/heavy-work';
import { SharedRuns } from '../work/shared-run';
import { isPreviewSize, MAX_SOURCE_BYTES, type PreviewSize } from './image-render';
import { checkHeifSize, HEIF_NAME } from './heif';
import { previewGate } from './preview-gate';
import { findTools, heifCommand, limited, missingTool, noSandbox, outputCap, probeVideo, runTool, sandboxed, TOOL_TIMEOUT_MS, toolArgv, type ToolKind, type ToolPaths, type ToolSandbox } from './tool-thumbs';

export { isPreviewSize, MAX_PIXELS, MAX_SIDE, MAX_SOURCE_BYTES, type PreviewSize } from './image-render';

// AVIF decodes in the image worker; HEIC/HEIF is decoded by heif-convert first (@napi-rs/image has no HEVC
// decoder on Linux), then resized there.
const RESIZABLE = /\.(jpe?g|png|tiff?|bmp|webp|avif)$/i;
const CACHE_LIMIT_BYTES = 1024 * 1024 * 1024;
/**
 * Failed renders are remembered (a small file under preview-failures/, named by the preview's key: real path, time,
 * size, preview size) so a listing asking again does not start the program again: a file's own fault (cannot be
 * decoded, no picture, above the limits) until the file changes; a time limit reached for TIMED_OUT_MS (it may have
 * been the load). Cancelled renders, busy slots and internal errors are not remembered.
 */
const REMEMBERED: ErrorCode[] = ['UNSUPPORTED', 'UNSUPPORTED_MEDIA', 'TOO_LARGE'];
const TIMED_OUT_MS = 10 * 60_000;
interface Failure {
  code: ErrorCode;
  detail?: string;
  /** Epoch ms after which the render may be tried again; null: until the file changes. */
  until: number | null;
}

const undecodable = () => new AppError('UNSUPPORTED_MEDIA', 'the HEIC/HEIF image cannot be decoded');

export type PreviewResult = { kind: 'raw'; real: string; stats: import('node:fs').Stats } | { kind: 'image'; file: string; mime: string; modified: Date };

export interface PreviewDeps {
  cacheDir: string;
  store: PreviewCacheStore;
  enableThumbnails: boolean;
  resizePreview: boolean;
  /** Renders run here: worker threads, `imageProcessors` global slots, per-user slots, a time limit (services/work). */
  work: HeavyWork;
  /** pdftoppm, ffmpeg and heif-convert as found at start (tool-thumbs.ts); tests pass their own. */
  tools?: ToolPaths;
  /** How those programs may run here (tool-thumbs.ts detectToolSandbox): bubblewrap, unsafe, or not at all. */
  sandbox: ToolSandbox;
  /** A program's time limit (default TOOL_TIMEOUT_MS). */
  toolTimeoutMs?: number;
}

/**
 * Thumbnails (256x256 centre crop, JPEG) and big previews (fit in 1080 px), cached on disk by real path,
 * modification time and size. GIF (animation), SVG and formats the resizer cannot read go through raw.
 * PDFs (first page, fit in 256 px) and videos (a frame at 1 s) get thumbnails only, from pdftoppm and ffmpeg run as
 * subprocesses inside bubblewrap, under the same preview slots, with a time limit (tool-thumbs.ts); without the
 * program, or without a usable sandbox (and no unsafe flag), a 501 says which is missing. HEIC/HEIF photos (by
 * name, or by their ftyp brand when the name says nothing or lies) get both sizes: heif-convert decodes them in the
 * same sandbox after their declared size passed the image limits, then the image worker resizes the JPEG.
 * Every converter goes through one gate first (preview-gate.ts: enableThumbnails, resizePreview).
 * Only regular files are previewed (a FIFO named .jpg is a 400 before any open). Renders run on worker threads
 * (image-render.ts says why), and concurrent requests for the same uncached preview share one render.
 */
export class PreviewService {
  private readonly dir: string;
  /** Remembered failures (see REMEMBERED), indexed in the same store as previews so evictions take them too. */
  private readonly failedDir: string;
  /** Renders in flight by key, shared by every request for the same uncached preview (true: the preview is in the cache file; false: the original is fine as it is). */
  private readonly renders = new SharedRuns<boolean>();
  /** The outside programs that can run here (found, with a sandbox or the unsafe flag); the page configuration tells the web app. */
  readonly tools: ToolPaths;
  /** How they run; 'off' makes every program null above (the info prompt says why). */
  readonly toolSandbox: ToolSandbox['mode'];

  constructor(private readonly d: PreviewDeps) {
    this.dir = join(d.cacheDir, 'previews');
    this.failedDir = join(d.cacheDir, 'preview-failures');
    const found = d.tools ?? findTools();
    this.toolSandbox = d.sandbox.mode;
    this.tools = d.sandbox.mode === 'off' ? { pdf: null, video: null, heic: null } : found;
  }

  /** `signal`: the request's; a client that goes away stops waiting (and the render, if nobody else waits for it). */
  async preview(actor: Actor, size: string, path: string, signal?: AbortSignal): Promise<PreviewResult> {
    if (!isPreviewSize(size)) throw invalid(`${size} is not a valid preview size, try thumb or big`);
    authorizePath(actor, 'download', path);
    const { real, stats } = await actor.fs.stat(path);
    const name = baseName(path);
    if (!stats.isFile() && !stats.isDirectory()) throw invalid('not a regular file');
    // A name that says nothing is sniffed as the listing sniffs it (a HEIC from a camera without its extension).
    const sniffed = stats.isFile() && needsSniff(name, stats.size) ? await sniffFile(actor.fs, real, stats) : undefined;
    const type = stats.isDirectory() ? 'folder' : detectType(name, stats.size, sniffed);
    const heif = type === 'image' && (HEIF_NAME.test(name) || sniffed === 'heif');
    const tool: ToolKind | null = type === 'pdf' || type === 'video' ? type : heif ? 'heic' : null;
    if (type !== 'image' && !tool) throw new AppError('UNSUPPORTED', 'previews are made for images, PDFs and videos only');
    if (tool && tool !== 'heic' && size !== 'thumb') throw new AppError('UNSUPPORTED', 'PDFs and videos have thumbnails only');
    const raw = { kind: 'raw' as const, real, stats };
    // The one gate (preview-gate.ts): a program kind that is off is refused, an image that is off is served as it is.
    const off = previewGate(this.d, size, tool !== null);
    if (tool) {
      if (off) throw new AppError('UNSUPPORTED', off);
      if (stats.size > MAX_SOURCE_BYTES) throw new AppError('TOO_LARGE', 'the image is too large to preview');
      if (this.toolSandbox === 'off') throw noSandbox(tool);
      if (!this.tools[tool]) throw missingTool(tool);
    } else {
      if (off || !RESIZABLE.test(name)) return raw;
      if (stats.size > MAX_SOURCE_BYTES) throw new AppError('TOO_LARGE', 'the image is too large to preview');
    }
    const key = new Bun.CryptoHasher('sha256').update(`${real}\0${stats.mtimeMs}\0${stats.size}\0${size}`).digest('hex');
    const outPng = size === 'big' && /\.png$/i.test(name);
    const file = join(this.dir, key.slice(0, 2), `${key}${outPng ? '.png' : '.jpg'}`);
    const image = { kind: 'image' as const, file, mime: outPng ? 'image/png' : 'image/jpeg', modified: stats.mtime };
    if (await Bun.file(file).exists()) {
      await this.d.store.touch(file);
      return image;
    }
    const failed = join(this.failedDir, key.slice(0, 2), `${key}.json`);
    const known = await this.failure(failed);
    if (known) throw new AppError(known.code, known.detail);
    const user = String(actor.user?.id ?? 'system');
    const start = (stop: AbortSignal) => {
      const render = tool ? this.renderTool(actor.fs, user, tool, real, file, size, stop) : this.render(actor.fs, user, real, file, size, outPng, stop);
      return render.catch(async (e: unknown) => {
        await this.rememberFailure(real, failed, e);
        throw e;
      });
    };
    return (await this.renders.join(key, start, signal)) ? image : raw;
  }

  /** A remembered failure of this render, or null (none, or one whose time is up). */
  private async failure(marker: string): Promise<Failure | null> {
    const text = await readFile(marker, 'utf8').catch(() => null);
    if (text === null) return null;
    try {
      const f = JSON.parse(text) as Failure;
      return f.until === null || f.until > Date.now() ? f : null;
    } catch {
      return null;
    }
  }

  /** Writes the marker of a failed render when the failure is one to remember (see REMEMBERED). */
  private async rememberFailure(real: string, marker: string, e: unknown): Promise<void> {
    if (!(e instanceof AppError)) return;
    const timedOut = e.code === 'UNAVAILABLE' && /took longer than/.test(e.detail ?? '');
    if (!REMEMBERED.includes(e.code) && !timedOut) return;
    const f: Failure = { code: e.code, detail: e.detail, until: timedOut ? Date.now() + TIMED_OUT_MS : null };
    await this.keep(real, marker, new TextEncoder().encode(JSON.stringify(f))).catch(() => {});
  }

  private async render(fs: ScopedFs, user: string, real: string, file: string, size: PreviewSize, png: boolean, signal: AbortSignal): Promise<boolean> {
    const { handle } = await fs.openReal(real);
    // A HEIC saved under a .jpg name: the image library cannot read it, heif-convert can (when it may run here).
    const head = Buffer.alloc(12);
    await handle.read(head, 0, 12, 0).catch(() => null);
    // Asked of the gate again, now as a program: when programs are off no decoder runs and the original goes as it is.
    const decoderOff = isHeifBrand(head) && previewGate(this.d, size, true) !== null;
    if (decoderOff || (isHeifBrand(head) && this.tools.heic)) {
      await handle.close().catch(() => {});
      return decoderOff ? false : this.renderTool(fs, user, 'heic', real, file, size, signal);
    }
    const data = await this.d.work.run<Uint8Array | null>(user, { kind: 'image', fd: handle.fd, size, png }, { signal, settled: () => void handle.close().catch(() => {}) });
    if (!data) return false; // small enough already and in a format browsers show
    await this.keep(real, file, data);
    return true;
  }

  /**
   * A PDF or video thumbnail, or a HEIC decode, from its program. The preview slots bound these as they bound
   * image renders (one program a slot, released when it has exited); the file is opened as a regular file first
   * and handed over as the program's stdin, the only file of the user's it can reach inside its sandbox
   * (tool-thumbs.ts sandboxed). A clip shorter than a second is tried again at its start. A HEIC's declared size
   * is checked before its decoder starts; the full-size JPEG it writes is then resized by the image worker under
   * a slot of its own (the worker checks the JPEG's size again), or kept as it is when already small enough.
   */
  private async renderTool(fs: ScopedFs, user: string, kind: ToolKind, real: string, file: string, size: PreviewSize, signal: AbortSignal): Promise<boolean> {
    const program = this.tools[kind];
    if (!program) throw missingTool(kind);
    // Never reached past a closed gate (preview() and render() ask first); asked here too, where programs start.
    const off = previewGate(this.d, size, true);
    if (off) throw new AppError('UNSUPPORTED', off);
    // Unconfined there is no private /tmp: heif-convert writes into a fresh private folder, removed below.
    const dir = kind === 'heic' && !this.d.sandbox.bwrap ? mkdtempSync(join(tmpdir(), 'filedeck-heif-')) : null;
    // Every program runs under its memory and CPU caps (tool-thumbs.ts limited), inside its sandbox.
    const argv = (at?: number) => limited(kind, kind === 'heic' ? heifCommand(this.d.sandbox, program, dir) : sandboxed(this.d.sandbox, toolArgv(kind, program, at)));
    const { handle } = await fs.openReal(real);
    let data: Uint8Array | null;
    try {
      if (kind === 'heic') await checkHeifSize(handle);
      const release = await this.d.work.slots.acquire(user, signal);
      try {
        const limit = this.d.toolTimeoutMs ?? TOOL_TIMEOUT_MS;
        // A video's frame size is asked first: one above the image limits is refused before ffmpeg decodes it.
        if (kind === 'video') await probeVideo(this.d.sandbox, program, handle.fd, signal, limit);
        data = await runTool(argv(), handle.fd, signal, limit, outputCap(kind)).catch((e: unknown) => {
          // A HEIC the decoder refuses is the file's fault: a 415 that says so (time limits stay 503).
          throw kind === 'heic' && e instanceof AppError && e.code === 'UNSUPPORTED' ? undecodable() : e;
        });
        if (!data && kind === 'video') data = await runTool(argv(0), handle.fd, signal, limit);
        if (!data) throw kind === 'heic' ? undecodable() : new AppError('UNSUPPORTED', `the ${kind} has no picture to show`);
      } finally {
        release();
      }
    } finally {
      await handle.close().catch(() => {});
      if (dir) rmSync(dir, { recursive: true, force: true });
    }
    if (kind === 'heic') data = (await this.d.work.run<Uint8Array | null>(user, { kind: 'image-bytes', bytes: data, size, png: false }, { signal })) ?? data;
    await this.keep(real, file, data);
    return true;
  }

  /** Writes a rendered preview into the cache (temp name, then rename) and indexes it by its real path. */
  private async keep(real: string, file: string, data: Uint8Array): Promise<void> {
    mkdirSync(join(file, '..'), { recursive: true, mode: 0o700 });
    const tmp = `${file}.${crypto.randomUUID()}.tmp`;
    await writeFile(tmp, data, { mode: 0o600 });
    await rename(tmp, file);
    await this.d.store.add(real, file, data.length);
    void this.trim();
  }

  /** Drops the cached previews of a real path and everything beneath it (delete, overwrite, rename). */
  async evict(realPath: string): Promise<void> {
    for (const f of await this.d.store.takeUnder(realPath)) void unlink(f).catch(() => {});
  }

  private async trim(): Promise<void> {
    for (const f of await this.d.store.takeOldest(CACHE_LIMIT_BYTES)) void unlink(f).catch(() => {});
  }
}
