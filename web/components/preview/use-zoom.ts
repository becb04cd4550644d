import { useCallback, useEffect, useRef, useState, type MouseEvent as ReactMouseEvent, type PointerEvent as ReactPointerEvent, type RefObject } from 'react';

/** Spec §9: wheel step 0.25, minimum 0.25, maximum 4 plus the natural-to-displayed ratio, auto steps 1, 2, 4. */
export const ZOOM_STEP = 0.25;
export const ZOOM_MIN = 0.25;
export const DOUBLE_TAP_MS = 300;
const TAP_SLOP_PX = 10;

export interface Zoom {
  scale: number;
  x: number;
  y: number;
}

const IDENTITY: Zoom = { scale: 1, x: 0, y: 0 };

/** The largest zoom for what is inside `content`: 4 plus how much the picture was shrunk to fit. */
function maxScale(content: HTMLElement | null): number {
  const el = content?.firstElementChild;
  let natural = 0;
  if (el instanceof HTMLImageElement) natural = el.naturalWidth;
  else if (el instanceof HTMLCanvasElement) natural = el.width;
  const shown = el instanceof HTMLElement ? el.clientWidth : 0;
  return 4 + (natural > 0 && shown > 0 ? natural / shown : 1);
}

/** Zooms to `next` keeping the point `p` (relative to the stage centre) still; back at 1 or below it re-centres. */
function zoomAt(z: Zoom, next: number, p: { x: number; y: number }): Zoom {
  if (next <= 1) return { scale: next, x: 0, y: 0 };
  const k = next / z.scale;
  return { scale: next, x: p.x - k * (p.x - z.x), y: p.y - k * (p.y - z.y) };
}

/** The automatic zoom cycle of a double click or double tap: 1 → 2 → 4 → 1 (any other zoom goes back to 1). */
export const nextAutoZoom = (scale: number) => (scale === 1 ? 2 : scale === 2 ? 4 : 1);

/**
 * Zoom and pan for an image viewer: double click / double tap cycles 1-2-4, the wheel zooms by steps, one pointer
 * drags when zoomed in, two touch pointers pinch. `resetKey` changing (another file) resets the view.
 */
export function useZoom(stage: RefObject<HTMLElement | null>, content: RefObject<HTMLElement | null>, resetKey: string) {
  const [zoom, setZoom] = useState<Zoom>(IDENTITY);
  const latest = useRef(zoom);
  latest.current = zoom;
  const pointers = useRef(new Map<number, { x: number; y: number }>());
  const gesture = useRef<{ start: Zoom; dist: number; mid: { x: number; y: number }; from: { x: number; y: number }; moved: boolean } | null>(null);
  const lastTap = useRef<{ at: number; x: number; y: number } | null>(null);
  const lastTouch = useRef(0);

  useEffect(() => setZoom(IDENTITY), [resetKey]);

  const centred = useCallback(
    (clientX: number, clientY: number) => {
      const r = stage.current?.getBoundingClientRect();
      return r ? { x: clientX - r.left - r.width / 2, y: clientY - r.top - r.height / 2 } : { x: 0, y: 0 };
    },
    [stage],
  );
  const clamp = useCallback((s: number) => Math.min(Math.max(s, ZOOM_MIN), maxScale(content.current)), [content]);

  const autoZoom = useCallback(
    (clientX: number, clientY: number) => setZoom((z) => zoomAt(z, nextAutoZoom(z.scale), centred(clientX, clientY))),
    [centred],
  );

  // React's wheel listener is passive; zooming must stop the page from scrolling.
  useEffect(() => {
    const el = stage.current;
    if (!el) return;
    const onWheel = (e: WheelEvent) => {
      e.preventDefault();
      const p = centred(e.clientX, e.clientY);
      setZoom((z) => zoomAt(z, clamp(z.scale + (e.deltaY < 0 ? ZOOM_STEP : -ZOOM_STEP)), p));
    };
    el.addEventListener('wheel', onWheel, { passive: false });
    return () => el.removeEventListener('wheel', onWheel);
  }, [stage, centred, clamp]);

  const startGesture = (z: Zoom) => {
    const pts = [...pointers.current.values()];
    const a = pts[0];
    const b = pts[1];
    if (!a) return (gesture.current = null);
    const mid = b ? { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 } : a;
    gesture.current = { start: z, dist: b ? Math.hypot(a.x - b.x, a.y - b.y) : 0, mid, from: a, moved: false };
  };

  const onPointerDown = (e: ReactPointerEvent) => {
    if (e.pointerType === 'mouse' && e.button !== 0) return;
    if (e.pointerType === 'touch') lastTouch.current = Date.now();
    (e.currentTarget as HTMLElement).setPointerCapture(e.pointerId);
    pointers.current.set(e.pointerId, { x: e.clientX, y: e.clientY });
    startGesture(latest.current);
  };

  const onPointerMove = (e: ReactPointerEvent) => {
    if (!pointers.current.has(e.pointerId)) return;
    pointers.current.set(e.pointerId, { x: e.clientX, y: e.clientY });
    const g = gesture.current;
    if (!g) return;
    const pts = [...pointers.current.values()];
    if (pts.length >= 2 && g.dist > 0) {
      const [a, b] = pts as [{ x: number; y: number }, { x: number; y: number }];
      g.moved = true;
      const next = clamp((g.start.scale * Math.hypot(a.x - b.x, a.y - b.y)) / g.dist);
      setZoom(zoomAt(g.start, next, centred(g.mid.x, g.mid.y)));
      return;
    }
    const dx = e.clientX - g.from.x;
    const dy = e.clientY - g.from.y;
    if (Math.hypot(dx, dy) > TAP_SLOP_PX) g.moved = true;
    if (g.moved && g.start.scale > 1) setZoom({ ...g.start, x: g.start.x + dx, y: g.start.y + dy });
  };

  const onPointerUp = (e: ReactPointerEvent) => {
    const g = gesture.current;
    pointers.current.delete(e.pointerId);
    const wasTap = g && !g.moved && pointers.current.size === 0;
    if (e.pointerType === 'touch' && wasTap) {
      const now = Date.now();
      const prev = lastTap.current;
      if (prev && now - prev.at <= DOUBLE_TAP_MS && Math.hypot(prev.x - e.clientX, prev.y - e.clientY) < 40) {
        lastTap.current = null;
        autoZoom(e.clientX, e.clientY);
      } else lastTap.current = { at: now, x: e.clientX, y: e.clientY };
    }
    startGesture(latest.current); // a pinch that loses a finger goes on as a drag
  };

  const onDoubleClick = (e: ReactMouseEvent) => {
    if (Date.now() - lastTouch.current < 800) return; // a double tap, already handled
    autoZoom(e.clientX, e.clientY);
  };

  return {
    zoom,
    handlers: { onPointerDown, onPointerMove, onPointerUp, onPointerCancel: onPointerUp, onDoubleClick },
  };
}
