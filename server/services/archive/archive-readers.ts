import type { Readable } from 'node:stream';
import type * as yauzl from 'yauzl';
import { AppError } from '../../core/errors';

// Loaded at the first extraction (start-up and memory of every process that never extracts; issue 39).
const zipLib = (): typeof import('yauzl') => require('yauzl');
const tarLib = (): typeof import('tar-stream') => require('tar-stream');

/** One member of an archive being read. A file's body must be read to its end (or dropped) before the next entry. */
export interface ReadEntry {
  /** The name exactly as the archive spells it (checked by extract-policy.ts, never trusted). */
  name: string;
  kind: 'file' | 'dir' | 'symlink' | 'hardlink' | 'device' | 'fifo' | 'other';
  /** Size the archive declares (zip: checked against the data by yauzl; tar: the header's). */
  size: number;
  mode: number;
  mtime: Date;
  body?: AsyncIterable<Uint8Array>;
  /** zip: compressed bytes of this entry (progress); tar: 0 (progress comes from the source). */
  packed: number;
}

const damaged = (what: string, e: unknown) => new AppError('INVALID', `the ${what} archive is damaged or unsupported (${(e as Error)?.message ?? e})`);

const S_IFMT = 0o170000;
function kindOfMode(mode: number): ReadEntry['kind'] | null {
  switch (mode & S_IFMT) {
    case 0o100000: return 'file';
    case 0o040000: return 'dir';
    case 0o120000: return 'symlink';
    case 0o020000: case 0o060000: return 'device';
    case 0o010000: return 'fifo';
    case 0: return null; // no type recorded: decided by the name
    default: return 'other';
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * A zip entry's name as text. Names are not validated here (extract-policy.ts does that for every format, backslashes
 * included). UTF-8 when flagged, or when the bytes are valid UTF-8 (zip tools on Unix store UTF-8 without the flag);
 * otherwise the Info-ZIP Unicode path field or CP437, as yauzl decodes them.
 */
function zipName(e: yauzl.Entry): string {
  const raw = e.fileName as unknown as Buffer;
  if (!(e.generalPurposeBitFlag & 0x800) && raw.some((b) => b >= 0x80)) {
    try {
      return utf8.decode(raw);
    } catch {
      return zipLib().getFileNameLowLevel(e.generalPurposeBitFlag, raw, e.extraFields, true);
    }
  }
  return raw.toString('utf8');
}

/** Waits for the zip's next entry (null at the end). Every listener is removed again: no event is left unheard. */
function nextZipEntry(zip: yauzl.ZipFile): Promise<yauzl.Entry | null> {
  return new Promise((resolve, reject) => {
    const done = () => {
      zip.off('entry', onEntry);
      zip.off('end', onEnd);
      zip.off('error', onError);
    };
    const onEntry = (e: yauzl.Entry) => (done(), resolve(e));
    const onEnd = () => (done(), resolve(null));
    const onError = (e: Error) => (done(), reject(e));
    zip.on('entry', onEntry);
    zip.on('end', onEnd);
    zip.on('error', onError);
    zip.readEntry();
  });
}

/** A readable's bytes; on an early stop the stream is destroyed (its 'error' is caught by the iterator). */
async function* bytesOf(r: Readable): AsyncGenerator<Uint8Array> {
  r.on('error', () => {}); // surfaced by the iterator below; never an unheard 'error' event
  let ended = false;
  try {
    for await (const c of r) yield c as Uint8Array;
    ended = true;
  } finally {
    if (!ended) r.destroy();
  }
}

/**
 * Reads a zip through an open descriptor (zip needs random access: the central directory is at the end). yauzl
 * checks each entry's data against its declared size and refuses absolute names, `..` and backslashes itself; our
 * own checks (extract-policy.ts) apply on top. Inflation runs on the thread pool (node:zlib).
 */
export async function* readZip(fd: number): AsyncGenerator<ReadEntry> {
  let zip: yauzl.ZipFile;
  try {
    zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
      zipLib().fromFd(fd, { lazyEntries: true, autoClose: false, validateEntrySizes: true, decodeStrings: false }, (e, z) => (e ? reject(e) : resolve(z!))));
  } catch (e) {
    throw damaged('zip', e);
  }
  zip.on('error', () => {}); // every error is taken by nextZipEntry or openReadStream's callback
  try {
    for (;;) {
      let e: yauzl.Entry | null;
      try {
        e = await nextZipEntry(zip);
      } catch (err) {
        throw damaged('zip', err);
      }
      if (!e) return;
      const unix = e.versionMadeBy >> 8 === 3;
      const mode = unix ? e.externalFileAttributes >>> 16 : 0;
      const name = zipName(e);
      const isDirName = name.endsWith('/');
      const kind = kindOfMode(mode) ?? (isDirName ? 'dir' : 'file');
      const entry: ReadEntry = { name, kind, size: e.uncompressedSize, mode: mode & 0o7777, mtime: e.getLastModDate(), packed: e.compressedSize };
      if (kind === 'file') {
        const stream = await new Promise<Readable>((resolve, reject) => zip.openReadStream(e!, (err, s) => (err ? reject(damaged('zip', err)) : resolve(s!))));
        entry.body = (async function* () {
          try {
            yield* bytesOf(stream);
          } catch (err) {
            throw err instanceof AppError ? err : damaged('zip', err);
          }
        })();
      }
      yield entry;
    }
  } finally {
    zip.close();
  }
}

const TAR_KINDS: Record<string, ReadEntry['kind']> = {
  file: 'file', 'contiguous-file': 'file', directory: 'dir', symlink: 'symlink', link: 'hardlink',
  'character-device': 'device', 'block-device': 'device', fifo: 'fifo',
};

/**
 * Reads a tar from a (decompressed) byte stream with tar-stream: pax and GNU long names are resolved by it. The
 * source is fed with backpressure; any failure of the source or the parser is thrown here, at one await.
 */
export async function* readTar(src: AsyncIterable<Uint8Array>): AsyncGenerator<ReadEntry> {
  const ex = tarLib().extract();
  let failure: unknown = null;
  ex.on('error', (e: unknown) => void (failure ??= e));
  let stopped = false;
  const feeding = (async () => {
    try {
      for await (const chunk of src) {
        if (stopped) break;
        if (!ex.write(chunk))
          await new Promise<void>((resolve) => {
            const done = () => {
              ex.off('drain', done);
              ex.off('close', done);
              resolve();
            };
            ex.on('drain', done);
            ex.on('close', done);
          });
      }
      if (!stopped) (ex as unknown as { end(): void }).end();
    } catch (e) {
      failure ??= e;
      ex.destroy(e as Error);
    }
  })();
  try {
    for await (const e of ex) {
      const h = e.header;
      const kind = TAR_KINDS[h.type ?? 'file'] ?? 'other';
      const body = kind === 'file' ? bytesOf(e as unknown as Readable) : undefined;
      yield { name: h.name, kind, size: h.size ?? 0, mode: (h.mode ?? 0o644) & 0o7777, mtime: h.mtime ?? new Date(), body, packed: 0 };
      if (body) for await (const _ of body); // whatever the consumer left unread: the parser needs it gone
      else for await (const _ of e as unknown as AsyncIterable<unknown>);
    }
  } catch (e) {
    failure ??= e;
  } finally {
    stopped = true;
    ex.destroy();
    await feeding;
  }
  if (failure) throw failure instanceof AppError ? failure : damaged('tar', failure);
}
