import { proxy } from 'valtio/vanilla';
import { reloadListing } from './files.state';
import { showError, showSuccess } from './notices.state';
import { withProgress } from './progress.state';

/** How long the Undo toast stays after a delete, move or rename. */
export const UNDO_MS = 8000;

/** Something the user just did that can be taken back through the API (restore from the trash, move back). */
export interface Undoable {
  /** Translation key of the toast's text ("Moved to the trash", "Renamed", "3 items renamed"…), with `count`. */
  messageKey: 'trash.undo.deleted' | 'trash.undo.moved' | 'trash.undo.renamed' | 'trash.undo.renamedItems' | 'versions.restoredToast';
  count: number;
  run: () => Promise<void>;
}

/** The toast on show (if any). Ctrl+Z undoes the last action even after its toast left, until another replaces it. */
export const undoState = proxy<{ offer: { id: number; messageKey: Undoable['messageKey']; count: number } | null }>({ offer: null });

let last: (Undoable & { id: number }) | null = null;
let seq = 0;
let timer: ReturnType<typeof setTimeout> | undefined;

/** Offers an undo for ~8 s (a toast) and for Ctrl+Z. */
export function offerUndo(u: Undoable): void {
  const id = ++seq;
  last = { ...u, id };
  undoState.offer = { id, messageKey: u.messageKey, count: u.count };
  clearTimeout(timer);
  timer = setTimeout(() => {
    if (undoState.offer?.id === id) undoState.offer = null;
  }, UNDO_MS);
}

export function dismissUndo(): void {
  undoState.offer = null;
}

/** Undoes the last action (toast button or Ctrl+Z); false when there is nothing to undo. Runs once. */
export async function undoLast(): Promise<boolean> {
  const u = last;
  if (!u) return false;
  last = null;
  undoState.offer = null;
  try {
    await withProgress(u.run);
    showSuccess('trash.undo.done');
  } catch (e) {
    showError(e);
  } finally {
    await reloadListing();
  }
  return true;
}
