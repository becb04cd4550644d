/** Frames to wait for an item scrolled to to be rendered before giving up on focusing it. */
const FOCUS_TRIES = 20;
/** Frames to wait, at most, for an item whose placeholder is on show (a big folder's range on its way): ~10 s. */
const ARRIVAL_TRIES = 600;

/**
 * Focuses the item once the virtualised rows render it (they may need a frame or two after a scroll). While its
 * placeholder is rendered instead (the item has not arrived: folder-slots.ts asks for it), it waits for it longer.
 */
export function focusWhenRendered(container: HTMLElement | null, index: number, tries = FOCUS_TRIES, waited = 0): void {
  if (!container?.isConnected) return;
  const el = container.querySelector<HTMLElement>(`[data-testid=item][data-index="${index}"]`);
  if (el) return el.focus({ preventScroll: true });
  const coming = waited < ARRIVAL_TRIES && !!container.querySelector(`[data-testid=item-placeholder][data-index="${index}"]`);
  if (coming || tries > 0) requestAnimationFrame(() => focusWhenRendered(container, index, coming ? tries : tries - 1, waited + 1));
}
