import { useEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { useSwipe } from '../preview/use-swipe';
import { ZoomSurface } from '../preview/zoom-surface';
import { Icon } from '../ui/icon';
import { useModalLayer } from './use-modal-layer';
import '../../styles/preview.css';

export interface SlideImage {
  name: string;
  src: string;
  /** The image itself, shown when `src` (a resized preview) cannot be made. */
  original: string;
  downloadUrl: string;
}

/** Seconds a slide stays while the show plays; the visitor picks one. */
export const SLIDE_INTERVALS = [3, 5, 10] as const;

/** Keys belong to the page unless a field, a select or a modifier has them. */
const ownKey = (e: KeyboardEvent) => {
  const el = e.target instanceof HTMLElement ? e.target : null;
  return !(e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || (el && /^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName)));
};

const PlayIcon = ({ playing }: { playing: boolean }) => (
  <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" fill="currentColor">
    {playing ? <path d="M7 5h4v14H7zM13 5h4v14h-4z" /> : <path d="M8 5v14l11-7z" />}
  </svg>
);

/**
 * The gallery's slideshow over a shared folder's images: previous/next (buttons, arrow keys mirrored in
 * right-to-left text, swipes), play/pause with an interval, zoom, download, Esc closes and gives focus back.
 */
export function ShareSlideshow({ images, start, onClose }: { images: readonly SlideImage[]; start: number; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const [index, setIndex] = useState(start);
  const [playing, setPlaying] = useState(false);
  const [interval, setIntervalSecs] = useState<number>(SLIDE_INTERVALS[1]);
  const closeRef = useRef<HTMLButtonElement>(null);
  // First: on close its cleanup wakes the page before focus goes back to it.
  useModalLayer();
  const count = images.length;
  const go = (delta: number) => setIndex((i) => (i + delta + count) % count);
  const latest = useRef({ go, onClose });
  latest.current = { go, onClose };

  useEffect(() => {
    const back = document.activeElement as HTMLElement | null;
    closeRef.current?.focus();
    return () => back?.focus?.();
  }, []);
  useEffect(() => {
    if (!playing || count < 2) return;
    const id = window.setInterval(() => latest.current.go(1), interval * 1000);
    return () => window.clearInterval(id);
  }, [playing, interval, count]);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!ownKey(e)) return;
      const rtl = document.documentElement.dir === 'rtl';
      if (e.key === 'Escape') latest.current.onClose();
      else if (e.key === 'ArrowRight') latest.current.go(rtl ? -1 : 1);
      else if (e.key === 'ArrowLeft') latest.current.go(rtl ? 1 : -1);
      else if (e.key === ' ' && !(e.target instanceof HTMLButtonElement)) setPlaying((p) => !p);
      else return;
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  const swipe = useSwipe((to) => go(to === 'next' ? 1 : -1));
  // The next picture is fetched while this one shows, so stepping (and the show) does not wait for it.
  const upcoming = images[(index + 1) % count]?.src;
  useEffect(() => {
    if (upcoming && count > 1) new Image().src = upcoming;
  }, [upcoming, count]);

  const image = images[index];
  if (!image) return null;
  const position = t('sharePage.gallery.position', { n: (index + 1).toLocaleString(i18n.language), total: count.toLocaleString(i18n.language) });
  return createPortal(
    <div className="share-slides" role="dialog" aria-modal="true" aria-label={t('sharePage.gallery.slideshow')} data-testid="share-slideshow" data-index={index} data-playing={playing}>
      <div className="share-slides__bar">
        <span className="share-slides__name" title={image.name} data-testid="share-slide-name"><bdi>{image.name}</bdi></span>
        <span className="share-slides__count" aria-live="polite">{position}</span>
        <div className="share-slides__tools">
          <button type="button" className="share-icon-btn share-icon-btn--on-dark" onClick={() => setPlaying((p) => !p)} aria-pressed={playing} aria-label={t(playing ? 'sharePage.gallery.pause' : 'sharePage.gallery.play')} data-testid="share-slide-play">
            <PlayIcon playing={playing} />
          </button>
          <label className="share-slides__interval">
            <span className="sr-only">{t('sharePage.gallery.interval')}</span>
            <select value={interval} onChange={(e) => setIntervalSecs(Number(e.target.value))} aria-label={t('sharePage.gallery.interval')} data-testid="share-slide-interval">
              {SLIDE_INTERVALS.map((s) => (
                <option key={s} value={s}>{t('sharePage.gallery.seconds', { n: s.toLocaleString(i18n.language) })}</option>
              ))}
            </select>
          </label>
          <a className="share-icon-btn share-icon-btn--on-dark" href={image.downloadUrl} download aria-label={t('share.downloadItem', { name: image.name })}>
            <Icon name="download" />
          </a>
          <button ref={closeRef} type="button" className="share-icon-btn share-icon-btn--on-dark" onClick={onClose} aria-label={t('sharePage.gallery.close')} data-testid="share-slide-close">
            <Icon name="close" />
          </button>
        </div>
      </div>
      <div className="share-slides__stage" {...swipe}>
        <ZoomSurface resetKey={image.src}>
          <img
            className="share-slides__image"
            src={image.src}
            alt={image.name}
            draggable={false}
            data-testid="share-slide-image"
            onError={(e) => {
              if (e.currentTarget.src !== image.original) e.currentTarget.src = image.original;
            }}
          />
        </ZoomSurface>
        {count > 1 && (
          <>
            <button type="button" className="share-slides__nav share-slides__nav--prev" onClick={() => go(-1)} aria-label={t('sharePage.gallery.previous')} data-testid="share-slide-prev">
              <Icon name="back" />
            </button>
            <button type="button" className="share-slides__nav share-slides__nav--next" onClick={() => go(1)} aria-label={t('sharePage.gallery.next')} data-testid="share-slide-next">
              <Icon name="forward" />
            </button>
          </>
        )}
      </div>
    </div>,
    document.body,
  );
}
