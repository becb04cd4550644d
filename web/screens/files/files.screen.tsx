import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { useLocation } from 'wouter';
import { AppLayout } from '../../components/layout/app-layout';
import { usePageTitle } from '../../components/layout/use-page-title';
import { FileList } from '../../components/files/file-list';
import { ErrorState } from '../../components/ui/error-state';
import { closeFiles, files, openPath } from '../../state/files.state';
import { currentFilesPath } from './files-path';

/** The files view (first slice): the current folder's items, or a note for a file; errors as an error page. */
export function FilesScreen() {
  const { t } = useTranslation();
  useLocation(); // re-render on navigation; the path itself is read raw
  const path = currentFilesPath();
  const snap = useSnapshot(files);

  useEffect(() => {
    void openPath(path);
  }, [path]);
  useEffect(() => closeFiles, []);

  const current = snap.path === path && !snap.loading ? snap.resource : null;
  const segments = path.split('/').filter(Boolean);
  const title = segments[segments.length - 1] ?? t('sidebar.myFiles');
  usePageTitle(title);

  let body;
  if (snap.path === path && snap.error) body = <ErrorState status={snap.error.status} />;
  else if (!current) body = <p className="status-text" role="status">{t('files.loading')}</p>;
  else if (current.isDir) body = <FileList items={current.items ?? []} />;
  else body = <p className="status-text" data-testid="no-preview">{t('files.noPreview')}</p>;

  return <AppLayout title={title}>{body}</AppLayout>;
}
