import { useCallback, useRef } from 'react';

/**
 * Publishes an element's height as a CSS variable on the root element (`--name: 123px`), kept current by a
 * ResizeObserver, and `0px` once the element is hidden or gone. This is how the bottom stack is placed: the
 * selection bar publishes its height, the panel dock sits that much higher and publishes its own, and the listing
 * pads its end by both, so nothing in the stack needs to know who else is in it.
 * Returns a callback ref: it follows an element that comes and goes (a bar shown only with a selection).
 */
export function usePublishedSize(name: `--${string}`): (el: HTMLElement | null) => void {
  const observer = useRef<ResizeObserver | null>(null);
  return useCallback(
    (el: HTMLElement | null) => {
      const root = document.documentElement.style;
      observer.current?.disconnect();
      observer.current = null;
      // Set only when it changes: every set restyles the whole page (a selection bar hidden on a wide screen would
      // publish 0px again at each selection).
      const set = (value: string) => root.getPropertyValue(name) !== value && root.setProperty(name, value);
      if (!el) {
        set('0px');
        return;
      }
      // The border box: a panel's border is part of what covers the listing. The observer reports the size after
      // the next layout, before that frame is painted; it reports nothing for an element that measures 0 (hidden),
      // hence the 0px first. Measuring here instead would force a layout in the middle of React's commit (the first
      // screen's whole layout, 115 ms in a profile of a 100,000-item folder's first load).
      set('0px');
      observer.current = new ResizeObserver(([entry]) => {
        const box = entry?.borderBoxSize[0];
        set(`${Math.ceil(box ? box.blockSize : el.getBoundingClientRect().height)}px`);
      });
      observer.current.observe(el, { box: 'border-box' });
    },
    [name],
  );
}

/** The phone layout's query, made once: the listing reads it at every render (a new query each time showed in first-screen profiles). */
let phoneQuery: MediaQueryList | null = null;

const published = (name: string) => parseFloat(document.documentElement.style.getPropertyValue(name)) || 0;

/**
 * How much of the window's bottom the stack covers on a phone (selection bar, gap, panels), for code that scrolls an
 * item into view by itself (the virtualised listing); CSS scrolling uses scroll-padding from the same variables.
 * 0 on wider screens, where the dock covers only a corner and the selection bar is not shown.
 */
export function bottomStackCover(): number {
  phoneQuery ??= window.matchMedia('(max-width: 736px)');
  if (!phoneQuery.matches) return 0;
  const bar = published('--selection-bar-size');
  const dock = published('--panel-dock-size');
  return 8 + bar + (bar && dock ? 8 : 0) + dock;
}
