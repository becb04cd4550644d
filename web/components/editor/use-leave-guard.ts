import { useEffect } from 'react';
import { hasUnsavedChanges, requestLeave } from '../../state/editor.state';
import { pageConfig } from '../../api/page-config';

/** The in-app path ("/files/a/") of a URL of this app, or null for anything outside it. */
function inAppPath(href: string): string | null {
  const url = new URL(href, window.location.href);
  if (url.origin !== window.location.origin) return null;
  const base = pageConfig.BaseURL;
  if (base && url.pathname !== base && !url.pathname.startsWith(`${base}/`)) return null;
  return (url.pathname.slice(base.length) || '/') + url.search + url.hash;
}

/**
 * Browsers with the Navigation API: every same-document navigation (router links, programmatic moves, Back and
 * Forward) raises a cancelable `navigate` event before the address changes, so it can be held for the dialog.
 */
function guardWithNavigationApi(nav: Navigation): () => void {
  const onNavigate = (e: NavigateEvent) => {
    if (!hasUnsavedChanges() || !e.cancelable || !e.destination.sameDocument || e.downloadRequest !== null) return;
    if (e.navigationType === 'traverse') {
      const delta = e.destination.index - (nav.currentEntry?.index ?? e.destination.index);
      if (delta === 0) return;
      e.preventDefault();
      requestLeave(`history:${delta}`);
      return;
    }
    const target = inAppPath(e.destination.url);
    if (target === null || e.destination.url === window.location.href) return;
    e.preventDefault();
    requestLeave(target);
  };
  nav.addEventListener('navigate', onNavigate);
  return () => nav.removeEventListener('navigate', onNavigate);
}

/** Other browsers: in-app link clicks are stopped before the router sees them, and Back is undone and asked about. */
function guardWithEvents(): () => void {
  const here = window.location.pathname + window.location.search;
  const onClick = (e: MouseEvent) => {
    if (!hasUnsavedChanges() || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    const a = e.target instanceof Element ? e.target.closest('a[href]') : null;
    if (!(a instanceof HTMLAnchorElement) || (a.target && a.target !== '_self') || a.hasAttribute('download')) return;
    const target = inAppPath(a.href);
    if (target === null) return;
    e.preventDefault();
    e.stopPropagation();
    requestLeave(target);
  };
  const onPopState = () => {
    if (!hasUnsavedChanges() || window.location.pathname + window.location.search === here) return;
    window.history.pushState(null, '', here);
    requestLeave('history:-1');
  };
  document.addEventListener('click', onClick, true);
  // Capture listeners at the window run before the router's own popstate listener.
  window.addEventListener('popstate', onPopState, true);
  return () => {
    document.removeEventListener('click', onClick, true);
    window.removeEventListener('popstate', onPopState, true);
  };
}

/**
 * While there are unsaved changes: the browser asks before unloading the page; in-app navigation (links, Back)
 * is held and the editor's discard dialog asks instead (requestLeave). Discarding clears the dirty flag first,
 * so the navigation that follows passes.
 */
export function useLeaveGuard(dirty: boolean): void {
  useEffect(() => {
    if (!dirty) return;
    const onBeforeUnload = (e: BeforeUnloadEvent) => {
      if (!hasUnsavedChanges()) return;
      e.preventDefault();
      e.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    const stop = 'navigation' in window && window.navigation ? guardWithNavigationApi(window.navigation) : guardWithEvents();
    return () => {
      window.removeEventListener('beforeunload', onBeforeUnload);
      stop();
    };
  }, [dirty]);
}
