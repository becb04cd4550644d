import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { Icon } from '../ui/icon';

/** At most this many trailing folders are shown; the leading ones collapse into '...' (spec §9). */
const MAX_LEVELS = 3;

interface Crumb {
  name: string;
  url: string;
}

/** The links from /files down to `path` (decoded): "/a/b/c/d" shows "… / b / c / d". */
export function crumbsOf(path: string): { crumbs: Crumb[]; collapsed: Crumb | null } {
  const parts = path.split('/').filter(Boolean);
  let url = '/files/';
  const all = parts.map((name) => {
    url += `${encodeURIComponent(name)}/`;
    return { name, url };
  });
  if (all.length <= MAX_LEVELS) return { crumbs: all, collapsed: null };
  const cut = all.length - MAX_LEVELS;
  return { crumbs: all.slice(cut), collapsed: all[cut - 1] ?? null };
}

/** Breadcrumbs starting at the user's root (/files). */
export function Breadcrumbs({ path }: { path: string }) {
  const { t } = useTranslation();
  const { crumbs, collapsed } = crumbsOf(path);
  return (
    <nav className="breadcrumbs" aria-label={t('files.breadcrumbs')} data-testid="breadcrumbs">
      <Link href="/files/" className="breadcrumbs__item breadcrumbs__home" aria-label={t('files.home')} title={t('files.home')} data-testid="crumb-home">
        <Icon name="home" />
      </Link>
      {collapsed && (
        <>
          <Icon name="chevronRight" className="breadcrumbs__sep" />
          <Link href={collapsed.url} className="breadcrumbs__item" title={collapsed.name} data-testid="crumb-collapsed">
            {t('files.collapsed')}
          </Link>
        </>
      )}
      {crumbs.map((c, i) => (
        <span key={c.url} className="breadcrumbs__part">
          <Icon name="chevronRight" className="breadcrumbs__sep" />
          <Link href={c.url} className="breadcrumbs__item" aria-current={i === crumbs.length - 1 ? 'page' : undefined} data-testid="crumb">
            {c.name}
          </Link>
        </span>
      ))}
    </nav>
  );
}
