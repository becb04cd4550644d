import type { MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import type { Resource } from '../../../server/contract/resource';
import { publicDownloadUrl } from '../../api/public';
import { encodePath } from '../../api/resources';
import { SHARE_PAGE_STEP, selectItem, showMore } from '../../state/public-share.state';
import { Icon } from '../ui/icon';
import { formatExact, formatRelative, formatSize } from '../ui/format';
import { ExtraIcon } from './icons';
import { viewable } from './share-file-view';

/** What every view of a shared folder is given: the link, where in it, its items, and the visitor's selection. */
export interface ShareItemsProps {
  hash: string;
  /** Decoded folder path inside the share. */
  path: string;
  items: readonly Resource[];
  token?: string;
  selected: readonly string[];
  /** How many items are shown (the page grows it by SHARE_PAGE_STEP). */
  shown: number;
}

interface Props extends ShareItemsProps {
  onPreview: (item: Resource) => void;
}

/** The path of `name` in the share folder `dir`. */
export const childPath = (dir: string, name: string) => `${dir.replace(/\/$/, '')}/${name}`;

/** In-app route of a folder inside the share. */
export const shareRoute = (hash: string, path: string) =>
  `/share/${encodeURIComponent(hash)}${path === '/' ? '' : encodePath(path).replace(/\/$/, '')}/`;

/** A shared folder's items: folders open, files select (Ctrl/Cmd adds), viewable files open, files download. */
export function ShareItemList({ hash, path, items, token, selected, shown, onPreview }: Props) {
  const { t, i18n } = useTranslation();
  const visible = items.slice(0, shown);
  const rest = items.length - visible.length;

  if (!items.length) return <p className="share-list__empty" data-testid="share-empty">{t('share.empty')}</p>;

  const onRowClick = (e: MouseEvent, name: string) => {
    if ((e.target as HTMLElement).closest('a, button')) return;
    selectItem(name, e.ctrlKey || e.metaKey);
  };

  return (
    <ul className="share-list" aria-label={t('share.contents')} data-testid="share-items">
      {visible.map((item) => {
        const sub = childPath(path, item.name);
        const isSelected = selected.includes(item.name);
        const modified = new Date(item.modified);
        return (
          <li
            key={item.name}
            className={isSelected ? 'share-item is-selected' : 'share-item'}
            data-selected={isSelected}
            data-testid="share-item"
            data-name={item.name}
            onClick={(e) => onRowClick(e, item.name)}
          >
            <span className={item.isDir ? 'share-item__icon is-folder' : 'share-item__icon'} aria-hidden="true">
              <Icon name={item.isDir ? 'folder' : 'file'} />
            </span>
            {item.isDir ? (
              <Link href={shareRoute(hash, sub)} className="share-item__name" data-testid="share-item-link">{item.name}</Link>
            ) : (
              <button type="button" className="share-item__name share-item__select" onClick={(e) => selectItem(item.name, e.ctrlKey || e.metaKey)} aria-pressed={isSelected}>
                {item.name}
              </button>
            )}
            <span className="share-item__meta">
              {!item.isDir && <span>{formatSize(item.size, i18n.language)}</span>}
              <time dateTime={item.modified} title={formatExact(modified, i18n.language)}>{formatRelative(modified, i18n.language)}</time>
            </span>
            <span className="share-item__actions">
              {viewable(item) && (
                <button type="button" className="share-icon-btn" aria-label={t('share.preview', { name: item.name })} onClick={() => onPreview(item)} data-testid="share-item-preview">
                  <ExtraIcon name="eye" />
                </button>
              )}
              {!item.isDir && (
                <a className="share-icon-btn" href={publicDownloadUrl(hash, sub, { token })} download aria-label={t('share.downloadItem', { name: item.name })} data-testid="share-item-download">
                  <ExtraIcon name="download" />
                </a>
              )}
            </span>
          </li>
        );
      })}
      {rest > 0 && (
        <li className="share-item share-item--more">
          <button type="button" className="btn btn--secondary btn--block" onClick={showMore} data-testid="share-more" aria-label={t('share.showMore', { count: Math.min(rest, SHARE_PAGE_STEP) })}>
            {t('share.more', { count: rest })}
          </button>
        </li>
      )}
    </ul>
  );
}
