import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { closeSearch, runSearch, searchState, searchType, setSearchQuery } from '../../state/search.state';
import { ViewerIcon, type ViewerIconName } from '../preview/viewer-icons';
import { SearchResults } from './search-results';

/** The type shortcuts; each puts `type:<name>` in the query (spec §2 Search). */
const TYPES: { type: string; icon: ViewerIconName; label: 'search.images' | 'search.music' | 'search.video' | 'search.pdf' }[] = [
  { type: 'image', icon: 'image', label: 'search.images' },
  { type: 'audio', icon: 'music', label: 'search.music' },
  { type: 'video', icon: 'video', label: 'search.video' },
  { type: 'pdf', icon: 'pdf', label: 'search.pdf' },
];

/** The search overlay's dialog: loaded the first time search opens. */
export function SearchDialog() {
  const { t } = useTranslation();
  const { query, basePath, received, searched } = useSnapshot(searchState);
  const input = useRef<HTMLInputElement>(null);

  useEffect(() => {
    input.current?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      e.preventDefault();
      e.stopPropagation();
      closeSearch();
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, []);

  return (
    <div className="search__backdrop" onMouseDown={(e) => e.target === e.currentTarget && closeSearch()}>
      <div className="search" role="dialog" aria-modal="true" aria-label={t('search.title')} data-testid="search-overlay">
        <form
          className="search__bar"
          role="search"
          onSubmit={(e) => {
            e.preventDefault();
            void runSearch();
          }}
        >
          <ViewerIcon name="search" className="search__bar-icon" />
          <input
            ref={input}
            className="search__input"
            type="search"
            name="query"
            value={query}
            placeholder={t('search.placeholder')}
            aria-label={t('search.title')}
            autoComplete="off"
            spellCheck={false}
            data-testid="search-input"
            onChange={(e) => setSearchQuery(e.target.value)}
          />
          <button type="button" className="viewer-action" aria-label={t('search.close')} title={t('search.close')} data-testid="search-close" onClick={closeSearch}>
            <ViewerIcon name="close" />
          </button>
        </form>
        <p className="search__scope" title={basePath}>
          {t('search.inFolder', { path: basePath })}
        </p>
        <div className="search__types" role="group" aria-label={t('search.types')}>
          {TYPES.map(({ type, icon, label }) => (
            <button key={type} type="button" className="search__type" data-testid={`search-type-${type}`} aria-pressed={query.includes(`type:${type}`)} onClick={() => void searchType(type)}>
              <ViewerIcon name={icon} />
              {t(label)}
            </button>
          ))}
        </div>
        {!searched && received === 0 && <p className="search__hint">{t('search.hint')}</p>}
        <SearchResults />
      </div>
    </div>
  );
}
