import type { ArchiverOptions, EntryData, TarArchive, ZipArchive } from 'archiver';
import CRC32 from 'crc-32';
import { Readable } from 'node:stream';
import { crc32 } from 'node:zlib';
import type { ArchiveEntry } from './archive-entries';

/**
 * zip and tar bytes written by archiver, contained:
 * - entries are fed one at a time, the next only after archiver says the last one is written ('entry'), so one
 *   file is open at a time and memory stays flat whatever the tree;
 * - the output is pulled: archiver's readable side fills up to its high-water mark, then stops reading the file;
 * - every stream it is given or makes has an error listener; a failure destroys the archive, which ends the pull
 *   with that error (the response is cut short: never a complete-looking archive);
 * - a consumer that stops (a client that left) aborts the archive, destroys the open file's stream and ends the
 *   entry source, which closes its file.
 * zip entries are STORED (no compression, as the reference does) with data descriptors: sizes and CRC follow the
 * bytes, so nothing is buffered.
 */

/**
 * Tuning: zip-stream checksums every byte with crc-32's JavaScript `buf`, which halved the speed of a stored zip
 * (1 GiB: 5.0 s against 2.7 s for our former writer). The same function is given zlib's native CRC-32 here, with
 * crc-32's contract kept (a signed 32-bit result; the seed is the previous result, or anything else for a start).
 */
export const nativeCrcBuf = (data: Uint8Array, seed?: unknown): number => crc32(data, typeof seed === 'number' ? seed >>> 0 : 0) | 0;
(CRC32 as { buf: typeof nativeCrcBuf }).buf = nativeCrcBuf;

/**
 * archiver, loaded at the first archive: it and its stream stack cost ~0.2 s of start-up and their memory in every
 * process that never makes one (issue 39). crc-32 (small) is tuned above, before archiver can use it.
 */
let lib: typeof import('archiver') | null = null;
const archiverLib = (): typeof import('archiver') => (lib ??= require('archiver') as typeof import('archiver'));

/** Files up to this size are read whole and handed to archiver as one buffer (one such buffer at a time). */
const WHOLE_BYTES = 1024 * 1024;

const OPTIONS: ArchiverOptions = { highWaterMark: 256 * 1024, statConcurrency: 1 };

/**
 * archiver and zip-stream strip a leading "word:" from every entry name (a Windows drive letter), which would turn
 * "notes:2024.txt" into "2024.txt". Such a name is given as "./notes:2024.txt": untouched by that rule and
 * extracted to the same place by every extractor. Every other name of ours passes their normalisation unchanged
 * (already relative, "/"-separated, no "..", no "\\", no empty segment).
 */
export const archiveName = (name: string) => (/^\w+:/.test(name) ? `./${name}` : name);

export function makeArchiver(format: 'zip' | 'tar'): ZipArchive | TarArchive {
  const { TarArchive, ZipArchive } = archiverLib();
  return format === 'zip' ? new ZipArchive({ ...OPTIONS, store: true }) : new TarArchive(OPTIONS);
}

/** The archive of `entries` in `format`, chunk by chunk as the consumer pulls. */
export async function* archiverStream(format: 'zip' | 'tar', entries: AsyncIterable<ArchiveEntry>): AsyncGenerator<Uint8Array> {
  const archive = makeArchiver(format);
  let failure: Error | null = null;
  let stopped = false;
  /** The open file's stream, and what wakes the feeder waiting for its entry (written, or everything stops). */
  const at: { current: Readable | null; wake: ((e?: Error) => void) | null } = { current: null, wake: null };
  const fail = (e: unknown) => {
    if (failure) return;
    failure = e instanceof Error ? e : new Error(String(e));
    at.wake?.(failure);
    at.current?.destroy();
    archive.destroy(failure);
  };
  archive.on('error', fail);
  archive.on('warning', fail);
  archive.on('entry', () => at.wake?.());

  const feed = async () => {
    for await (const e of entries) {
      if (stopped || failure) return;
      const written = new Promise<void>((resolve, reject) => (at.wake = (err) => (err ? reject(err) : resolve())));
      if (e.dir || !e.body) archive.append(Buffer.alloc(0), { name: archiveName(e.dir ? `${e.name}/` : e.name), type: e.dir ? 'directory' : 'file', date: e.mtime, mode: e.mode } as EntryData);
      else if (e.size <= WHOLE_BYTES) {
        // A small file is handed over whole: archiver's stream plumbing per entry (a readable, a pass-through, a
        // checksum stream) cost more than the file itself (1,000 files of 100 KB: 1.1 s against 0.55 s).
        const parts: Uint8Array[] = [];
        for await (const c of e.body) parts.push(c);
        if (stopped || failure) {
          written.catch(() => {}); // nobody waits for it any more
          return;
        }
        archive.append(Buffer.concat(parts), { name: archiveName(e.name), date: e.mtime, mode: e.mode } as EntryData);
      } else {
        const source = Readable.from(e.body, { objectMode: false, highWaterMark: 256 * 1024 });
        source.on('error', fail);
        at.current = source;
        // `stats` carries the size: the tar header needs it up front (without it archiver would collect the file
        // in memory first); the entry source guarantees exactly that many bytes.
        archive.append(source, { name: archiveName(e.name), date: e.mtime, mode: e.mode, stats: { size: e.size, mode: e.mode, mtime: e.mtime } } as unknown as EntryData);
      }
      await written;
      at.wake = null;
      at.current = null;
    }
    if (!stopped && !failure) await archive.finalize();
  };
  const feeding = feed().catch(fail);

  try {
    for await (const chunk of archive as AsyncIterable<Uint8Array>) yield chunk;
    await feeding;
    if (failure) throw failure;
  } finally {
    stopped = true;
    if (!failure) {
      // The consumer left early (or everything ended well, where these are no-ops): stop writing, close the file.
      at.wake?.(new Error('archive stopped'));
      at.current?.destroy();
      archive.abort();
    }
    await feeding;
  }
}
