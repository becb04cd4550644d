import type { NameIndexStore } from '../../db/name-index.store';
import type { VisibleSizes } from './visible-sizes';

/** How long held folder sizes trust the index file's change mark (commits by other processes show within it). */
const MARK_TTL_MS = 1000;
/** Folders whose sizes are kept between commits to the index, and the most sub-folders such a folder may have. */
const SIZES_KEPT = 1000;
const SIZES_KEPT_CHILDREN = 1000;

/**
 * Folder sizes read since the index last changed, by key (NameIndex.visibleSizes: callers whose answer depends on
 * the index and dotfile hiding alone). They follow the index through the same commits that search reads: any commit
 * by this process (its worker or this thread) shows at once in the shared generation, read without a system call; a
 * commit by another process (`index rebuild` from the CLI) shows in the file's change mark, read at most once a
 * second. So a listing's sizes change when search's results do, never later.
 */
export class HeldSizes {
  /** Commits to the index by this process, counted by its stores (NameIndexStore.commits; shared with the worker). */
  readonly generation = new Int32Array(new SharedArrayBuffer(4));
  private readonly sizes = new Map<string, VisibleSizes | null>();
  private seenGeneration = -1;
  private seenMark: string | null = null;
  private checkedAt = -Infinity;

  /** The sizes held under `key` while the index has not changed; else `read()`, kept when it is whole. */
  get(db: NameIndexStore, key: string, read: () => VisibleSizes | null): VisibleSizes | null {
    if (!this.current(db)) return read();
    let got = this.sizes.get(key);
    if (got !== undefined) return got;
    got = read();
    // A read the bound cut short (no `own`: a slow moment, a busy machine) is not kept: held, it would leave sizes
    // out until the index next changed; the next listing reads again.
    if ((got?.children.size ?? 0) <= SIZES_KEPT_CHILDREN && got?.own !== undefined) {
      if (this.sizes.size >= SIZES_KEPT) this.sizes.delete(this.sizes.keys().next().value!);
      this.sizes.set(key, got);
    }
    return got;
  }

  /** Whether the held sizes are still current, dropping them when not; false when it cannot be known. */
  private current(db: NameIndexStore): boolean {
    const now = Date.now();
    const generation = Atomics.load(this.generation, 0);
    if (generation === this.seenGeneration && now - this.checkedAt < MARK_TTL_MS) return true;
    const mark = db.changeMark();
    if (mark === null) return false;
    if (generation !== this.seenGeneration || mark !== this.seenMark) this.sizes.clear();
    this.seenGeneration = generation;
    this.seenMark = mark;
    this.checkedAt = now;
    return true;
  }
}
