/** Frames to wait for an item scrolled to to be rendered before giving up on focusing it. */
const FOCUS_TRIES = 20;

/** Focuses the item once the virtualised rows render it (they may need a frame or two after a scroll). */
export function focusWhenRendered(container: HTMLElement | null, index: number, tries = FOCUS_TRIES): void {
  const el = container?.querySelector<HTMLElement>(`[data-testid=item][data-index="${index}"]`);
  if (el) el.focus({ preventScroll: true });
  else if (tries > 0) requestAnimationFrame(() => focusWhenRendered(container, index, tries - 1));
}
