import type { Resource } from '../contract/resource';
import type { FolderListing, Page } from '../services/files/folder-listing';
import { releaseSoon } from '../core/release-memory';

/** Up to this many items a listing is built as one string (as cheap as it gets for the common small folder). */
const SMALL = 64;
/** From this many items on, a listing's garbage is collected soon after it ends (core/release-memory.ts). */
const RELEASE_AFTER = 10_000;
const utf8 = new TextEncoder();
const HEADERS = { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-cache, no-store, must-revalidate' };

/**
 * A folder listing as the reference's JSON object, streamed batch by batch: the folder's own fields, `items`, then
 * the counts and sorting (JSON objects are unordered, so the tail can follow the items). With a page, `items` holds
 * that page and `page` says which part of `total` it is; the counts are always those of the whole folder.
 */
export async function listingResponse(res: Resource, listing: FolderListing, page: Page | null): Promise<Response> {
  const tail = () => {
    const t: Record<string, unknown> = { numDirs: listing.numDirs, numFiles: listing.numFiles, sorting: listing.sorting };
    if (page) t.page = { offset: page.offset, limit: page.limit, total: listing.total };
    return `],${JSON.stringify(t).slice(1)}`;
  };
  const shown = page ? Math.max(0, Math.min(page.limit, listing.total - page.offset)) : listing.total;
  if (shown <= SMALL) {
    // One batch: a plain body with its length (no stream to set up; compressed whole when the client asks: compress.ts).
    const items = await listing.all(page ?? undefined);
    const text = `${JSON.stringify(res).slice(0, -1)},"items":${JSON.stringify(items).slice(0, -1)}${tail()}`;
    return new Response(text, { headers: { ...HEADERS, 'Content-Length': String(Buffer.byteLength(text)) } });
  }
  const batches = listing.items(page ?? undefined);
  let state: 'head' | 'items' | 'done' = 'head';
  let first = true;
  const body = new ReadableStream<Uint8Array>({
    async pull(c) {
      if (state === 'head') {
        state = 'items';
        c.enqueue(utf8.encode(`${JSON.stringify(res).slice(0, -1)},"items":[`));
        return;
      }
      if (state === 'done') return;
      // Loop past empty batches (every entry vanished): a pull that enqueues nothing is not called again.
      for (let r = await batches.next(); !r.done; r = await batches.next()) {
        if (!r.value.length) continue;
        // One stringify per batch (its brackets cut off) costs less than one per item.
        const text = JSON.stringify(r.value);
        c.enqueue(utf8.encode(first ? text.slice(1, -1) : `,${text.slice(1, -1)}`));
        first = false;
        return;
      }
      state = 'done';
      c.enqueue(utf8.encode(tail()));
      c.close();
      if (shown >= RELEASE_AFTER) releaseSoon();
    },
    async cancel() {
      await batches.return(undefined);
      if (shown >= RELEASE_AFTER) releaseSoon();
    },
  });
  return new Response(body, { headers: HEADERS });
}
