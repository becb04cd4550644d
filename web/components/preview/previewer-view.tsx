import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { useLocation } from 'wouter';
import type { WebResource } from '../../api/resources';
import { matchesAny, SHORTCUTS } from '../../actions/shortcuts';
import { closePreview, loadSiblings, previewState } from '../../state/preview.state';
import { PreviewHeader } from './preview-header';
import { PreviewMedia } from './preview-media';
import { useIdleVisible } from './use-idle-visible';
import { useSwipe } from './use-swipe';
import { ViewerIcon } from './viewer-icons';
import type { PreviewerProps } from './previewer-props';

/** Keys are left alone while typing, with a modifier held, or while a prompt (a modal dialog) is open. */
function ignoreKey(e: KeyboardEvent): boolean {
  if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return true;
  const el = e.target instanceof HTMLElement ? e.target : null;
  if (el && (el.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName))) return true;
  if (e.key === 'Enter' && el && /^(BUTTON|A|SUMMARY)$/.test(el.tagName)) return true; // Enter activates the focused control
  return !!document.querySelector('[aria-modal="true"]');
}

/** The file previewer (spec §2 Previewer): header, the media, previous/next buttons and keys. */
export function PreviewerView(props: PreviewerProps) {
  const { resource, onClose } = props;
  const { t } = useTranslation();
  const [, navigate] = useLocation();
  const { prev, next } = useSnapshot(previewState);
  const nav = useIdleVisible();
  const keys = useRef({ prev, next, onClose });
  keys.current = { prev, next, onClose };

  useEffect(() => {
    void loadSiblings(resource.path);
  }, [resource.path]);
  useEffect(() => closePreview, []);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (ignoreKey(e)) return;
      const k = keys.current;
      let target: string | null = null;
      if (matchesAny(SHORTCUTS.previewNext, e)) target = k.next;
      else if (matchesAny(SHORTCUTS.previewPrev, e)) target = k.prev;
      else if (matchesAny(SHORTCUTS.previewClose, e)) {
        e.preventDefault();
        k.onClose();
        return;
      } else return;
      e.preventDefault();
      if (target) navigate(target, { replace: true });
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [navigate]);

  const go = (url: string | null) => url && navigate(url, { replace: true });
  const swipe = useSwipe((to) => go(keys.current[to]));
  const navClass = (side: string) => `previewer__nav previewer__nav--${side}${nav.visible ? ' is-visible' : ''}`;

  return (
    <section className="previewer" aria-label={t('preview.label', { name: resource.name })} data-testid="previewer" data-type={resource.type}>
      <PreviewHeader {...props} />
      <div className="previewer__stage" onMouseMove={nav.poke} onTouchStart={nav.poke} {...swipe}>
        <PreviewMedia key={resource.path} resource={resource} />
        {prev && (
          <button
            type="button"
            className={navClass('prev')}
            aria-label={t('preview.previous')}
            title={t('preview.previous')}
            data-testid="preview-prev"
            data-visible={nav.visible}
            onClick={() => go(prev)}
            onMouseEnter={() => nav.hold(true)}
            onMouseLeave={() => nav.hold(false)}
          >
            <ViewerIcon name="back" />
          </button>
        )}
        {next && (
          <button
            type="button"
            className={navClass('next')}
            aria-label={t('preview.next')}
            title={t('preview.next')}
            data-testid="preview-next"
            data-visible={nav.visible}
            onClick={() => go(next)}
            onMouseEnter={() => nav.hold(true)}
            onMouseLeave={() => nav.hold(false)}
          >
            <ViewerIcon name="forward" />
          </button>
        )}
      </div>
    </section>
  );
}
