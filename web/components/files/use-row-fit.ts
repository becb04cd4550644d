import { useCallback, useLayoutEffect, useState } from 'react';

/**
 * How many of a bar's `total` action buttons fit on its one row, the rest going to a More button. Measured, not
 * guessed from breakpoints: the bar's content width, less its other children at their natural widths (the count
 * at its one-line width: it is never squeezed to make room for a button), less the gaps, divided by the width of
 * one button (every button in the bar is the same square). When not all fit, one button's room goes to More.
 *
 * The actions' own container is marked `data-fit-actions`; it is left out of the sum, so the result does not
 * depend on how many buttons it holds now and a re-measure cannot flip-flop. A ResizeObserver on the bar and on
 * its children re-measures on any width change (window, a font arriving, another language); `text` is what the
 * children show (the count), re-measured on change too, as a squeezed child may not change size with its text.
 *
 * Returns the callback ref for the bar and the number of buttons to show (all of them until measured).
 */
export function useRowFit(total: number, text: string): { ref: (el: HTMLElement | null) => void; fit: number } {
  const [bar, setBar] = useState<HTMLElement | null>(null);
  const [fit, setFit] = useState(total);

  useLayoutEffect(() => {
    if (!bar) return;
    const measure = () => setFit(fitting(bar, total));
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(bar);
    for (const child of bar.children) observer.observe(child);
    return () => observer.disconnect();
  }, [bar, total, text]);

  return { ref: useCallback((el: HTMLElement | null) => setBar(el), []), fit: Math.min(fit, total) };
}

/** The measurement itself; a hidden bar (display: none on wide screens) keeps every button. */
function fitting(bar: HTMLElement, total: number): number {
  const style = getComputedStyle(bar);
  const button = bar.querySelector<HTMLElement>('.icon-btn')?.getBoundingClientRect().width ?? 0;
  if (!bar.clientWidth || !button) return total;
  const gap = parseFloat(style.columnGap) || 0;
  // Fractional widths throughout (clientWidth is rounded): a pixel rounded the wrong way would cut the count.
  const edges = ['paddingInlineStart', 'paddingInlineEnd', 'borderInlineStartWidth', 'borderInlineEndWidth'] as const;
  let room = bar.getBoundingClientRect().width - edges.reduce((sum, e) => sum + (parseFloat(style[e]) || 0), 0);
  for (const child of bar.children) {
    if (!(child instanceof HTMLElement) || getComputedStyle(child).display === 'none') continue;
    room -= gap;
    if (!child.hasAttribute('data-fit-actions')) room -= naturalWidth(child);
  }
  room += gap; // n children have n-1 gaps between them
  if (total * button <= room + 0.01) return total;
  return Math.max(0, Math.floor((room + 0.01 - button) / button));
}

/**
 * A child's width when nothing squeezes it. A shrunk text (overflow hidden) still lays its line out in full, which
 * a Range measures to the fraction; scrollWidth is rounded and may come out a fraction short, which would cut the
 * count by an ellipsis for a button that does not really fit.
 */
function naturalWidth(child: HTMLElement): number {
  const box = child.getBoundingClientRect().width;
  const range = document.createRange();
  range.selectNodeContents(child);
  const s = getComputedStyle(child);
  const text = range.getBoundingClientRect().width + (parseFloat(s.paddingInlineStart) || 0) + (parseFloat(s.paddingInlineEnd) || 0);
  return Math.max(box, text, child.scrollWidth);
}
