import { useEffect, useRef } from 'react';
import { FILE_ACTIONS, type ActionContext } from '../../actions/file-actions';
import { holdSelection } from '../../actions/files';
import { matchesAny, SHORTCUTS } from '../../actions/shortcuts';
import { pasteClipboard } from '../../actions/transfer';
import { files } from '../../state/files.state';
import { goTo, rawAppPath } from '../../state/navigation';
import { prompts, showPrompt } from '../../state/prompts.state';
import { searchState } from '../../state/search.state';
import { resetSelection, selectAll } from '../../state/selection.state';
import { undoLast } from '../../state/undo.state';

const isTyping = (el: EventTarget | null) =>
  el instanceof HTMLElement && (el.tagName === 'INPUT' || el.tagName === 'TEXTAREA' || el.tagName === 'SELECT' || el.isContentEditable);

/** The in-app URL of the folder above `path` (decoded), or null at the top. */
export function parentUrl(path: string): string | null {
  const parts = path.split('/').filter(Boolean);
  if (!parts.length) return null;
  return `/files/${parts.slice(0, -1).map((p) => `${encodeURIComponent(p)}/`).join('')}`;
}

/**
 * The folder the address bar asks for (decoded from its raw form: exact for names with '%'), or null outside
 * /files/. Right after a navigation it is ahead of files.path, which the screen sets in an effect a render later.
 */
export function askedFolder(rawPath: string): string | null {
  if (rawPath !== '/files' && !rawPath.startsWith('/files/')) return null;
  try {
    return `/${rawPath.slice('/files/'.length).split('/').map(decodeURIComponent).join('/')}`;
  } catch {
    return null; // a malformed escape: the caller falls back to the folder on record
  }
}

/**
 * The files view's keys, as SHORTCUTS and the actions' `shortcut` define them (spec §2): help (F1 anywhere in
 * files, '?' when not typing); in a listing Esc clears the selection, the actions' keys run them (by permission),
 * Backspace / Alt+↑ go up (the listing then focuses the folder we came from), Ctrl+A / C / X / V / Z. Nothing fires
 * while a prompt or the search is open, or while typing in a field.
 */
export function useFilesKeys(listing: () => (ActionContext & { order: ArrayLike<number> }) | null): void {
  const latest = useRef(listing);
  latest.current = listing;

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (prompts.current || searchState.open || e.defaultPrevented) return;
      const typing = isTyping(e.target);
      if (matchesAny(SHORTCUTS.f1, e) && (e.key === 'F1' || !typing)) {
        e.preventDefault();
        showPrompt('help');
        return;
      }
      if (typing) return;
      // Up needs no listing: it goes from the folder the address bar asks for, so it works while that folder is
      // still loading (the previous listing, or none, on show; files.path not yet updated). Never from a file view.
      if (matchesAny(SHORTCUTS.up, e)) {
        const raw = rawAppPath();
        if (!raw.endsWith('/') && raw !== '/files') return;
        const up = parentUrl(askedFolder(raw) ?? files.path);
        if (!up) return;
        e.preventDefault();
        goTo(up);
        return;
      }
      const ctx = latest.current();
      if (!ctx) return;
      const action = FILE_ACTIONS.find((a) => a.shortcut && matchesAny([a.shortcut], e));
      if (action) {
        e.preventDefault();
        if (action.available(ctx)) action.run(ctx);
        return;
      }
      if (matchesAny(SHORTCUTS.esc, e)) return resetSelection();
      if (matchesAny(SHORTCUTS.ctrlA, e)) {
        e.preventDefault();
        selectAll(ctx.order, (ctx.folder.slots ?? ctx.folder.items)?.length ?? 0);
      } else if (matchesAny(SHORTCUTS.ctrlC, e) || matchesAny(SHORTCUTS.ctrlX, e)) {
        const key = e.key.toLowerCase() as 'c' | 'x';
        // Text selected on the page is copied as usual.
        if (window.getSelection()?.toString()) return;
        if (!ctx.selected.length) return;
        // Copying needs the create permission, cutting (a later move) the rename permission.
        if (!(key === 'c' ? ctx.user.perm.create : ctx.user.perm.rename)) return;
        e.preventDefault();
        holdSelection(key, ctx.selected);
      } else if (matchesAny(SHORTCUTS.ctrlV, e)) {
        e.preventDefault();
        void pasteClipboard();
      } else if (matchesAny(SHORTCUTS.ctrlZ, e)) {
        // The last delete, move or rename, through the API (restore from the trash, move back).
        e.preventDefault();
        void undoLast();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}
