import { useEffect, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { useLocation } from 'wouter';
import type { WebResource } from '../../api/resources';
import { HeaderActions, SelectionBar } from '../../components/files/file-actions-bar';
import { Listing } from '../../components/files/listing';
import { shownOrder } from '../../components/files/listing-order';
import { AppLayout } from '../../components/layout/app-layout';
import { Breadcrumbs } from '../../components/layout/breadcrumbs';
import { usePageTitle } from '../../components/layout/use-page-title';
import { ErrorState } from '../../components/ui/error-state';
import { Skeleton } from '../../components/ui/skeleton';
import { auth } from '../../state/auth.state';
import { closeFiles, files, openPath } from '../../state/files.state';
import { clearListingFilter, filterFor, listingFilter } from '../../state/listing-filter.state';
import { childCameFrom, dropStaleListingFocus, focusListingItem } from '../../state/listing-focus.state';
import { closePrompt } from '../../state/prompts.state';
import { resetSelection, resetSelectionAndMode, selection } from '../../state/selection.state';
import { closeShell } from '../../state/shell.state';
import { loadUsage } from '../../state/usage.state';
import { FileView } from './file-view';
import { SkipToFiles } from './skip-to-files';
import { currentFilesPath } from './files-path';
import { useFilesKeys } from './use-files-keys';

const folderOf = (path: string) => (path.endsWith('/') ? path : path.replace(/[^/]*$/, '')) || '/';
const NONE: readonly WebResource[] = [];

/** The selected items, in selection order: one loop, no callback per item (100,000 of them on a select-all). */
function pick(items: readonly (WebResource | undefined)[], selected: ReadonlySet<number>): WebResource[] {
  const out = new Array<WebResource>(selected.size);
  let n = 0;
  for (const i of selected) {
    const item = items[i];
    if (item) out[n++] = item;
  }
  out.length = n;
  return out;
}

/**
 * The files view: a folder listing, the editor (text files) or the previewer (anything else); errors as an
 * error page. One layout stays mounted across navigation, so the shell and uploads panel keep their state.
 * Leaving the view closes the shell and cancels the current request.
 */
export function FilesScreen() {
  const { t } = useTranslation();
  useLocation(); // re-render on navigation; the path itself is read raw
  const path = currentFilesPath();
  const snap = useSnapshot(files);
  const { user } = useSnapshot(auth);
  const { selected, multiple } = useSnapshot(selection);
  const filterSnap = useSnapshot(listingFilter);

  const previous = useRef<string | null>(null);
  useEffect(() => {
    // Going up (Backspace, Alt+↑, a breadcrumb, closing a preview) focuses the item we came from.
    const from = previous.current;
    previous.current = path;
    const child = from === null ? null : childCameFrom(from, path);
    if (child !== null) focusListingItem(path, child);
    else dropStaleListingFocus(path);
    // A route change resets the selection and multiple mode and closes prompts (spec §4).
    resetSelectionAndMode();
    clearListingFilter();
    closePrompt();
    void openPath(path);
    void loadUsage(folderOf(path));
  }, [path]);
  useEffect(
    () => () => {
      closeFiles();
      closeShell();
    },
    [],
  );

  const ready = snap.path === path && !snap.loading;
  const current = ready ? snap.resource : null;
  const folder = current?.isDir ? current : null;
  // While a big folder arrives, all its places (folder.slots): a selection may reach beyond the items arrived in order.
  const items = folder?.slots ?? folder?.items ?? NONE;
  const chosen = useMemo(() => pick(items, selected), [selected, items]);
  // Ctrl+A selects what is on show: the listing's own order, the filter applied (computed once for both).
  const order = shownOrder(items, filterFor(filterSnap, folder?.path ?? ''), folder?.numDirs).order;
  useFilesKeys(() => (folder && auth.user ? { user: auth.user, folder, selected: chosen, order } : null));

  const segments = path.split('/').filter(Boolean);
  const title = current && !current.isDir ? current.name : (segments[segments.length - 1] ?? t('routes.files'));
  usePageTitle(title);

  if (current && !current.isDir) {
    return (
      <AppLayout title={title} bare>
        <FileView resource={current} />
      </AppLayout>
    );
  }
  return (
    <AppLayout title={title} skipLink={<SkipToFiles />} actions={folder && user ? <HeaderActions user={user} folder={folder} selected={chosen} multiple={multiple} /> : undefined}>
      <Breadcrumbs path={path} />
      {folder && user ? (
        <>
          <Listing folder={folder} />
          <SelectionBar user={user} folder={folder} selected={chosen} onClear={resetSelection} />
        </>
      ) : ready && snap.error ? (
        <ErrorState status={snap.error.status} onRetry={() => void openPath(path)} />
      ) : (
        <Skeleton kind="listing" testId="files-loading" />
      )}
    </AppLayout>
  );
}
