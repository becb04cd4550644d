import type { Resource } from '../../server/contract/resource';
import { requestJson } from './client';
import { asWebItems, folderUrlOf, rangeApiPath, type WebResource } from './resources';

/**
 * Places asked for in one range request: a few screens of any view mode. The server orders the whole folder for
 * each request but describes only these, so a range costs it one scan and 512 descriptions.
 */
export const RANGE = 512;
/** Range requests running at once: the one the user is waiting for, and one more. */
const IN_FLIGHT = 2;

/** A page's answer (server/http/listing-json.ts): the items of `offset` on, and the folder's count and order. */
type PageAnswer = Resource & { page?: { offset: number; limit: number; total: number } };

/**
 * Every place of a big folder that is still arriving, from its first page on: the whole stream fills them from the
 * start, and ranges the listing is waiting for (End, the scrollbar dragged to the bottom, a jump) are asked for
 * apart from it with `?offset=&limit=` in the same order, so the last item can be shown before the stream reaches it.
 * A place not yet filled is undefined (the listing draws a placeholder there).
 *
 * Only the stream's answer becomes the listing once complete (files.state.ts): ranges fill the gaps meanwhile and
 * never survive it, so a folder that changed between two requests cannot leave a duplicate or a missing item behind.
 * A range whose answer counts or orders the folder otherwise than the first page did is dropped for the same reason.
 */
export class FolderSlots {
  readonly slots: (WebResource | undefined)[];
  /** Places [0, streamed) have come from the stream. */
  private streamed = 0;
  /** Blocks (place / RANGE) asked for, by their answer's handling: never asked twice. */
  private readonly asked = new Map<number, Promise<void>>();
  private queue: number[] = [];
  private running = 0;

  constructor(
    private readonly path: string,
    private readonly sorting: { by: string; asc: boolean } | undefined,
    total: number,
    private readonly signal: AbortSignal,
    /** Called when a range has filled places: the listing is published again at once. */
    private readonly filled: () => void,
  ) {
    // Filled (not holes): every array method then visits every place.
    this.slots = new Array<WebResource | undefined>(total).fill(undefined);
  }

  get total(): number {
    return this.slots.length;
  }

  /** Items of the stream from place `start` on; they win over a range's (the stream is what stays). */
  fromStream(items: readonly WebResource[], start: number): void {
    const end = Math.min(this.slots.length, start + items.length);
    for (let p = start; p < end; p++) this.slots[p] = items[p - start];
    this.streamed = Math.max(this.streamed, start + items.length);
  }

  /**
   * The listing shows places [from, to) without their items: the blocks holding them that the stream has not reached
   * and nobody asked for yet are asked for. The latest wish goes first and replaces wishes not yet started (a
   * scrollbar dragged past them), so the place the user stopped at is never behind a queue.
   */
  want(from: number, to: number): void {
    if (this.signal.aborted) return;
    const blocks: number[] = [];
    const last = Math.min(to, this.slots.length) - 1;
    for (let b = Math.floor(Math.max(0, from) / RANGE); b * RANGE <= last; b++) {
      if (!this.asked.has(b) && (b + 1) * RANGE > this.streamed) blocks.push(b);
    }
    if (!blocks.length) return;
    this.queue = blocks;
    this.pump();
  }

  /** A snapshot for one render: a new array each time (the listing memoises by identity). */
  snapshot(): (WebResource | undefined)[] {
    return this.slots.slice();
  }

  /**
   * Finds where, in places [lo, hi) ordered by one key, `before` turns false (the first place whose name does not
   * sort before what is sought), by halving between places whose names are known and asking for the block in the
   * middle of a gap: some 8 ranges for 100,000 places, each filling 512. Answers that place (hi: none), or null when
   * a range could not be had (the caller falls back on what has arrived).
   */
  async seek(lo: number, hi: number, before: (name: string) => boolean): Promise<number | null> {
    let left = lo - 1;
    let right = Math.min(hi, this.slots.length);
    while (right - left > 1) {
      const mid = (left + right) >> 1;
      let item = this.slots[mid];
      if (!item) {
        await this.block(Math.floor(mid / RANGE));
        item = this.slots[mid];
        if (!item) return null;
      }
      if (before(item.name)) left = mid;
      else right = mid;
    }
    return right;
  }

  private pump(): void {
    while (this.running < IN_FLIGHT && this.queue.length) {
      const b = this.queue.shift()!;
      if (this.asked.has(b) || (b + 1) * RANGE <= this.streamed) continue;
      this.running++;
      void this.block(b).finally(() => {
        this.running--;
        this.pump();
      });
    }
  }

  /** The block's request, asked once: later callers wait for the same answer. */
  private block(b: number): Promise<void> {
    let done = this.asked.get(b);
    if (!done) {
      done = this.fetchBlock(b);
      this.asked.set(b, done);
    }
    return done;
  }

  private async fetchBlock(b: number): Promise<void> {
    const offset = b * RANGE;
    let res: PageAnswer;
    try {
      res = await requestJson<PageAnswer>(rangeApiPath(this.path, offset, RANGE), { signal: this.signal });
    } catch {
      // Aborted (the user went elsewhere) or failed: the stream brings these places anyway; asked once is enough.
      return;
    }
    if (this.signal.aborted || !res.page || res.page.total !== this.slots.length) return;
    if (this.sorting && (res.sorting?.by !== this.sorting.by || res.sorting.asc !== this.sorting.asc)) return;
    const items = asWebItems(res.items ?? [], folderUrlOf(this.path), offset);
    let changed = false;
    for (let k = 0; k < items.length && offset + k < this.slots.length; k++) {
      if (this.slots[offset + k] !== undefined) continue;
      this.slots[offset + k] = items[k];
      changed = true;
    }
    if (changed) this.filled();
  }
}
