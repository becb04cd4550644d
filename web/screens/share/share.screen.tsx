import { useCallback, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { useLocation } from 'wouter';
import { shareMode, type PublicResource } from '../../api/public';
import { usePageTitle } from '../../components/layout/use-page-title';
import { DownloadBox } from '../../components/share-page/download-box';
import { SharePasswordCard } from '../../components/share-page/password-card';
import { ShareBreadcrumbs } from '../../components/share-page/share-breadcrumbs';
import { ShareFileView, viewable } from '../../components/share-page/share-file-view';
import { ShareFolder } from '../../components/share-page/share-folder';
import { ShareLayout } from '../../components/share-page/share-layout';
import { ShareStatus } from '../../components/share-page/share-status';
import { ShareUploads } from '../../components/share-page/share-uploads';
import { clearSelection, closeShare, openShare, publicShare } from '../../state/public-share.state';
import { currentSharePath } from './share-path';
import '../../styles/share-page.css';
import '../../styles/share-visitor.css';

/** What a link shows: a file (box and inline viewer), a folder (box and contents), a file request, or both. */
function ShareBody({ hash, path, res, name, onOverlay }: { hash: string; path: string; res: PublicResource; name: string; onOverlay: (open: boolean) => void }) {
  const snap = useSnapshot(publicShare);
  const mode = shareMode(res);
  const uploads = mode !== 'view' && res.isDir ? <ShareUploads hash={hash} path={path} res={res} /> : null;
  // A file request without viewing shows nothing of what is there: no names, no sizes, no counts.
  if (mode === 'upload') return <div className="share-page share-page--upload">{uploads}</div>;
  const resource = { ...res, name };
  // A file with a view sits beside its box (below it on a phone); any other file is the box alone.
  if (!res.isDir)
    return viewable(res) ? (
      <div className="share-page share-page__grid share-page--file">
        <DownloadBox hash={hash} path={path} resource={resource} selected={[]} />
        <ShareFileView hash={hash} path={path} item={resource} token={res.token} />
      </div>
    ) : (
      <div className="share-page share-page__single">
        <DownloadBox hash={hash} path={path} resource={resource} selected={[]} />
      </div>
    );
  return (
    <div className="share-page">
      <ShareBreadcrumbs hash={hash} path={path} rootName={res.name} />
      {uploads}
      <div className="share-page__grid">
        <DownloadBox hash={hash} path={path} resource={resource} selected={snap.selected} />
        <ShareFolder hash={hash} path={path} items={res.items ?? []} token={res.token} selected={snap.selected} shown={snap.shown} onOpenChange={onOverlay} />
      </div>
    </div>
  );
}

/** The public share page (/share/{hash}/{path}): no login, no app sidebar; a password card when the link asks. */
export function ShareScreen() {
  const { t } = useTranslation();
  useLocation(); // re-render on navigation; the path itself is read raw
  const { hash, path } = currentSharePath();
  const snap = useSnapshot(publicShare);
  const overlay = useRef(false);
  const onOverlay = useCallback((open: boolean) => void (overlay.current = open), []);

  useEffect(() => {
    void openShare(hash, path);
  }, [hash, path]);
  useEffect(() => closeShare, []);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape' && !overlay.current) clearSelection();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const here = snap.hash === hash && snap.path === path;
  const res = here ? snap.resource : null;
  const segments = path.split('/').filter(Boolean);
  const name = res ? (res.isDir ? (segments[segments.length - 1] ?? res.name) : res.name) : '';
  usePageTitle(name || t('routes.share'));

  let body;
  if (here && snap.needsPassword) body = <SharePasswordCard />;
  else if (here && snap.error) body = <ShareStatus status={snap.error.status} message={snap.error.message} />;
  else if (!res) body = <p className="status-text" role="status">{t('share.loading')}</p>;
  else body = <ShareBody hash={hash} path={path} res={res as PublicResource} name={name} onOverlay={onOverlay} />;

  return <ShareLayout itemName={res ? res.name : ''}>{body}</ShareLayout>;
}
