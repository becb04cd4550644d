import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { ExtraIcon } from './icons';

/** A shared image shown over the page (loaded inline from the public download link). Esc or a backdrop click closes. */
export function ImagePreview({ name, src, downloadUrl, onClose }: { name: string; src: string; downloadUrl: string; onClose: () => void }) {
  const { t } = useTranslation();
  const closeRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    closeRef.current?.focus();
  }, []);

  return (
    <div className="share-preview" role="dialog" aria-modal="true" aria-label={name} data-testid="share-preview" onClick={(e) => e.target === e.currentTarget && onClose()}>
      <div className="share-preview__bar">
        <span className="share-preview__name" title={name}>{name}</span>
        <a className="share-icon-btn share-icon-btn--on-dark" href={downloadUrl} download aria-label={t('share.downloadItem', { name })}>
          <ExtraIcon name="download" />
        </a>
        <button ref={closeRef} type="button" className="share-icon-btn share-icon-btn--on-dark" onClick={onClose} aria-label={t('share.closePreview')} data-testid="share-preview-close">
          <ExtraIcon name="close" />
        </button>
      </div>
      <img className="share-preview__image" src={src} alt={name} data-testid="share-preview-image" />
    </div>
  );
}
