import type { UIEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { Link } from 'wouter';
import type { SearchHit } from '../../api/search';
import { encodePath } from '../../api/resources';
import { closeSearch, searchState, showMoreResults } from '../../state/search.state';
import { ViewerIcon } from '../preview/viewer-icons';

/** Another page of results is shown when the list is scrolled this close to its end (spec §9). */
const MORE_WITHIN_PX = 100;

/** The in-app URL of a hit: per-segment encoding, a trailing slash for folders. */
export function hitUrl(basePath: string, hit: SearchHit): string {
  const base = encodePath(basePath.replace(/\/+$/, ''));
  return `/files${base}/${encodePath(hit.path)}${hit.dir ? '/' : ''}`;
}

/** Results as they stream in: 50 at first, 50 more each time the list is scrolled near its end. */
export function SearchResults() {
  const { t } = useTranslation();
  const snap = useSnapshot(searchState);
  const shown = snap.hits.slice(0, snap.shown);

  const onScroll = (e: UIEvent<HTMLElement>) => {
    const el = e.currentTarget;
    if (el.scrollHeight - el.scrollTop - el.clientHeight <= MORE_WITHIN_PX) showMoreResults();
  };

  let status: string | null = null;
  if (snap.error) status = t('search.failed', { message: snap.error });
  else if (snap.searching && snap.received === 0) status = t('search.searching');
  else if (snap.searched && !snap.searching && snap.received === 0) status = t('search.noResults');

  return (
    <div className="search__results" onScroll={onScroll} data-testid="search-results">
      {snap.received > 0 && (
        <p className="search__count" role="status" data-testid="search-count">
          {t('search.results', { count: snap.received })}
          {snap.searching && <span className="search__spinner" aria-label={t('search.searching')} />}
        </p>
      )}
      {status && (
        <p className={snap.error ? 'search__status is-error' : 'search__status'} role="status" data-testid="search-status">
          {status}
        </p>
      )}
      {shown.length > 0 && (
        <ul className="search__list">
          {shown.map((hit) => (
            <li key={hit.path}>
              <Link href={hitUrl(snap.basePath, hit)} className="search__hit" data-testid="search-hit" data-path={hit.path} data-dir={hit.dir} onClick={closeSearch}>
                <ViewerIcon name={hit.dir ? 'folder' : 'file'} className={hit.dir ? 'search__icon is-dir' : 'search__icon'} />
                <span className="search__path">{hit.path}</span>
                <span className="search__kind">{t(hit.dir ? 'search.folder' : 'search.file')}</span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
