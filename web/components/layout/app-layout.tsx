import { useEffect, type ReactNode } from 'react';
import { useSnapshot } from 'valtio';
import { auth } from '../../state/auth.state';
import { trashEnabled } from '../../state/trash.state';
import { pageConfig } from '../../api/page-config';
import { PromptsHost } from '../prompts/prompts-host';
import { SearchOverlay } from '../search/search-overlay';
import { ShellPanel } from '../shell/shell-panel';
import { Notices } from './notices';
import { PanelDock } from './panel-dock';
import { ProgressBar } from './progress-bar';
import { Sidebar } from './sidebar';
import { UndoToast } from './undo-toast';

export interface AppLayoutProps {
  title: string;
  children: ReactNode;
  /** Buttons shown on the end side of the header. */
  actions?: ReactNode;
  /** No header: the view brings its own (file previews and the editor). */
  bare?: boolean;
  /** A skip link, rendered first so that it is the first Tab stop. */
  skipLink?: ReactNode;
}

/** Sidebar, header and main view, plus what floats over them: prompts, search, shell, uploads, notices. */
export function AppLayout({ title, children, actions, bare, skipLink }: AppLayoutProps) {
  const { loggedIn, user } = useSnapshot(auth);
  // The delete prompt says at once whether a delete goes to the trash: ask once per session, early.
  useEffect(() => {
    if (loggedIn) void trashEnabled();
  }, [loggedIn]);
  return (
    <div className="layout">
      {skipLink}
      <ProgressBar />
      <Sidebar />
      <main className={bare ? 'layout__main is-bare' : 'layout__main'}>
        {!bare && (
          <header className="layout__header">
            <h1 className="layout__title" title={title}>
              {title}
            </h1>
            {actions && <div className="layout__actions">{actions}</div>}
          </header>
        )}
        <div className="layout__content">{children}</div>
      </main>
      {loggedIn && <SearchOverlay />}
      {loggedIn && pageConfig.EnableExec && user?.perm.execute && <ShellPanel />}
      {loggedIn && <PanelDock />}
      <PromptsHost />
      <Notices />
      {loggedIn && <UndoToast />}
    </div>
  );
}
