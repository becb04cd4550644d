import { basename } from 'node:path';
import { ARCHIVE_FORMATS, ARCHIVE_FORMAT_INFO, archiveFormatOf, type ArchiveFormat } from '../../contract/archive';
import { forbidden, invalid } from '../../core/errors';
import { baseName, decodeOnce, isWithin, parentOf, toVirtualPath } from '../../fs/virtual-path';
import type { Actor } from '../actor';
import { archiveEntries, type ArchiveItem } from './archive-entries';
import { STAGES } from './compressors';
import { archiverStream } from './archiver-stream';

/** The format an `algo=` value names; 400 listing the accepted names otherwise. */
export function archiveFormat(algo: string | null): ArchiveFormat {
  const f = archiveFormatOf(algo);
  if (!f) throw invalid(`unknown archive format "${algo}"; use ${ARCHIVE_FORMATS.join(', ')}`);
  return f;
}

/** The requested items: the request path itself, or the `files` list (each decoded once more, joined under it). */
export function archiveTargets(base: string, files: string | null): string[] {
  if (files === null || files === '') return [base];
  const out = files.split(',').filter(Boolean).map((f) => {
    const p = toVirtualPath(decodeOnce(f)).path;
    return base === '/' ? p : base + p;
  });
  if (!out.length) throw invalid('no files given');
  return [...new Set(out)];
}

function commonParent(paths: string[]): string {
  let common = parentOf(paths[0]!);
  for (const p of paths) while (common !== '/' && (!isWithin(p, common) || p === common)) common = parentOf(common);
  return common;
}

/** Archive entry names: relative, "/"-separated, backslashes replaced so no extractor reads them as folders. */
const entryName = (rel: string) => rel.split('/').map((s) => s.replaceAll('\\', '_')).join('/');

/** Gathers small pieces (tar headers, small files) into chunks of about 64 KiB; large chunks pass as they are. */
async function* coalesce(src: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  const LOW = 64 * 1024;
  let parts: Uint8Array[] = [];
  let held = 0;
  for await (const chunk of src) {
    if (!held && chunk.length >= LOW) {
      yield chunk;
      continue;
    }
    parts.push(chunk);
    held += chunk.length;
    if (held >= LOW) {
      yield Buffer.concat(parts);
      parts = [];
      held = 0;
    }
  }
  if (held) yield Buffer.concat(parts);
}

export interface Archive {
  name: string;
  contentType: string;
  stream: ReadableStream<Uint8Array>;
}

/**
 * Streams an archive of files and folders. What can fail before the first byte (an unknown format, a missing or
 * denied target) throws; what fails later is decided per case, and nothing ever ends the process:
 * - an entry that vanished, cannot be opened, is not a regular file (FIFOs, sockets and devices are never
 *   opened), or changed while it was read, is skipped or completed with zeros, and named in a last entry,
 *   `.filedeck-skipped.txt`;
 * - a failure of the archive itself (a compressor error) ends the response early: the client sees a truncated
 *   download, never a complete-looking archive;
 * - a client that hangs up stops everything at once: the file being read is closed and no further work is done.
 * Pull-based from end to end: a file is read only as fast as the client takes the archive; one file is open at a
 * time; nothing holds more than one compression block (zip's central directory, ~100 bytes an entry, aside).
 */
export async function createArchive(actor: Actor, targets: string[], algo: string | null, signal?: AbortSignal): Promise<Archive> {
  const format = archiveFormat(algo);
  const info = ARCHIVE_FORMAT_INFO[format];
  const items: ArchiveItem[] = [];
  for (const t of targets) {
    if (!actor.allows(t)) throw forbidden();
    const { real, stats } = await actor.fs.stat(t);
    items.push({ path: t, real, isDir: stats.isDirectory(), mtime: stats.mtime });
  }
  const single = items.length === 1 && items[0]!.isDir;
  const root = single ? items[0]!.path : commonParent(items.map((i) => i.path));
  let name = baseName(root) || (root === '/' ? basename(actor.fs.realRoot) : '') || 'archive';
  if (targets.length > 1) name = `_${name}`;
  const rel = (p: string) => entryName(root === '/' ? p.slice(1) : p.slice(root.length + 1));
  const entries = archiveEntries(actor, items, rel, root, signal);
  const body = coalesce(archiverStream(format === 'zip' ? 'zip' : 'tar', entries));
  const stage = STAGES[format];
  return { name: name + info.ext, contentType: info.contentType, stream: toWebStream(stage ? stage(body) : body, signal) };
}

/**
 * The archive as a web stream: each pull asks the generator chain for one chunk. A cancel (the client went) or
 * an abort returns the chain, which runs every stage's cleanup (closing the open file, destroying a compressor).
 */
function toWebStream(it: AsyncGenerator<Uint8Array>, signal?: AbortSignal): ReadableStream<Uint8Array> {
  let finished = false;
  const stop = () => {
    if (finished) return;
    finished = true;
    it.return(undefined).catch(() => {});
  };
  signal?.addEventListener('abort', stop, { once: true });
  return new ReadableStream<Uint8Array>(
    {
      async pull(c) {
        try {
          const r = await it.next();
          if (finished) return;
          if (r.done) {
            finished = true;
            signal?.removeEventListener('abort', stop);
            c.close();
          } else c.enqueue(r.value);
        } catch (e) {
          if (finished) return;
          finished = true;
          signal?.removeEventListener('abort', stop);
          c.error(e);
        }
      },
      cancel: stop,
    },
    { highWaterMark: 2 }, // a little read-ahead: the next chunk is read while the last one is sent
  );
}
