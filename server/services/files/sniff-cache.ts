import { isHeifBrand, looksBinary, type Sniffed } from './detect-type';

export type { Sniffed };

/** The first bytes of a file read for sniffing (ScopedFs.head), and how many are read. */
export const SNIFF_BYTES = 512;

export function sniffedOf(sample: { bytes: Uint8Array; truncated: boolean }): Sniffed {
  return isHeifBrand(sample.bytes) ? 'heif' : looksBinary(sample.bytes, sample.truncated) ? 'binary' : 'text';
}

/**
 * A file's identity and the numbers that change with its content: node's Stats has these names, and so has an
 * EntryStats read on this thread (fs/entry-stats.ts; `ino` 0 there means "not known").
 */
export interface FileIdentity {
  readonly dev: number;
  readonly ino: number;
  readonly size: number;
  readonly mtimeMs: number;
  readonly ctimeMs: number;
}

interface Entry {
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  sniffed: Sniffed;
  /** `clock` when it was last put at the young end. */
  tick: number;
}

/**
 * What content sniffs found, remembered by the file's identity (device, inode) and checked against its size, mtime
 * and ctime: a write changes the size or a time (ctime moves with every write and every metadata change, and cannot
 * be set back by a user), a file replaced at its name is another inode. So an entry is never wrong while its key
 * matches, and is simply not found otherwise; nothing needs to tell the cache about changes. Bounded: (about) the
 * least recently used entry goes first (Map keeps insertion order; a hit moves to the end, see get()).
 *
 * Without it, a folder of files whose extension tells nothing (no extension, .bin, .dat…) had every such file
 * opened and read at every listing: 452 µs per 20-file listing where 96 µs is nginx's (issue 39).
 */
export class SniffCache {
  private readonly entries = new Map<number | string, Entry>();
  /** Counts insertions and moves to the young end. */
  private clock = 0;
  hits = 0;
  misses = 0;

  constructor(readonly max = 4096) {}

  get size(): number {
    return this.entries.size;
  }

  /** The remembered sniff of the file with these stats, undefined when unknown (or its identity is not known). */
  get(id: Partial<FileIdentity>): Sniffed | undefined {
    if (!id.ino) return undefined;
    const key = keyOf(id as FileIdentity);
    const e = this.entries.get(key);
    if (e === undefined || e.size !== id.size || e.mtimeMs !== id.mtimeMs || e.ctimeMs !== id.ctimeMs) {
      this.misses++;
      return undefined;
    }
    this.hits++;
    // Most recently used last, moved there only once it is a quarter of the way to the old end: the usual hit is a
    // lookup alone, and an entry used at least once per three quarters of `max` insertions is never the oldest.
    if (this.clock - e.tick > this.max >> 2) {
      this.entries.delete(key);
      this.entries.set(key, e);
      e.tick = ++this.clock;
    }
    return e.sniffed;
  }

  set(id: FileIdentity, sniffed: Sniffed): void {
    if (!id.ino) return;
    const key = keyOf(id);
    this.entries.delete(key);
    this.entries.set(key, { size: id.size, mtimeMs: id.mtimeMs, ctimeMs: id.ctimeMs, sniffed, tick: ++this.clock });
    if (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value!);
  }

  clear(): void {
    this.entries.clear();
  }
}

/** One number when device and inode fit in 53 bits together (as they do on common systems), else text. */
const keyOf = (id: FileIdentity): number | string => (id.dev < 2097152 && id.ino < 4294967296 ? id.dev * 4294967296 + id.ino : `${id.dev}:${id.ino}`);

/** The process's one cache, shared by every path that sniffs (listings, a file's description, previews). */
export const sniffCache = new SniffCache();

/** What sniffs need of the files layer: the first bytes of a file, read from a descriptor opened and checked. */
export interface SniffReader {
  head(real: string, n?: number): Promise<{ bytes: Uint8Array; truncated: boolean; stats: FileIdentity }>;
}

/**
 * The sniff of the regular file at `real` (resolved by the caller's scope): remembered when `known` (its stats as
 * the caller has them) matches an entry, else read from the file and remembered under what the opened descriptor's
 * fstat says (the file as it was read, even if it changed since the caller's stat).
 */
export async function sniffFile(fs: SniffReader, real: string, known?: Partial<FileIdentity>, cache = sniffCache): Promise<Sniffed> {
  const kept = known && cache.get(known);
  if (kept) return kept;
  const sample = await fs.head(real, SNIFF_BYTES);
  const sniffed = sniffedOf(sample);
  cache.set(sample.stats, sniffed);
  return sniffed;
}
