import type { KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { clearListingFilter, setListingFilter } from '../../state/listing-filter.state';
import { formatCount } from '../ui/format';
import { Icon } from '../ui/icon';

export interface ListingToolbarProps {
  /** The folder's path: the filter belongs to it. */
  folder: string;
  filter: string;
  total: number;
  shown: number;
  /** The folder is still arriving (a big one is parsed in batches). */
  partial: boolean;
}

/** Above the listing: how many items the folder has ("1,234 items", or "12 of 1,234 items" when filtered) and the filter box. */
export function ListingToolbar({ folder, filter, total, shown, partial }: ListingToolbarProps) {
  const { t, i18n } = useTranslation();
  const lng = i18n.language;
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    // Esc empties the box first; with nothing left to clear it goes on to the page (clearing the selection).
    if (e.key === 'Escape' && filter) {
      e.preventDefault();
      e.stopPropagation();
      clearListingFilter();
    }
  };
  const count = filter
    ? t('files.itemCountFiltered', { count: total, shown: formatCount(shown, lng), total: formatCount(total, lng) })
    : t('files.itemCount', { count: total, shown: formatCount(total, lng) });
  return (
    <div className="listing-toolbar">
      <p className="listing-toolbar__count" role="status" aria-live="polite" data-testid="item-count" data-count={shown}>
        {count}
        {partial && <span className="listing-toolbar__loading"> · {t('files.loading')}</span>}
      </p>
      <label className="listing-toolbar__filter">
        <Icon name="search" className="listing-toolbar__icon" />
        <input
          type="search"
          className="listing-toolbar__input"
          value={filter}
          placeholder={t('files.filter')}
          aria-label={t('files.filter')}
          data-testid="listing-filter"
          autoComplete="off"
          spellCheck={false}
          onChange={(e) => setListingFilter(folder, e.target.value)}
          onKeyDown={onKeyDown}
        />
      </label>
    </div>
  );
}
