import type { Resource } from '../../contract/resource';
import { invalid } from '../../core/errors';
import { KnownStats, type DirReader, type EntryStats } from '../../fs/entry-stats';
import type { DirEntry, FolderScan } from '../../fs/scoped-fs';
import { statAhead } from '../../fs/stat-ahead';
import { joinVirtual } from '../../fs/virtual-path';
import type { Actor } from '../actor';
import { visible } from '../policy/file-policy';
import { describe, extensionOf } from './describe';
import { nameOrder } from './name-order';
import { TEXT_LIMIT, detectType, isSubtitle, mimeOf } from './detect-type';
import { sniffCache, sniffFile, type FileIdentity } from './sniff-cache';

/** Items described per batch: large enough to amortise the awaits, small enough to keep memory flat. */
const BATCH = 256;
/** The largest page a client may ask for; without paging the whole folder is sent. */
export const MAX_PAGE = 100_000;
/** From this many items (one batch) on, the entries' lstat is shared with the stat worker (both threads stat while
 * this one also describes; as the main thread never waits for the worker, the hop pays off early: measured, a
 * 1,000-file listing 7.8 -> 5.2-5.9 ms, a 500-file one 3.1-3.9 -> 2.2-3.1 ms, CPU unchanged); smaller listings stat
 * inline. */
const AHEAD_MIN = 256;

export interface Page {
  offset: number;
  limit: number;
}

/** `?offset=&limit=` as sent (null when absent): null for the whole folder, or a checked page. */
export function parsePage(offset: string | null, limit: string | null): Page | null {
  if (offset === null && limit === null) return null;
  const num = (v: string | null, name: string, dflt: number, min: number, max: number) => {
    if (v === null || v === '') return dflt;
    if (!/^\d{1,9}$/.test(v) || Number(v) < min || Number(v) > max) throw invalid(`${name} must be a whole number from ${min} to ${max}`);
    return Number(v);
  };
  return { offset: num(offset, 'offset', 0, 0, 999_999_999), limit: num(limit, 'limit', MAX_PAGE, 1, MAX_PAGE) };
}

/**
 * A folder's visible entries in the reference's order (folders first, then the user's sorting; names natural and
 * case-insensitive), holding only names, kinds and the order: each item is described (lstat, type) only when
 * `items()` reaches it, so a 100,000-file listing never holds 100,000 descriptions or its whole JSON text.
 * Counts are those of the scan; an entry that vanishes before it is described is left out of `items()`.
 */
export class FolderListing {
  readonly numDirs: number;
  readonly numFiles: number;
  private subtitleNames: string[] | null = null;
  /** Sizes of the sub-folders by name, from the name index (null while it is not ready). */
  folderSizes: Map<string, number> | null = null;

  constructor(
    private readonly actor: Actor,
    readonly path: string,
    private readonly real: string,
    private readonly names: string[],
    private readonly dirs: Uint8Array,
    private readonly order: Uint32Array,
    readonly sorting: { by: string; asc: boolean },
    private readonly sniff: boolean,
    /** Stats read with the names (small folders), at the positions of `names`. */
    private readonly known: KnownStats | null = null,
  ) {
    let n = 0;
    for (let i = 0; i < dirs.length; i++) n += dirs[i]!;
    this.numDirs = n;
    this.numFiles = names.length - n;
  }

  get total(): number {
    return this.order.length;
  }

  /**
   * The items of a page (all by default: a listing without paging is the whole folder, however large, not one
   * page of MAX_PAGE), described in batches; stop early by returning the generator.
   */
  async *items(page: Page = { offset: 0, limit: Number.MAX_SAFE_INTEGER }): AsyncGenerator<Resource[]> {
    const end = Math.min(this.order.length, page.offset + page.limit);
    // Held open while the items are read; closed at the end and when the consumer stops early (return()).
    const dir = this.actor.fs.dirReader(this.real);
    const ahead = end - page.offset >= AHEAD_MIN ? statAhead(dir, this.orderedNames(page.offset, end)) : null;
    if (!ahead && this.known) dir.ahead = this.known;
    try {
      for (let at = page.offset; at < end; at += BATCH) {
        const batch: Resource[] = [];
        const sniffs: Promise<void>[] = [];
        const stop = Math.min(end, at + BATCH);
        for (let k = at; k < stop; k++) {
          ahead?.seek(k - page.offset);
          if (this.describeAt(k, dir, batch, sniffs)) continue;
          // A dangling link: where it points is checked asynchronously (entry()).
          const name = this.names[this.order[k]!]!;
          const e = await this.actor.fs.entry(this.real, name, dir);
          if (e) batch.push(this.describeEntry(name, e, sniffs, dir));
        }
        if (sniffs.length) await Promise.all(sniffs);
        yield batch;
      }
    } finally {
      // The worker is done with the descriptor (or told to stop and answered) before it is closed.
      await ahead?.close();
      dir.close();
    }
  }

  /**
   * The items of a page as one array (a whole listing in memory: for small folders and callers that need them all).
   * A page of at most one batch is described at once when nothing in it needs waiting for (itemsNow), else through
   * the batches.
   */
  async all(page?: Page): Promise<Resource[]> {
    const now = this.itemsNow(page);
    if (now) {
      if (now.sniffs.length) await Promise.all(now.sniffs);
      return now.items;
    }
    const items: Resource[] = [];
    for await (const batch of this.items(page)) items.push(...batch);
    return items;
  }

  /**
   * items() of a page of at most one batch, described without a promise when nothing in it needs one (a small
   * folder's listing, the common request: the generator's machinery cost more than describing 20 entries).
   * Undefined when an entry does (a dangling link: entry() checks where it points); items() then answers. Content
   * sniffs (typeDetectionByHeader) are started and handed back: each sets its item's type when it settles.
   */
  private itemsNow(page: Page = { offset: 0, limit: Number.MAX_SAFE_INTEGER }): { items: Resource[]; sniffs: Promise<void>[] } | undefined {
    const end = Math.min(this.order.length, page.offset + page.limit);
    if (end - page.offset > BATCH) return undefined;
    const dir = this.actor.fs.dirReader(this.real);
    if (this.known) dir.ahead = this.known;
    try {
      const items: Resource[] = [];
      const sniffs: Promise<void>[] = [];
      for (let k = page.offset; k < end; k++) if (!this.describeAt(k, dir, items, sniffs)) return undefined;
      return { items, sniffs };
    } finally {
      dir.close();
    }
  }

  /**
   * Describes the entry at position `k` of the listing's order into `out` (nothing when it vanished or is not
   * shown); false when it cannot be decided without waiting (entryNow(): a dangling link).
   */
  private describeAt(k: number, dir: DirReader, out: Resource[], sniffs: Promise<void>[]): boolean {
    const i = this.order[k]!;
    const name = this.names[i]!;
    this.known?.seek(i);
    const e = this.actor.fs.entryNow(this.real, name, dir);
    if (e === undefined) return false;
    if (e) out.push(this.describeEntry(name, e, sniffs, dir));
    return true;
  }

  /** The names of positions [from, to) in the listing's order. */
  private orderedNames(from: number, to: number): string[] {
    const out = new Array<string>(to - from);
    for (let k = from; k < to; k++) out[k - from] = this.names[this.order[k]!]!;
    return out;
  }

  private describeEntry(name: string, e: DirEntry, sniffs: Promise<void>[], dir: DirReader): Resource {
    const item = describe(joinVirtual(this.path, name), name, e.stats, e.isSymlink);
    if (item.isDir && !e.isSymlink && this.folderSizes?.has(name)) item.folderSize = this.folderSizes.get(name);
    if (e.broken) item.type = 'invalid_link';
    else if (!item.isDir) {
      const mime = mimeOf(name);
      if (this.sniff && mime === 'application/octet-stream' && item.size <= TEXT_LIMIT && e.stats.isFile()) {
        // What a sniff of this very file found before (sniff-cache.ts), else the file is read (and remembered).
        const id = this.identityOf(name, e, dir);
        const kept = id && sniffCache.get(id);
        if (kept) item.type = detectType(name, item.size, kept, mime);
        else sniffs.push(sniffFile(this.actor.fs, `${this.real}/${name}`).then((s) => void (item.type = detectType(name, item.size, s, mime)), () => void (item.type = 'blob')));
      } else item.type = e.stats.isFile() ? detectType(name, item.size, undefined, mime) : 'blob';
      if (item.type === 'video') item.subtitles = this.subtitlesOf(name);
    }
    return item;
  }

  /**
   * The identity of a file to sniff: from its stats when they carry one (read on this thread, or node's Stats of a
   * link's target), else from a statx of its name now (stats of the stat worker; a link's target is not stat-ed
   * here: it is sniffed, as before). Null when unknown: the file is then read.
   */
  private identityOf(name: string, e: DirEntry, dir: DirReader): FileIdentity | null {
    const st: Partial<FileIdentity> = e.stats;
    if (st.ino) return st as FileIdentity;
    if (e.isSymlink) return null;
    const own: Partial<FileIdentity> | null = dir.own(name);
    return own?.ino && own.size === e.stats.size && own.mtimeMs === e.stats.mtimeMs ? (own as FileIdentity) : null;
  }

  /** Visible siblings named after a video (the subtitle names are picked out once per listing). */
  private subtitlesOf(video: string): string[] {
    this.subtitleNames ??= this.names.filter(isSubtitle);
    const stem = video.slice(0, video.length - extensionOf(video).length);
    return this.subtitleNames.filter((n) => n !== video && n.startsWith(stem)).map((n) => joinVirtual(this.path, n));
  }
}

/**
 * Scans a folder the caller may read and orders its visible entries. Only a size or modified sort stats every
 * entry here (kept as two numbers each); a name sort needs the kinds alone. Symlinks are resolved here, so that
 * escaping ones are not counted and linked folders sort as folders.
 */
export async function scanFolder(
  actor: Actor,
  path: string,
  sorting: { by: string; asc: boolean },
  sniff: boolean,
  dirBytes?: number,
  real?: string,
  read?: FolderScan | null,
): Promise<FolderListing> {
  // `read`: the folder already read through its descriptor (ScopedFs.readFolder), with the same checks passed.
  const scan = read ?? (await actor.fs.scan(path, dirBytes, real));
  const names: string[] = [];
  const dirs = new Uint8Array(scan.names.length);
  const bySize = sorting.by === 'size';
  const byTime = sorting.by === 'modified';
  const nums = bySize || byTime ? new Float64Array(scan.names.length) : null;
  // Stats read with the names (readFolder), by position in the scan and, for the listing, in `names`.
  const scanKnown = scan.known ? new KnownStats(scan.names, scan.known) : null;
  const kept: (EntryStats | null)[] | null = scan.known ? [] : null;
  let dir: DirReader | null = null;
  // A folder reached through a link: each name is also asked of the rules where it really is (nothing more per entry otherwise).
  const at = actor.fs.realPathOf(path, scan.real);
  try {
    for (let i = 0; i < scan.names.length; i++) {
      const name = scan.names[i]!;
      if (!visible(actor, joinVirtual(path, name), at === undefined ? undefined : joinVirtual(at, name))) continue;
      let kind = scan.kinds[i]!;
      if (kind === 2 || nums) {
        if (!dir) {
          dir = actor.fs.dirReader(scan.real);
          dir.ahead = scanKnown;
        }
        scanKnown?.seek(i);
        const e = await actor.fs.entry(scan.real, name, dir);
        if (!e) continue;
        kind = e.stats.isDirectory() ? 1 : 0;
        if (nums) nums[names.length] = bySize ? e.stats.size : e.stats.mtimeMs;
      }
      if (kept) kept[names.length] = scan.known![i] ?? null;
      dirs[names.length] = kind;
      names.push(name);
    }
  } finally {
    dir?.close();
  }
  const known = kept ? new KnownStats(names, kept) : null;
  return new FolderListing(actor, path, scan.real, names, dirs.subarray(0, names.length), order(scan, names, dirs, nums, sorting), sorting, sniff, known);
}

/**
 * Name orders of folders whose scan handed out a shared names array (a folder remembered unchanged between listings:
 * fs/folder-cache.ts gives the same array each time), kept with the kinds they were made for.
 */
const nameOrders = new WeakMap<readonly string[], { dirs: Uint8Array; idx: Uint32Array }>();

/** nameOrder(names, dirs), taken from nameOrders when every name of a shared scan is listed, with the same kinds. */
function nameOrderOf(scan: FolderScan, names: string[], dirs: Uint8Array): Uint32Array {
  if (!scan.shared || names.length !== scan.names.length) return nameOrder(names, dirs);
  const kept = nameOrders.get(scan.names);
  if (kept && sameBytes(kept.dirs, dirs, names.length)) return kept.idx.slice();
  const idx = nameOrder(names, dirs);
  nameOrders.set(scan.names, { dirs: dirs.slice(0, names.length), idx: idx.slice() });
  return idx;
}

const sameBytes = (a: Uint8Array, b: Uint8Array, n: number) => {
  if (a.length !== n) return false;
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return false;
  return true;
};

/** A to Z is the order of the keys; Z to A (`asc`: inverted, as in the reference) reverses it within the folders and within the files. */
function ascending(idx: Uint32Array, dirs: Uint8Array, asc: boolean): Uint32Array {
  if (!asc) return idx;
  let d = 0;
  while (d < idx.length && dirs[idx[d]!]) d++;
  idx.subarray(0, d).reverse();
  idx.subarray(d).reverse();
  return idx;
}

/**
 * The reference's order as indexes (same result as describe.ts sortItems): folders first; names natural and
 * inverted (asc=false is A to Z); size and modified in the intuitive direction, ties by name in that direction.
 */
function order(scan: FolderScan, names: string[], dirs: Uint8Array, nums: Float64Array | null, sorting: { asc: boolean; by: string }): Uint32Array {
  // By name: the natural-key radix of name-order.ts (A to Z; Z to A reverses it within the folders and the files).
  if (!nums) return ascending(nameOrderOf(scan, names, dirs), dirs, sorting.asc);
  // By size or modified: ties go by name, in the same direction, through each name's rank in the A to Z order.
  const byName = nameOrder(names, new Uint8Array(names.length));
  const rank = new Uint32Array(names.length);
  for (let k = 0; k < byName.length; k++) rank[byName[k]!] = k;
  const dir = sorting.asc ? 1 : -1;
  const arr = Array.from({ length: names.length }, (_, i) => i);
  arr.sort((a, b) => (dirs[a] !== dirs[b] ? (dirs[a] ? -1 : 1) : dir * (nums[a]! - nums[b]! || rank[a]! - rank[b]!)));
  return Uint32Array.from(arr);
}
