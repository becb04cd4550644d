import { useEffect, useLayoutEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { useLocation } from 'wouter';
import { closeSearch, moveActive, searchInputReady, searchNow, searchState, searchType, setSearchQuery } from '../../state/search.state';
import { formatPercent } from '../ui/format';
import { ViewerIcon, type ViewerIconName } from '../preview/viewer-icons';
import { hitId, hitUrl, SearchResults } from './search-results';

/** The type shortcuts; each puts `type:<name>` in the query (spec §2 Search). */
const TYPES: { type: string; icon: ViewerIconName; label: 'search.images' | 'search.music' | 'search.video' | 'search.pdf' }[] = [
  { type: 'image', icon: 'image', label: 'search.images' },
  { type: 'audio', icon: 'music', label: 'search.music' },
  { type: 'video', icon: 'video', label: 'search.video' },
  { type: 'pdf', icon: 'pdf', label: 'search.pdf' },
];

/**
 * The search overlay's dialog (a combobox: the input keeps focus, ↑/↓ choose a result, Enter opens it or searches
 * now, Esc closes). Rendered in the main bundle so the input exists in the first frame after Ctrl+F.
 */
export function SearchDialog() {
  const { t, i18n } = useTranslation();
  const { query, basePath, received, searched, active, building, hits } = useSnapshot(searchState);
  const input = useRef<HTMLInputElement>(null);
  const [, navigate] = useLocation();

  // Layout effect: focus before the browser paints, then hand over from the window-level key catcher.
  useLayoutEffect(() => {
    const el = input.current;
    if (!el) return;
    el.focus();
    if (searchInputReady()) el.setSelectionRange(el.value.length, el.value.length);
    else el.select();
  }, []);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      e.preventDefault();
      e.stopPropagation();
      closeSearch();
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, []);

  const onKeyDown = (e: React.KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      moveActive(e.key === 'ArrowDown' ? 1 : -1);
    }
  };

  const chosen = active >= 0 ? hits[active] : undefined;
  return (
    <div className="search__backdrop" onMouseDown={(e) => e.target === e.currentTarget && closeSearch()}>
      <div className="search" role="dialog" aria-modal="true" aria-label={t('search.title')} data-testid="search-overlay">
        <form
          className="search__bar"
          role="search"
          onSubmit={(e) => {
            e.preventDefault();
            if (chosen) {
              closeSearch();
              navigate(hitUrl(basePath, chosen));
            } else void searchNow();
          }}
        >
          <ViewerIcon name="search" className="search__bar-icon" />
          <input
            ref={input}
            className="search__input"
            type="search"
            name="query"
            dir="auto"
            value={query}
            placeholder={t('search.placeholder')}
            aria-label={t('search.title')}
            role="combobox"
            aria-expanded={received > 0}
            aria-controls="search-listbox"
            aria-autocomplete="list"
            aria-activedescendant={chosen ? hitId(active) : undefined}
            autoComplete="off"
            spellCheck={false}
            data-testid="search-input"
            onChange={(e) => setSearchQuery(e.target.value)}
            onKeyDown={onKeyDown}
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
        {building !== null && (
          <p className="search__building" role="status" data-testid="search-building">
            {t('search.indexBuilding', { percent: formatPercent(building, i18n.language) })}
          </p>
        )}
        {!searched && received === 0 && <p className="search__hint">{t('search.hintTyping')}</p>}
        {received > 0 && <p className="search__hint search__keys">{t('search.choose')}</p>}
        <SearchResults />
      </div>
    </div>
  );
}
