/**
 * Gives memory back after a burst of garbage: start-up (module bodies, route compilation, migrations) and a big
 * listing (a 100,000-item folder makes ~100 MB of short-lived strings and objects) leave the heap large, and an idle
 * server allocates too little for the collector to run on its own, so that memory stayed resident (issue 39: idle
 * RSS, memory 3 s after a big listing). One full collection shortly after, when the burst is over, lets the heap
 * shrink and the allocator return the pages. Debounced: bursts close together cost one collection; the timer never
 * keeps the process alive.
 */
let timer: ReturnType<typeof setTimeout> | null = null;

/** Collects garbage once, `delayMs` after the last call (a later call moves it). */
export function releaseSoon(delayMs = 1000): void {
  if (timer) clearTimeout(timer);
  timer = setTimeout(() => {
    timer = null;
    Bun.gc(true);
  }, delayMs);
  timer.unref?.();
}
