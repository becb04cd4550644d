import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { useLocation } from 'wouter';
import type { Resource } from '../../../server/contract/resource';
import { publicDownloadUrl } from '../../api/public';
import { AppLayout } from '../../components/layout/app-layout';
import { usePageTitle } from '../../components/layout/use-page-title';
import { DownloadBox } from '../../components/share-page/download-box';
import { ImagePreview } from '../../components/share-page/image-preview';
import { ShareItemList } from '../../components/share-page/item-list';
import { SharePasswordCard } from '../../components/share-page/password-card';
import { ShareBreadcrumbs } from '../../components/share-page/share-breadcrumbs';
import { ErrorState } from '../../components/ui/error-state';
import { clearSelection, closeShare, openShare, publicShare } from '../../state/public-share.state';
import { currentSharePath } from './share-path';
import '../../styles/share-page.css';

/** The public share page (/share/{hash}/{path}): no login needed; a password card when the share asks for one. */
export function ShareScreen() {
  const { t } = useTranslation();
  useLocation(); // re-render on navigation; the path itself is read raw
  const { hash, path } = currentSharePath();
  const snap = useSnapshot(publicShare);
  const [preview, setPreview] = useState<Resource | null>(null);

  useEffect(() => {
    setPreview(null);
    void openShare(hash, path);
  }, [hash, path]);
  useEffect(() => closeShare, []);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      if (preview) setPreview(null);
      else clearSelection();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [preview]);

  const here = snap.hash === hash && snap.path === path;
  const res = here ? snap.resource : null;
  const segments = path.split('/').filter(Boolean);
  const name = res ? (res.isDir ? (segments[segments.length - 1] ?? res.name) : res.name) : '';
  const title = name || t('routes.share');
  usePageTitle(title);

  let body;
  if (here && snap.needsPassword) body = <SharePasswordCard />;
  else if (here && snap.error) body = <ErrorState status={snap.error.status} />;
  else if (!res) body = <p className="status-text" role="status">{t('share.loading')}</p>;
  else {
    const resource = { ...res, name };
    body = (
      <div className="share-page">
        {res.isDir && <ShareBreadcrumbs hash={hash} path={path} rootName={res.name} />}
        <div className={res.isDir ? 'share-page__grid' : 'share-page__single'}>
          <DownloadBox hash={hash} path={path} resource={resource} selected={snap.selected} />
          {res.isDir && (
            <ShareItemList
              hash={hash} path={path} items={res.items ?? []} token={res.token} selected={snap.selected} shown={snap.shown}
              onPreview={(item) => setPreview(item)}
            />
          )}
        </div>
        {preview && (
          <ImagePreview
            name={preview.name}
            src={publicDownloadUrl(hash, `${path.replace(/\/$/, '')}/${preview.name}`, { token: res.token, inline: true })}
            downloadUrl={publicDownloadUrl(hash, `${path.replace(/\/$/, '')}/${preview.name}`, { token: res.token })}
            onClose={() => setPreview(null)}
          />
        )}
      </div>
    );
  }

  return <AppLayout title={title}>{body}</AppLayout>;
}
