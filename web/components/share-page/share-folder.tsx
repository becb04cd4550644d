import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Resource } from '../../../server/contract/resource';
import { pageConfig } from '../../api/page-config';
import { publicDownloadUrl, publicPreviewUrl } from '../../api/public';
import { Icon } from '../ui/icon';
import { childPath, ShareItemList, type ShareItemsProps } from './item-list';
import { ShareGallery } from './share-gallery';
import { subtitlesFor } from './share-file-view';
import { ShareSlideshow } from './share-slideshow';
import { ShareViewerDialog } from './share-viewer-dialog';

interface Props extends ShareItemsProps {
  /** Tells the page whether something is open over it (its own Esc then waits). */
  onOpenChange: (open: boolean) => void;
}

type View = 'list' | 'grid';

/**
 * A shared folder's contents: a list or a grid (the grid first when most items are images), a slideshow over its
 * images, and the inline viewer for its other files.
 */
export function ShareFolder({ hash, path, items, token, selected, shown, onOpenChange }: Props) {
  const { t } = useTranslation();
  const images = useMemo(() => items.filter((i) => !i.isDir && i.type === 'image'), [items]);
  // A folder that is mostly pictures opens as a grid of thumbnails; the visitor can switch either way.
  const pictures = images.length * 2 > items.length;
  const [view, setView] = useState<View>(pictures ? 'grid' : 'list');
  const [open, setOpen] = useState<Resource | null>(null);
  useEffect(() => {
    setOpen(null);
    setView(pictures ? 'grid' : 'list');
  }, [hash, path, pictures]);
  useEffect(() => onOpenChange(open !== null), [open, onOpenChange]);

  const slides = useMemo(
    () =>
      images.map((i) => {
        const sub = childPath(path, i.name);
        // The big preview where the signed-in viewer uses it (ResizePreview); the slideshow falls back to the original.
        const original = publicDownloadUrl(hash, sub, { token, inline: true });
        return { name: i.name, src: pageConfig.ResizePreview ? publicPreviewUrl('big', hash, sub, i.modified, token) : original, original, downloadUrl: publicDownloadUrl(hash, sub, { token }) };
      }),
    [images, hash, path, token],
  );
  const close = () => setOpen(null);
  const common = { hash, path, items, token, selected, shown };

  return (
    <div className="share-folder" data-testid="share-folder" data-view={view}>
      <div className="share-folder__bar" role="toolbar" aria-label={t('sharePage.view.label')}>
        {images.length > 0 && (
          <button type="button" className="btn btn--secondary" onClick={() => setOpen(images[0]!)} data-testid="share-slideshow-start">
            <Icon name="viewGallery" />
            <span>{t('sharePage.gallery.start')}</span>
          </button>
        )}
        <div className="share-folder__views">
          {(['list', 'grid'] as const).map((v) => (
            <button
              key={v}
              type="button"
              className={view === v ? 'share-icon-btn is-active' : 'share-icon-btn'}
              aria-pressed={view === v}
              aria-label={t(v === 'list' ? 'sharePage.view.list' : 'sharePage.view.grid')}
              title={t(v === 'list' ? 'sharePage.view.list' : 'sharePage.view.grid')}
              onClick={() => setView(v)}
              data-testid={`share-view-${v}`}
            >
              <Icon name={v === 'list' ? 'viewList' : 'viewMosaic'} />
            </button>
          ))}
        </div>
      </div>
      {view === 'grid' ? <ShareGallery {...common} onOpen={setOpen} /> : <ShareItemList {...common} onPreview={setOpen} />}
      {open?.type === 'image' && <ShareSlideshow images={slides} start={Math.max(0, images.findIndex((i) => i.name === open.name))} onClose={close} />}
      {open && open.type !== 'image' && (
        <ShareViewerDialog
          hash={hash} path={childPath(path, open.name)} item={open} token={token}
          subtitles={subtitlesFor(open.name, items).map((n) => childPath(path, n))} onClose={close}
        />
      )}
    </div>
  );
}
