import { useEffect, useRef } from 'react';
import { actionById, type ActionContext } from '../../actions/file-actions';
import { holdSelection } from '../../actions/files';
import { pasteClipboard } from '../../actions/transfer';
import { prompts, showPrompt } from '../../state/prompts.state';
import { searchState } from '../../state/search.state';
import { resetSelection, selectAll } from '../../state/selection.state';
import { undoLast } from '../../state/undo.state';

const isTyping = (el: EventTarget | null) =>
  el instanceof HTMLElement && (el.tagName === 'INPUT' || el.tagName === 'TEXTAREA' || el.tagName === 'SELECT' || el.isContentEditable);

/**
 * The files view's keys (spec §2): F1 help everywhere in files; in a listing Esc clears the selection, Delete and
 * F2 (by permission), Ctrl+F search, Ctrl+S download, Ctrl+C / X / V clipboard, Ctrl+A select all, Ctrl+Z undo. Nothing fires
 * while a prompt or the search is open, or while typing in a field.
 */
export function useFilesKeys(listing: () => (ActionContext & { order: Iterable<number> }) | null): void {
  const latest = useRef(listing);
  latest.current = listing;

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (prompts.current || searchState.open || e.defaultPrevented) return;
      if (e.key === 'F1') {
        e.preventDefault();
        showPrompt('help');
        return;
      }
      const ctx = latest.current();
      if (!ctx || isTyping(e.target)) return;
      const run = (id: Parameters<typeof actionById>[0]) => {
        const action = actionById(id);
        if (!action.available(ctx)) return false;
        action.run(ctx);
        return true;
      };
      if (e.key === 'Escape') return resetSelection();
      if (e.key === 'Delete') return void run('delete');
      if (e.key === 'F2') {
        e.preventDefault();
        return void run('rename');
      }
      if (!e.ctrlKey && !e.metaKey) return;
      switch (e.key.toLowerCase()) {
        case 'f':
          e.preventDefault();
          run('search');
          break;
        case 's':
          e.preventDefault();
          run('download');
          break;
        case 'a':
          e.preventDefault();
          selectAll(ctx.order);
          break;
        case 'c':
        case 'x':
          // Text selected on the page is copied as usual.
          if (window.getSelection()?.toString()) return;
          if (!ctx.selected.length) return;
          // Copying needs the create permission, cutting (a later move) the rename permission.
          if (!(e.key.toLowerCase() === 'c' ? ctx.user.perm.create : ctx.user.perm.rename)) return;
          e.preventDefault();
          holdSelection(e.key.toLowerCase() as 'c' | 'x', ctx.selected);
          break;
        case 'v':
          e.preventDefault();
          void pasteClipboard();
          break;
        case 'z':
          // The last delete, move or rename, through the API (restore from the trash, move back).
          if (e.shiftKey) return;
          e.preventDefault();
          void undoLast();
          break;
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}
