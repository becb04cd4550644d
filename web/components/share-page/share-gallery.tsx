import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import type { Resource } from '../../../server/contract/resource';
import { publicDownloadUrl, publicPreviewUrl } from '../../api/public';
import { selectItem, showMore } from '../../state/public-share.state';
import { Icon, type IconName } from '../ui/icon';
import { formatSize } from '../ui/format';
import { childPath, shareRoute, type ShareItemsProps } from './item-list';

interface Props extends ShareItemsProps {
  onOpen: (item: Resource) => void;
}

const ICONS: Partial<Record<string, IconName>> = { image: 'fileImage', video: 'fileVideo', audio: 'fileAudio', pdf: 'filePdf', text: 'fileText', textImmutable: 'fileText' };

/**
 * The grid view of a shared folder: images as thumbnails (the link's preview route, lazily: only tiles on screen;
 * an image the server cannot make one of falls back to the image itself), other items as large icons.
 * A tile opens its item (images in the slideshow, other files in the viewer, folders inside the share); its
 * checkbox selects it for "download selected".
 */
export function ShareGallery({ hash, path, items, token, selected, shown, onOpen }: Props) {
  const { t, i18n } = useTranslation();
  const visible = items.slice(0, shown);
  const rest = items.length - visible.length;
  if (!items.length) return <p className="share-list__empty" data-testid="share-empty">{t('share.empty')}</p>;
  return (
    <div className="share-gallery-wrap">
      <ul className="share-gallery" aria-label={t('share.contents')} data-testid="share-gallery">
        {visible.map((item) => {
          const sub = childPath(path, item.name);
          const isSelected = selected.includes(item.name);
          const face =
            item.type === 'image' ? (
              <img
                className="share-tile__thumb"
                src={publicPreviewUrl('thumb', hash, sub, item.modified, token)}
                alt=""
                loading="lazy"
                decoding="async"
                draggable={false}
                onError={(e) => {
                  const img = e.currentTarget;
                  const original = publicDownloadUrl(hash, sub, { token, inline: true });
                  if (img.src !== original) img.src = original;
                }}
              />
            ) : (
              <span className={item.isDir ? 'share-tile__icon is-folder' : 'share-tile__icon'}>
                <Icon name={item.isDir ? 'folder' : (ICONS[item.type] ?? 'file')} />
              </span>
            );
          return (
            <li key={item.name} className={isSelected ? 'share-tile is-selected' : 'share-tile'} data-testid="share-tile" data-name={item.name} data-selected={isSelected}>
              {item.isDir ? (
                <Link href={shareRoute(hash, sub)} className="share-tile__open" data-testid="share-tile-open">
                  {face}
                  <span className="share-tile__name"><bdi>{item.name}</bdi></span>
                </Link>
              ) : (
                <button type="button" className="share-tile__open" onClick={() => onOpen(item)} data-testid="share-tile-open">
                  {face}
                  <span className="share-tile__name"><bdi>{item.name}</bdi></span>
                  <span className="share-tile__meta">{formatSize(item.size, i18n.language)}</span>
                </button>
              )}
              {!item.isDir && (
                <label className="share-tile__check">
                  <input type="checkbox" checked={isSelected} onChange={() => selectItem(item.name, true)} data-testid="share-tile-check" />
                  <span className="sr-only">{t('sharePage.select', { name: item.name })}</span>
                </label>
              )}
            </li>
          );
        })}
      </ul>
      {rest > 0 && (
        <button type="button" className="btn btn--secondary btn--block" onClick={showMore} data-testid="share-more">
          {t('share.more', { count: rest })}
        </button>
      )}
    </div>
  );
}
