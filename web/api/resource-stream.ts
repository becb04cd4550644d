import type { Resource } from '../../server/contract/resource';
import { request } from './client';
import { FolderSlots } from './folder-slots';
import { JsonItemsSplitter } from './json-items-splitter';
import { asWebItems, firstPageApiPath, folderUrlOf, resourceApiPath, withUrls, type WebResource } from './resources';
import { timeSlices, yieldToBrowser } from './yield-to-browser';

/** A partial folder is passed on at most this often (each time the listing re-derives its rows). */
const PROGRESS_MS = 200;
/** From this many items on, a folder's last range is asked for with its stream (a smaller one streams in soon). */
const PREFETCH_LAST = 10_000;
/** Text parsed at most in one go (characters): some 500 items of a listing. */
const PIECE = 64 * 1024;

/**
 * Resolves once the page has painted what it was given (the frame after a render), or after 200 ms in a tab that
 * paints nothing (a background tab runs no animation frames).
 */
function afterPaint(): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, 200);
    requestAnimationFrame(() => {
      clearTimeout(timer);
      void yieldToBrowser().then(resolve);
    });
  });
}

/** The paging a first-page answer carries (server/http/listing-json.ts); not part of the resource itself. */
type Paged = WebResource & { page?: { offset: number; limit: number; total: number } };

export interface StreamOptions {
  /** Ask for the first page first (see fetchResourceStreamed). */
  firstPage?: boolean;
  /** Given the places of a big folder once its count is known (first page only), to ask for ranges out of order. */
  onSlots?: (slots: FolderSlots) => void;
}

/**
 * GET /api/resources/{path}, parsed while it arrives: a folder's items are parsed in batches between frames and
 * `onPartial` gets the folder with the items so far (the first batch at once, then at most every 200 ms; each
 * time a new array). Answers the complete resource, as `fetchResource` does. A folder of 100,000 items thus
 * shows its first items as soon as they arrive and never blocks the page for one long parse.
 *
 * With `firstPage`, the folder's first page (FIRST_PAGE items, in the listing's order) is asked for first: a
 * folder that fits in it is complete with that one small answer. A bigger one is known by then to hold `total`
 * items: every partial carries `slots` (all its places, web/api/folder-slots.ts), so the count and the list's
 * height are right at once, and ranges far down can be asked for while the whole folder streams in (asked for
 * once the page is painted; partials are passed on from the page's length up, so the list never shrinks). The first
 * screen thus costs the server one folder scan and a page of descriptions, and the browser a small answer, instead
 * of sharing both with the whole folder's transfer while the app starts.
 */
export async function fetchResourceStreamed(path: string, signal: AbortSignal, onPartial: (partial: WebResource) => void, opts: StreamOptions = {}): Promise<WebResource> {
  if (!opts.firstPage) return streamResource(resourceApiPath(path), signal, onPartial, 0);
  const first: Paged = await streamResource(firstPageApiPath(path), signal, () => {}, 0);
  const page = first.page;
  delete first.page;
  if (!page || page.total <= page.limit) return first;
  let prefix = first.items ?? [];
  const publish = () => onPartial({ ...first, items: prefix, slots: places.snapshot() });
  const places = new FolderSlots(path, first.sorting, page.total, signal, publish);
  places.fromStream(prefix, 0);
  opts.onSlots?.(places);
  publish();
  await afterPaint();
  // The end of a very big folder is where a far jump lands most (End, the scrollbar's bottom): asked for at once, it
  // is there by the time the user gets to it, for one more scan of the folder by the server.
  if (page.total >= PREFETCH_LAST) places.want(page.total - 1, page.total);
  const onStreamed = (partial: WebResource) => {
    prefix = partial.items ?? prefix;
    publish();
  };
  return streamResource(resourceApiPath(path), signal, onStreamed, prefix.length, (batch, start) => places.fromStream(batch, start));
}

/**
 * Streams one GET of a resource (see fetchResourceStreamed); partials are passed on from `minItems` items up, and
 * `onBatch` gets each batch of items as it is parsed, with its first place.
 */
async function streamResource(url: string, signal: AbortSignal, onPartial: (partial: WebResource) => void, minItems: number, onBatch?: (batch: WebResource[], start: number) => void): Promise<WebResource> {
  const res = await request(url, { signal });
  if (!res.body) return withUrls((await res.json()) as Resource);
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  const splitter = new JsonItemsSplitter();
  const items: WebResource[] = [];
  let head: WebResource | null = null;
  let folderUrl = '';
  let published = -Infinity;
  const slice = timeSlices();
  // Parses one piece of text: the items it completes, the folder's own fields once the items start, a partial
  // folder when due, and a yield to the browser when this turn has run long enough.
  const take = async (text: string): Promise<void> => {
    const texts = splitter.push(text);
    const before = head ? null : splitter.beforeItems();
    if (before) {
      // Everything before the items (the folder's own fields) is complete once they start.
      head = withUrls(JSON.parse(`${before}]}`) as Resource);
      folderUrl = folderUrlOf(head.path);
    }
    if (texts.length) {
      const batch = asWebItems(JSON.parse(`[${texts.join(',')}]`) as Resource[], folderUrl, items.length);
      onBatch?.(batch, items.length);
      for (const item of batch) items.push(item);
    }
    const now = performance.now();
    if (head && items.length && items.length >= minItems && now - published >= PROGRESS_MS) {
      published = now;
      onPartial({ ...head, items: items.slice() });
    }
    await slice(now);
  };
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      // An answer that arrived while the app was starting (early-request.ts) is read in pieces of megabytes: cut
      // them, so that the first items are shown once their own text is parsed, not the whole piece's.
      // Navigating away aborts the listing: the rest of what was received is not parsed.
      for (let at = 0; at < value.length; at += PIECE) {
        signal.throwIfAborted();
        await take(value.length <= PIECE ? value : value.slice(at, at + PIECE));
      }
    }
  } finally {
    reader.releaseLock();
  }
  const whole = withUrls(JSON.parse(splitter.outer()) as Resource);
  if (splitter.hasItems) whole.items = items;
  return whole;
}
