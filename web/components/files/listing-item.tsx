import { memo, useState, type DragEvent, type KeyboardEvent, type MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { thumbnailUrl, type WebResource } from '../../api/resources';
import { matchesAny, SHORTCUTS } from '../../actions/shortcuts';
import { formatExact, formatRelative, formatSize } from '../ui/format';
import { fileKind, hasThumbnail, kindIcon } from '../ui/file-kind';
import { Icon } from '../ui/icon';

export interface ItemHandlers {
  onClick(index: number, e: MouseEvent | KeyboardEvent): void;
  onOpen(item: WebResource): void;
  onDragStart(index: number, e: DragEvent): void;
}

export interface ListingItemProps {
  item: WebResource;
  selected: boolean;
  /** The list's one Tab stop (roving tabindex); the other items are reached with the arrow keys. */
  tabStop: boolean;
  cut: boolean;
  dropTarget: boolean;
  draggable: boolean;
  thumbs: boolean;
  exactDates: boolean;
  handlers: ItemHandlers;
}

/** A thumbnail, fetched lazily by the browser once the item scrolls near the view; the icon if it fails. */
function Thumb({ item }: { item: WebResource }) {
  const [failed, setFailed] = useState(false);
  if (failed) return <Icon name={kindIcon(item.name, item.type)} className="item__icon" />;
  return <img className="item__thumb" src={thumbnailUrl(item)} alt="" loading="lazy" decoding="async" draggable={false} onError={() => setFailed(true)} />;
}

/** One file or folder of the listing (list row, mosaic tile or gallery card, by CSS). */
export const ListingItem = memo(function ListingItem({ item, selected, tabStop, cut, dropTarget, draggable, thumbs, exactDates, handlers }: ListingItemProps) {
  const { t, i18n } = useTranslation();
  const lng = i18n.language;
  const cls = ['item', selected && 'is-selected', cut && 'is-cut', dropTarget && 'is-drop-target', item.isDir && 'is-dir'].filter(Boolean).join(' ');
  const onKeyDown = (e: KeyboardEvent) => {
    const bare = { ctrlKey: false, metaKey: false, shiftKey: false, altKey: e.altKey };
    if (matchesAny(SHORTCUTS.open, e)) {
      e.preventDefault();
      handlers.onOpen(item);
    } else if (matchesAny(SHORTCUTS.toggle, { ...bare, key: e.key })) {
      // Ctrl+Space and Shift+Space toggle too (adding, extending): the click handler reads the modifiers.
      e.preventDefault();
      handlers.onClick(item.index, e);
    }
  };
  const exact = formatExact(item.modified, lng);
  return (
    <div
      className={cls}
      role="option"
      aria-selected={selected}
      tabIndex={tabStop ? 0 : -1}
      data-testid="item"
      data-name={item.name}
      data-dir={item.isDir ? 'true' : 'false'}
      data-kind={fileKind(item.name, item.type, item.isDir)}
      data-index={item.index}
      draggable={draggable}
      onClick={(e) => handlers.onClick(item.index, e)}
      onDoubleClick={() => handlers.onOpen(item)}
      onKeyDown={onKeyDown}
      onDragStart={(e) => handlers.onDragStart(item.index, e)}
    >
      <div className="item__visual">
        {thumbs && !item.isDir && hasThumbnail(item.type, item.name) ? (
          <Thumb item={item} />
        ) : (
          <Icon name={kindIcon(item.name, item.type, item.isDir)} className={item.isDir ? 'item__icon is-dir' : 'item__icon'} />
        )}
      </div>
      <div className="item__info">
        <p className="item__name" title={item.name}>
          {item.name}
          {cut && <span className="sr-only"> ({t('files.cut')})</span>}
        </p>
        <p className="item__size">{item.isDir ? (item.folderSize !== undefined ? formatSize(item.folderSize, lng) : '—') : item.type === 'invalid_link' ? t('files.invalidLink') : formatSize(item.size, lng)}</p>
        <p className="item__modified">
          <time dateTime={item.modified} title={exact}>
            {exactDates ? exact : formatRelative(item.modified, lng)}
          </time>
        </p>
      </div>
    </div>
  );
});
