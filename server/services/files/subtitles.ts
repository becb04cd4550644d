import type { Stats } from 'node:fs';
import { AppError, invalid } from '../../core/errors';
import type { ReadHandle } from '../../fs/open-regular';
import { baseName } from '../../fs/virtual-path';
import type { Actor } from '../actor';
import { authorizePath } from '../policy/file-policy';
import { subtitleWork } from '../work/work-limits';
import { ResultCache } from '../work/result-cache';
import { SharedRuns } from '../work/shared-run';
import { SUBTITLE_LIMIT, subtitleFormat } from './subtitle-convert';

export { assToVtt, decodeText, srtToVtt, SUBTITLE_LIMIT, subtitleFormat, type SubtitleFormat } from './subtitle-convert';

// Browsers play WebVTT only. SubRip and (Advanced) SubStation Alpha files are converted here, once, for the web
// app and for any other client of GET /api/subtitle (the reference's route), and for public shares.

/** Converted subtitles kept in memory (a 10 MiB SRT makes ~10 MiB of WebVTT): 64 MiB, least recently used out. */
const converted = new ResultCache(64 * 1024 * 1024);
/** Conversions in progress, shared by every request for the same file (see SharedRuns). */
const converting = new SharedRuns<Uint8Array<ArrayBuffer>>();

/** The cache's load and the conversions started so far, for tests and diagnostics. */
export function subtitleStats(): { cached: number; converting: number; started: number } {
  return { cached: converted.stats().entries, converting: converting.size(), started: subtitleWork().stats().started };
}

const tooLarge = () => new AppError('TOO_LARGE', `subtitle files are converted up to ${SUBTITLE_LIMIT / 1024 / 1024} MiB`);

/** A subtitle file to send: a WebVTT file as it is, or the WebVTT converted from an SRT or ASS file. */
export type Subtitle = { kind: 'file'; file: { handle: ReadHandle; stats: Stats }; name: string } | { kind: 'converted'; body: Uint8Array<ArrayBuffer>; stats: Stats; name: string };

/**
 * GET /api/subtitle and /api/public/subtitle: the download permission and the rules decide (file-policy, as for
 * raw downloads); only regular .vtt/.srt/.ass/.ssa files are read; SRT and ASS files above SUBTITLE_LIMIT are
 * refused (413). A conversion runs on the work worker under subtitleWork's slots (global and per user: the
 * actor's user, a share's owner), never on the event loop; its result is kept by the file's identity, time and
 * size, so a second request answers from memory. `signal`: the request's; a client that goes away stops waiting,
 * and the conversion stops when nobody else waits for it.
 */
export async function openSubtitle(actor: Actor, path: string, signal?: AbortSignal): Promise<Subtitle> {
  authorizePath(actor, 'download', path);
  const name = baseName(path);
  const format = subtitleFormat(name);
  const { real, stats } = await actor.fs.stat(path);
  if (stats.isDirectory()) throw invalid('a folder is not a subtitle file');
  if (!format) throw invalid('subtitles are .vtt, .srt, .ass or .ssa files');
  if (!stats.isFile()) throw invalid('not a regular file');
  if (format === 'vtt') return { kind: 'file', file: await actor.fs.openReal(real), name };
  if (stats.size > SUBTITLE_LIMIT) throw tooLarge();
  // The file opened once (regular, no symlink); its identity, time and size name the result, and the worker
  // reads this same descriptor, closed here once the worker is done with it (or at once on a cached answer).
  const { handle, stats: opened } = await actor.fs.openReal(real);
  const key = `${opened.dev}:${opened.ino}:${opened.mtimeMs}:${opened.size}:${format}`;
  let body = converted.get(key);
  if (body) {
    await handle.close().catch(() => {});
  } else {
    let handed = false;
    const user = String(actor.user?.id ?? 'public');
    try {
      if (opened.size > SUBTITLE_LIMIT) throw tooLarge();
      body = await converting.join(
        key,
        async (stop) => {
          handed = true;
          const out = await subtitleWork().run<Uint8Array<ArrayBuffer>>(user, { kind: 'subtitle', fd: handle.fd, format, limit: SUBTITLE_LIMIT }, { signal: stop, settled: () => void handle.close().catch(() => {}) });
          converted.set(key, out);
          return out;
        },
        signal,
      );
    } finally {
      // Joined someone else's run (or refused before one): this descriptor was never handed to a worker.
      if (!handed) await handle.close().catch(() => {});
    }
  }
  return { kind: 'converted', body, stats: opened, name: name.replace(/\.[^.]+$/, '.vtt') };
}
