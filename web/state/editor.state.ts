import { proxy } from 'valtio/vanilla';
import { saveText } from '../api/save';
import { showError, showSuccess } from './notices.state';
import { scheduleAccountUsage } from './account-usage.state';

interface EditorState {
  /** The text differs from what was last loaded or saved. */
  dirty: boolean;
  saving: boolean;
  /** Where the user asked to go while there were unsaved changes: an in-app URL, 'close', or 'history:<delta>'. */
  pendingLeave: string | null;
}

export const editorState = proxy<EditorState>({ dirty: false, saving: false, pendingLeave: null });

/** Bumped on every edit: a save only clears `dirty` if nothing was typed while it was in flight. */
let generation = 0;

/** A fresh file is open. */
export function resetEditor(): void {
  generation++;
  editorState.dirty = false;
  editorState.saving = false;
  editorState.pendingLeave = null;
}

/** The document changed. */
export function markEdited(): void {
  generation++;
  if (!editorState.dirty) editorState.dirty = true;
}

/** Whether leaving now would lose edits (for other screens that navigate programmatically). */
export function hasUnsavedChanges(): boolean {
  return editorState.dirty;
}

/** PUT the text; shows the shared success notice (1 s) or error notice (until closed). */
export async function saveEditor(path: string, text: string): Promise<boolean> {
  if (editorState.saving) return false;
  const mine = generation;
  editorState.saving = true;
  try {
    await saveText(path, text);
    if (mine === generation) editorState.dirty = false;
    showSuccess('editor.saved');
    scheduleAccountUsage();
    return true;
  } catch (e) {
    showError(e);
    return false;
  } finally {
    editorState.saving = false;
  }
}

/** Asks before leaving with unsaved changes; `target` is an in-app URL, 'close' or 'history:<delta>'. */
export function requestLeave(target: string): void {
  editorState.pendingLeave = target;
}

export function cancelLeave(): void {
  editorState.pendingLeave = null;
}

/** The user chose to discard the edits: returns where to go. */
export function confirmLeave(): string | null {
  const target = editorState.pendingLeave;
  editorState.pendingLeave = null;
  editorState.dirty = false;
  generation++;
  return target;
}
