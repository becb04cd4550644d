import { useRef, type PointerEvent as ReactPointerEvent } from 'react';

/** A swipe is a one-finger stroke at least this long... */
export const SWIPE_MIN_PX = 50;
/** ...and at least this many times wider than it is tall (a steeper stroke is a scroll or nothing). */
const SWIPE_RATIO = 2;

interface Stroke {
  id: number;
  x: number;
  y: number;
}

/** A zoomed-in image owns one-finger strokes: they pan it. */
const zoomedAt = (target: EventTarget | null) => target instanceof Element && !!target.closest('.zoom.is-zoomed');

/**
 * Horizontal swipes on the previewer's stage, from touch pointer events (a mouse drag is not a swipe). Swiping
 * the finger towards the inline start (left in left-to-right text) asks for the next item, the other way for the
 * previous one: in right-to-left text both are mirrored, as the prev/next buttons are. Not a swipe: a stroke while
 * the image is zoomed in (it pans), any stroke that ever had a second finger (a pinch), or one the browser took
 * over (pointercancel). Events bubble up from the zoom surface, which keeps its own pinch and pan.
 */
export function useSwipe(onSwipe: (to: 'prev' | 'next') => void) {
  const latest = useRef(onSwipe);
  latest.current = onSwipe;
  const fingers = useRef(new Set<number>());
  const stroke = useRef<Stroke | null>(null);

  const onPointerDown = (e: ReactPointerEvent) => {
    if (e.pointerType !== 'touch') return;
    if (e.isPrimary) fingers.current.clear(); // a new touch: forget fingers whose lift we never saw
    fingers.current.add(e.pointerId);
    stroke.current = fingers.current.size === 1 && !zoomedAt(e.target) ? { id: e.pointerId, x: e.clientX, y: e.clientY } : null;
  };
  const onPointerUp = (e: ReactPointerEvent) => {
    if (e.pointerType !== 'touch') return;
    fingers.current.delete(e.pointerId);
    const s = stroke.current;
    stroke.current = null;
    if (!s || s.id !== e.pointerId || zoomedAt(e.target)) return;
    const dx = e.clientX - s.x;
    const dy = e.clientY - s.y;
    if (Math.abs(dx) < SWIPE_MIN_PX || Math.abs(dx) < SWIPE_RATIO * Math.abs(dy)) return;
    const rtl = getComputedStyle(e.currentTarget).direction === 'rtl';
    const towardsStart = rtl ? dx > 0 : dx < 0;
    latest.current(towardsStart ? 'next' : 'prev');
  };
  const onPointerCancel = (e: ReactPointerEvent) => {
    fingers.current.delete(e.pointerId);
    stroke.current = null;
  };
  return { onPointerDown, onPointerUp, onPointerCancel };
}
