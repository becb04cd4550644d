import type { Resource } from '../../server/contract/resource';
import { request } from './client';
import { JsonItemsSplitter } from './json-items-splitter';
import { absolute, asWebItems, encodePath, folderUrlOf, withUrls, type WebResource } from './resources';

/** Work done between two yields to the browser: short enough that input and frames are not held up for long. */
const SLICE_MS = 12;
/** A partial folder is passed on at most this often (each time the listing re-derives its rows). */
const PROGRESS_MS = 200;

/**
 * Lets the browser paint and handle input. A message, not a timer: timers in background tabs are held back
 * to one a second, which would stretch a big listing's parsing into minutes.
 */
function yieldToBrowser(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}

/**
 * GET /api/resources/{path}, parsed while it arrives: a folder's items are parsed in batches between frames and
 * `onPartial` gets the folder with the items so far (the first batch at once, then at most every 200 ms; each
 * time a new array). Answers the complete resource, as `fetchResource` does. A folder of 100,000 items thus
 * shows its first items as soon as they arrive and never blocks the page for one long parse.
 */
export async function fetchResourceStreamed(path: string, signal: AbortSignal, onPartial: (partial: WebResource) => void): Promise<WebResource> {
  const res = await request(`/resources${encodePath(absolute(path))}`, { signal });
  if (!res.body) return withUrls((await res.json()) as Resource);
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  const splitter = new JsonItemsSplitter();
  const items: WebResource[] = [];
  let head: WebResource | null = null;
  let folderUrl = '';
  let published = -Infinity;
  let sliceStart = performance.now();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      const texts = splitter.push(value);
      const before = head ? null : splitter.beforeItems();
      if (before) {
        // Everything before the items (the folder's own fields) is complete once they start.
        head = withUrls(JSON.parse(`${before}]}`) as Resource);
        folderUrl = folderUrlOf(head.path);
      }
      if (texts.length) {
        const batch = asWebItems(JSON.parse(`[${texts.join(',')}]`) as Resource[], folderUrl, items.length);
        for (const item of batch) items.push(item);
      }
      const now = performance.now();
      if (head && items.length && now - published >= PROGRESS_MS) {
        published = now;
        onPartial({ ...head, items: items.slice() });
      }
      if (now - sliceStart >= SLICE_MS) {
        await yieldToBrowser();
        sliceStart = performance.now();
      }
    }
  } finally {
    reader.releaseLock();
  }
  const whole = withUrls(JSON.parse(splitter.outer()) as Resource);
  if (splitter.hasItems) whole.items = items;
  return whole;
}
