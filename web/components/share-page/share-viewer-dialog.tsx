import { useEffect, useRef } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import type { Resource } from '../../../server/contract/resource';
import { publicDownloadUrl } from '../../api/public';
import { Icon } from '../ui/icon';
import { useModalLayer } from './use-modal-layer';
import { ShareFileView } from './share-file-view';

interface Props {
  hash: string;
  path: string;
  item: Resource;
  token?: string;
  subtitles: readonly string[];
  onClose: () => void;
}

/** A file of a shared folder opened over the page (not an image: those open in the slideshow). Esc closes. */
export function ShareViewerDialog({ hash, path, item, token, subtitles, onClose }: Props) {
  const { t } = useTranslation();
  const closeRef = useRef<HTMLButtonElement>(null);
  const latest = useRef(onClose);
  latest.current = onClose;
  useModalLayer();
  useEffect(() => {
    const back = document.activeElement as HTMLElement | null;
    closeRef.current?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      e.preventDefault();
      latest.current();
    };
    window.addEventListener('keydown', onKey);
    return () => {
      window.removeEventListener('keydown', onKey);
      back?.focus?.();
    };
  }, []);
  return createPortal(
    <div className="share-dialog" role="dialog" aria-modal="true" aria-label={item.name} data-testid="share-viewer-dialog" onClick={(e) => e.target === e.currentTarget && onClose()}>
      <div className="share-dialog__panel">
        <div className="share-dialog__bar">
          <span className="share-dialog__name" title={item.name}><bdi>{item.name}</bdi></span>
          <a className="share-icon-btn" href={publicDownloadUrl(hash, path, { token })} download aria-label={t('share.downloadItem', { name: item.name })}>
            <Icon name="download" />
          </a>
          <button ref={closeRef} type="button" className="share-icon-btn" onClick={onClose} aria-label={t('sharePage.viewer.close')} data-testid="share-viewer-close">
            <Icon name="close" />
          </button>
        </div>
        <div className="share-dialog__body">
          <ShareFileView hash={hash} path={path} item={item} token={token} subtitles={subtitles} />
        </div>
      </div>
    </div>,
    document.body,
  );
}
