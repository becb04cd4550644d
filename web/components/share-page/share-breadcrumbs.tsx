import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { shareRoute } from './item-list';

/** Where the visitor is inside a shared folder: the share's root name, then each folder down to the current one. */
export function ShareBreadcrumbs({ hash, path, rootName }: { hash: string; path: string; rootName: string }) {
  const { t } = useTranslation();
  const parts = path.split('/').filter(Boolean);
  if (!parts.length) return null;
  return (
    <nav className="share-crumbs" aria-label={t('share.breadcrumbs')} data-testid="share-crumbs">
      <Link href={shareRoute(hash, '/')}>{rootName}</Link>
      {parts.map((part, i) => {
        const last = i === parts.length - 1;
        return (
          <span key={i} className="share-crumbs__part">
            <span className="share-crumbs__sep" aria-hidden="true">/</span>
            {last ? <span aria-current="page">{part}</span> : <Link href={shareRoute(hash, `/${parts.slice(0, i + 1).join('/')}`)}>{part}</Link>}
          </span>
        );
      })}
    </nav>
  );
}
