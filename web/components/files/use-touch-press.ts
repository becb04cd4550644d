import { useCallback, useEffect, useRef, type RefObject } from 'react';

/** How long a finger must rest on an item before it counts as a long-press. */
export const LONG_PRESS_MS = 500;
/** A finger that travels further than this is scrolling or dragging, not tapping or pressing. */
export const TOUCH_SLOP_PX = 10;
/** After a touch, the browser's compatibility mouse events (click, contextmenu) may follow for this long. */
const AFTERMATH_MS = 800;

export interface TouchPressHandlers {
  /** A short touch that did not move, on the item whose `WebResource.index` is `index`. */
  onTap(index: number): void;
  /** A touch held still for LONG_PRESS_MS. */
  onLongPress(index: number): void;
}

interface Press {
  pointerId: number;
  index: number;
  el: HTMLElement;
  x: number;
  y: number;
  timer: ReturnType<typeof setTimeout>;
  /** The long-press already fired: lifting the finger does nothing more. */
  long: boolean;
}

/** The item touched takes the focus (keys go on from there), without a focus ring: the finger showed where. */
const focusQuietly = (el: HTMLElement) => el.focus({ preventScroll: true, focusVisible: false });

const itemOf = (target: EventTarget | null) => (target instanceof Element ? target.closest<HTMLElement>('[data-testid=item]') : null);

/**
 * Tap and long-press on the listing's items, decided here and only here from pointer events whose `pointerType`
 * is 'touch' (never from the user agent: a laptop with a touch screen gets both this and its mouse). One set of
 * listeners on the container serves every item, rendered or not yet (the rows are virtualised).
 *
 * - A tap is a touch lifted before LONG_PRESS_MS that moved at most TOUCH_SLOP_PX.
 * - A long-press is a touch held LONG_PRESS_MS without moving that far.
 * - Moving further, a scroll of the page, a second finger or the browser taking the gesture (pointercancel, as
 *   when it starts panning) cancels both.
 * Once a touch has been decided here, the browser's own follow-ups are swallowed: its touchend is cancelled so no
 * click is synthesised (the tap may already have replaced the page under the finger), and a contextmenu during or
 * just after a touch is refused (no callout, and the app's context menu stays a mouse and keyboard thing).
 * Returns `touchedRecently()`, for click and drag handlers that must leave touch input to this hook.
 */
export function useTouchPress(container: RefObject<HTMLElement | null>, handlers: TouchPressHandlers) {
  const latest = useRef(handlers);
  latest.current = handlers;
  const lastTouch = useRef(0);

  useEffect(() => {
    const box = container.current;
    if (!box) return;
    let press: Press | null = null;
    /** The touch whose touchend must not become a click (pointerup comes before touchend). */
    let swallowEnd = false;
    // On the item itself: a tap that opened a folder has removed it by the time its touchend is dispatched, and
    // an event on a detached node reaches no ancestor.
    const touchEnd = (e: TouchEvent) => {
      if (swallowEnd && e.cancelable) e.preventDefault();
      if (e.touches.length === 0) swallowEnd = false;
    };

    const cancel = () => {
      if (press) clearTimeout(press.timer);
      press = null;
    };
    const down = (e: PointerEvent) => {
      if (e.pointerType !== 'touch') return;
      lastTouch.current = Date.now();
      if (press) return cancel(); // a second finger: a pinch or a scroll, neither is ours
      const el = itemOf(e.target);
      const index = Number(el?.dataset.index);
      if (!el || !box.contains(el) || !Number.isInteger(index)) return;
      const p: Press = { pointerId: e.pointerId, index, el, x: e.clientX, y: e.clientY, long: false, timer: 0 as unknown as Press['timer'] };
      p.timer = setTimeout(() => {
        if (press !== p) return;
        p.long = true;
        focusQuietly(p.el);
        latest.current.onLongPress(p.index);
      }, LONG_PRESS_MS);
      press = p;
      swallowEnd = false;
      el.addEventListener('touchend', touchEnd, { passive: false, once: true });
    };
    const move = (e: PointerEvent) => {
      if (!press || e.pointerId !== press.pointerId) return;
      if (Math.hypot(e.clientX - press.x, e.clientY - press.y) > TOUCH_SLOP_PX) cancel();
    };
    const up = (e: PointerEvent) => {
      if (e.pointerType === 'touch') lastTouch.current = Date.now();
      if (!press || e.pointerId !== press.pointerId) return;
      const p = press;
      cancel();
      swallowEnd = true;
      if (p.long) return;
      focusQuietly(p.el);
      latest.current.onTap(p.index);
    };
    const lost = (e: PointerEvent) => {
      if (press && e.pointerId === press.pointerId) cancel();
    };
    // Capture: the listing's own contextmenu handler (the app's menu) must not see a touch's.
    const contextMenu = (e: Event) => {
      const touch = (e as PointerEvent).pointerType === 'touch' || press !== null || Date.now() - lastTouch.current < AFTERMATH_MS;
      if (!touch) return;
      e.preventDefault();
      e.stopPropagation();
    };

    box.addEventListener('pointerdown', down);
    box.addEventListener('pointermove', move);
    box.addEventListener('pointerup', up);
    box.addEventListener('pointercancel', lost);
    box.addEventListener('contextmenu', contextMenu, true);
    window.addEventListener('scroll', cancel, { passive: true, capture: true });
    return () => {
      cancel();
      box.removeEventListener('pointerdown', down);
      box.removeEventListener('pointermove', move);
      box.removeEventListener('pointerup', up);
      box.removeEventListener('pointercancel', lost);
      box.removeEventListener('contextmenu', contextMenu, true);
      window.removeEventListener('scroll', cancel, { capture: true });
    };
  }, [container]);

  const touchedRecently = useCallback(() => Date.now() - lastTouch.current < AFTERMATH_MS, []);
  return { touchedRecently };
}
