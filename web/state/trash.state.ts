import { proxy } from 'valtio/vanilla';
import type { TrashItem, TrashSettings } from '../../server/contract/trash';
import { isApiError } from '../api/client';
import { emptyTrash, fetchTrash, removeTrashItem, restoreTrashItem } from '../api/trash';
import { showError, showSuccess } from './notices.state';
import { withProgress } from './progress.state';
import { showPrompt } from './prompts.state';

/** The Trash screen's list, and the trash settings that apply to the user (the delete prompt reads them). */
export const trashState = proxy<{ items: TrashItem[] | null; settings: TrashSettings | null; error: number | null }>({ items: null, settings: null, error: null });

/** Loads the list and the settings. */
export async function loadTrash(): Promise<void> {
  try {
    const { items, settings } = await fetchTrash();
    trashState.items = items;
    trashState.settings = settings;
    trashState.error = null;
  } catch (e) {
    trashState.error = isApiError(e) ? e.status : 500;
  }
}

/** Whether a delete moves to the trash for this user (asked once, or again with `fresh`; a failure assumes the safe answer: permanent). */
export async function trashEnabled(fresh = false): Promise<boolean> {
  if (fresh || !trashState.settings) await loadTrash();
  return !!trashState.settings?.enabled;
}

/**
 * Restores an item; when its name is taken, asks replace / keep both and tries again that way. Answers where it
 * landed (null when it failed or is waiting for the answer).
 */
export async function restoreItem(item: TrashItem, conflict?: 'replace' | 'rename'): Promise<string | null> {
  try {
    const path = await withProgress(() => restoreTrashItem(item.id, conflict));
    showSuccess('trash.restored');
    return path;
  } catch (e) {
    if (isApiError(e) && e.status === 409 && !conflict) {
      showPrompt('replace', { names: [item.name], onReplace: () => void restoreItem(item, 'replace'), onRename: () => void restoreItem(item, 'rename') });
      return null;
    }
    showError(e);
    return null;
  } finally {
    await loadTrash();
  }
}

/** Deletes one item for good. */
export async function deleteForever(item: TrashItem): Promise<void> {
  try {
    await withProgress(() => removeTrashItem(item.id));
    showSuccess('trash.deletedForever');
  } catch (e) {
    showError(e);
  } finally {
    await loadTrash();
  }
}

/** Empties the trash. */
export async function emptyAll(): Promise<void> {
  try {
    await withProgress(() => emptyTrash());
    showSuccess('trash.emptied');
  } catch (e) {
    showError(e);
  } finally {
    await loadTrash();
  }
}
