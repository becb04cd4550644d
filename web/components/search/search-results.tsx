import { memo, useEffect, useMemo, useRef, useState, type UIEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { Link } from 'wouter';
import { pageConfig } from '../../api/page-config';
import { hitThumbUrl, type SearchHit } from '../../api/search';
import { encodePath } from '../../api/resources';
import { auth } from '../../state/auth.state';
import { queryTerms, type QueryTerms } from '../../state/search-rank';
import { closeSearch, searchState, showMoreResults } from '../../state/search.state';
import { kindIcon } from '../ui/file-kind';
import { Icon } from '../ui/icon';
import { Highlighted } from './highlighted';

/** Another page of results is shown when the list is scrolled this close to its end (spec §9). */
const MORE_WITHIN_PX = 100;
/** Names the server makes image thumbnails for (the hit carries no type; the name decides). */
const IMAGE = /\.(jpe?g|png|gif|webp|bmp|avif|heic|heif|tiff?)$/i;

/** The in-app URL of a hit: per-segment encoding, a trailing slash for folders. */
export function hitUrl(basePath: string, hit: SearchHit): string {
  const base = encodePath(basePath.replace(/\/+$/, ''));
  return `/files${base}/${encodePath(hit.path)}${hit.dir ? '/' : ''}`;
}

/** The DOM id of the n-th result (aria-activedescendant of the input). */
export const hitId = (n: number) => `search-hit-${n}`;

/** A found image's thumbnail, falling back to the type icon when the server has none. */
function HitIcon({ hit, path, thumbs }: { hit: SearchHit; path: string; thumbs: boolean }) {
  const [failed, setFailed] = useState(false);
  const name = hit.path.slice(hit.path.lastIndexOf('/') + 1);
  if (thumbs && !hit.dir && !failed && IMAGE.test(name)) {
    return <img className="search__thumb" src={hitThumbUrl(path)} alt="" loading="lazy" decoding="async" data-testid="search-thumb" onError={() => setFailed(true)} />;
  }
  return <Icon name={hit.dir ? 'folder' : IMAGE.test(name) ? 'fileImage' : kindIcon(name)} className={hit.dir ? 'search__icon is-dir' : 'search__icon'} />;
}

/**
 * One result. Memoised, with props that stay the same objects while the results stream in (the hit itself, the
 * query's terms, the kind's label): a new batch re-renders the rows that changed, not all that are shown.
 */
const HitRow = memo(function HitRow({ hit, n, active, basePath, terms, thumbs, kind }: { hit: SearchHit; n: number; active: boolean; basePath: string; terms: QueryTerms; thumbs: boolean; kind: string }) {
  const cut = hit.path.lastIndexOf('/');
  const name = hit.path.slice(cut + 1);
  const folder = cut > 0 ? hit.path.slice(0, cut) : '';
  return (
    // The link itself is the option: an option may not hold an interactive control (axe nested-interactive).
    <li role="none">
      <Link href={hitUrl(basePath, hit)} id={hitId(n)} role="option" aria-selected={active} className={active ? 'search__hit is-active' : 'search__hit'} tabIndex={-1} data-testid="search-hit" data-path={hit.path} data-dir={hit.dir} onClick={closeSearch}>
        <HitIcon hit={hit} path={basePath.replace(/\/?$/, '/') + hit.path} thumbs={thumbs} />
        <span className="search__text">
          <bdi className="search__name" data-testid="search-hit-name">
            <Highlighted text={name} terms={terms} />
          </bdi>
          {folder && (
            <bdi className="search__folder">
              <Highlighted text={folder} terms={terms} />
            </bdi>
          )}
        </span>
        <span className="search__kind">{kind}</span>
      </Link>
    </li>
  );
});

/** Results as they stream in, best match first: 50 at first, 50 more each time the list is scrolled near its end. */
export function SearchResults() {
  const { t } = useTranslation();
  const snap = useSnapshot(searchState);
  const { user } = useSnapshot(auth);
  const list = useRef<HTMLUListElement>(null);
  const box = useRef<HTMLDivElement>(null);
  /** Where ↑/↓ last scrolled the list to: that scroll is not the user scrolling toward more results. */
  const keyedTop = useRef<number | null>(null);
  // The state holds the best `shown` hits only (search.state.ts showHead).
  const shown = snap.hits;
  const terms = useMemo(() => queryTerms(snap.ranQuery), [snap.ranQuery]);
  const thumbs = pageConfig.EnableThumbs && !!user?.perm.download;

  useEffect(() => {
    if (snap.active < 0) return;
    document.getElementById(hitId(snap.active))?.scrollIntoView({ block: 'nearest' });
    keyedTop.current = box.current?.scrollTop ?? null;
  }, [snap.active]);

  // More results when the user scrolls near the end. ↑ from the input to the last result shown scrolls there too,
  // and must not add 50 more (↓ past it does, through moveActive): a scroll event at the position ↑/↓ left is theirs.
  const onScroll = (e: UIEvent<HTMLElement>) => {
    const el = e.currentTarget;
    if (el.scrollTop === keyedTop.current) return;
    keyedTop.current = null;
    if (el.scrollHeight - el.scrollTop - el.clientHeight <= MORE_WITHIN_PX) showMoreResults();
  };

  let status: string | null = null;
  if (snap.error) status = t('search.failed', { message: snap.error });
  else if (snap.searching && snap.received === 0) status = t('search.searching');
  else if (snap.searched && !snap.searching && snap.received === 0) status = t('search.noResults');

  return (
    // data-query: the query these results answer (typing runs a search per pause: a result shown may be a prefix's).
    <div className="search__results" onScroll={onScroll} ref={box} data-testid="search-results" data-query={snap.ranQuery}>
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
        <ul className="search__list" id="search-listbox" role="listbox" aria-label={t('search.title')} ref={list}>
          {shown.map((hit, n) => (
            <HitRow key={hit.path} hit={hit} n={n} active={n === snap.active} basePath={snap.basePath} terms={terms} thumbs={thumbs} kind={t(hit.dir ? 'search.folder' : 'search.file')} />
          ))}
        </ul>
      )}
    </div>
  );
}
