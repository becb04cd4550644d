import { useEffect, useRef, useState, type RefObject } from 'react';

/** Items rendered before any scrolling (spec §9). */
export const INITIAL_LIMIT = 50;
const SCROLL_THROTTLE_MS = 100;
const RESIZE_DEBOUNCE_MS = 100;

/** The page height taken per item: an item's height divided by the items per row (mosaic views have columns). */
function itemWeight(container: HTMLElement | null): number {
  const item = container?.querySelector<HTMLElement>('[data-testid=item]');
  if (!item) return 48;
  const row = item.parentElement;
  const width = row?.clientWidth ?? 0;
  const perRow = Math.max(1, Math.floor((width + 1) / Math.max(1, item.offsetWidth)));
  return Math.max(8, item.offsetHeight / perRow);
}

/**
 * How many items to render: 50 at first, then (on scroll, throttled to 100 ms, within a quarter window of the
 * bottom) about two window heights more; a tall window is filled to three window heights. Large folders thus
 * never put thousands of rows in the DOM at once.
 */
export function useRenderLimit(total: number, resetKey: unknown, container: RefObject<HTMLElement | null>): number {
  const [limit, setLimit] = useState(INITIAL_LIMIT);
  const state = useRef({ limit, total });
  state.current = { limit, total };

  const check = useRef<() => void>(() => {});

  useEffect(() => setLimit(INITIAL_LIMIT), [resetKey]);
  // Still at the bottom after growing (a fast scroll): keep growing without waiting for another scroll event.
  useEffect(() => check.current(), [limit]);

  useEffect(() => {
    const fill = () => {
      const { limit: now, total: all } = state.current;
      if (now >= all) return;
      const want = Math.ceil((window.innerHeight * 3) / itemWeight(container.current));
      if (want > now) setLimit(Math.min(all, want));
    };
    const grow = () => {
      const { limit: now, total: all } = state.current;
      if (now >= all) return;
      const bottom = window.innerHeight + window.scrollY;
      if (bottom <= document.body.offsetHeight - window.innerHeight * 0.25) return;
      setLimit(Math.min(all, now + Math.ceil((window.innerHeight * 2) / itemWeight(container.current))));
    };
    let last = 0;
    let trailing: ReturnType<typeof setTimeout> | null = null;
    const onScroll = () => {
      const wait = SCROLL_THROTTLE_MS - (Date.now() - last);
      if (wait <= 0) {
        last = Date.now();
        grow();
      } else
        trailing ??= setTimeout(() => {
          trailing = null;
          last = Date.now();
          grow();
        }, wait);
    };
    let resize: ReturnType<typeof setTimeout> | null = null;
    const onResize = () => {
      if (resize) clearTimeout(resize);
      resize = setTimeout(fill, RESIZE_DEBOUNCE_MS);
    };
    check.current = grow;
    const first = requestAnimationFrame(fill);
    window.addEventListener('scroll', onScroll, { passive: true });
    window.addEventListener('resize', onResize);
    return () => {
      cancelAnimationFrame(first);
      if (trailing) clearTimeout(trailing);
      if (resize) clearTimeout(resize);
      window.removeEventListener('scroll', onScroll);
      window.removeEventListener('resize', onResize);
    };
  }, [container, resetKey]);

  return Math.min(limit, total);
}
