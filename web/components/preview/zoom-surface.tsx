import { useRef, type ReactNode } from 'react';
import { useZoom } from './use-zoom';

/**
 * The image viewer: shows an <img> or <canvas> fitted to the stage, with double click / double tap, wheel and
 * pinch zoom and drag to pan (spec §2 Image viewer). `resetKey` changing resets the zoom.
 */
export function ZoomSurface({ children, resetKey }: { children: ReactNode; resetKey: string }) {
  const stage = useRef<HTMLDivElement>(null);
  const content = useRef<HTMLDivElement>(null);
  const { zoom, handlers } = useZoom(stage, content, resetKey);
  const zoomed = zoom.scale > 1;
  return (
    <div
      ref={stage}
      className={zoomed ? 'zoom is-zoomed' : 'zoom'}
      data-testid="zoom-surface"
      data-zoom={String(zoom.scale)}
      {...handlers}
    >
      <div ref={content} className="zoom__content" style={{ transform: `translate(${zoom.x}px, ${zoom.y}px) scale(${zoom.scale})` }}>
        {children}
      </div>
    </div>
  );
}
