import { proxy } from 'valtio/vanilla';
import type { VersionInfo } from '../../server/contract/versions';
import { isApiError } from '../api/client';
import { deleteVersion, fetchVersions, restoreVersion } from '../api/versions';
import { reloadListing } from './files.state';
import { closePrompt } from './prompts.state';
import { showError } from './notices.state';
import { offerUndo } from './undo.state';
import { scheduleAccountUsage } from './account-usage.state';

/** The Versions panel's list for one file: loading (null), failed (error status), or loaded. */
export const versionsState = proxy<{ path: string; list: VersionInfo[] | null; error: number | null }>({ path: '', list: null, error: null });

let current: AbortController | null = null;

export async function loadVersions(path: string): Promise<void> {
  current?.abort();
  const controller = new AbortController();
  current = controller;
  versionsState.path = path;
  versionsState.list = null;
  versionsState.error = null;
  try {
    const list = await fetchVersions(path, controller.signal);
    if (current === controller) versionsState.list = list;
  } catch (e) {
    if (current !== controller || (e instanceof DOMException && e.name === 'AbortError')) return;
    versionsState.error = isApiError(e) ? e.status : 0;
  }
}

/**
 * Restores a version: the panel closes and the listing reloads; the current content the server kept as version
 * `kept` is what Undo (the toast or Ctrl+Z) restores in turn.
 */
export async function restoreFileVersion(path: string, id: string): Promise<boolean> {
  try {
    const { kept } = await restoreVersion(path, id);
    closePrompt();
    offerUndo({ messageKey: 'versions.restoredToast', count: 1, run: () => restoreVersion(path, kept).then(() => undefined) });
    scheduleAccountUsage();
    await reloadListing();
    return true;
  } catch (e) {
    showError(e);
    return false;
  }
}

/** Deletes one version for good (after the panel's own confirmation) and drops it from the list. */
export async function deleteFileVersion(path: string, id: string): Promise<boolean> {
  try {
    await deleteVersion(path, id);
    if (versionsState.path === path && versionsState.list) versionsState.list = versionsState.list.filter((v) => v.id !== id);
    scheduleAccountUsage();
    return true;
  } catch (e) {
    showError(e);
    return false;
  }
}
