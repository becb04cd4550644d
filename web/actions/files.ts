import { createResource, downloadUrl, fetchChecksum, fetchResource, removeResource, transfer, type WebResource } from '../api/resources';
import { restoreTrashItem } from '../api/trash';
import { holdItems } from '../state/clipboard.state';
import { currentFolder, files, reloadListing } from '../state/files.state';
import { focusListingItem } from '../state/listing-focus.state';
import { goTo } from '../state/navigation';
import { showError, showSuccess } from '../state/notices.state';
import { withProgress } from '../state/progress.state';
import { showPrompt } from '../state/prompts.state';
import { offerUndo } from '../state/undo.state';
import { runJob } from '../state/jobs.state';
import { wantsJob } from './job-size';

const encodeSegments = (path: string) => path.split('/').map(encodeURIComponent).join('/');
const parentOf = (path: string) => path.replace(/\/$/, '').replace(/[^/]*$/, '') || '/';

/** Names typed by the user are trimmed; '/' and the special names '.'/'..' are refused. */
export function cleanName(raw: string): string | null {
  const name = raw.trim();
  if (!name || name === '.' || name === '..' || name.includes('/')) return null;
  return name;
}

/**
 * Deletes items (one call each, in parallel): into the trash when it is on, then an Undo (toast and Ctrl+Z)
 * restores them. After a failure the listing reloads as well. A big selection (job-size.ts) is one background job
 * instead (the same trash-or-not decision on the server; the jobs panel shows it, and the listing reloads when it ends).
 */
export async function deleteItems(items: readonly WebResource[]): Promise<boolean> {
  if (await wantsJob(items)) return (await runJob({ kind: 'delete', items: items.map((i) => (i.path.length > 1 ? i.path.replace(/\/$/, '') : i.path)) })) !== null;
  try {
    const ids = (await withProgress(() => Promise.all(items.map((i) => removeResource(i.path))))).filter((id): id is string => !!id);
    if (ids.length) offerUndo({ messageKey: 'trash.undo.deleted', count: ids.length, run: () => Promise.all(ids.map((id) => restoreTrashItem(id))).then(() => {}) });
    else showSuccess('notices.deleted');
    return true;
  } catch (e) {
    showError(e);
    return false;
  } finally {
    if (files.resource?.isDir) await reloadListing();
  }
}

/** Renames an item in its folder; answers the new decoded path, or null when it failed. */
export async function renameItem(item: WebResource, rawName: string): Promise<string | null> {
  const name = cleanName(rawName);
  if (!name) return null;
  const to = parentOf(item.path) + name;
  if (name === item.name) return item.path;
  try {
    await withProgress(() => transfer('rename', item.path, to));
    offerUndo({ messageKey: 'trash.undo.renamed', count: 1, run: () => transfer('rename', to, item.path) });
    if (files.resource?.isDir) {
      await reloadListing();
      // The listing keeps the renamed item under the keyboard (and selected, so F2 renames it again).
      focusListingItem(parentOf(item.path), name);
    }
    return to;
  } catch (e) {
    showError(e);
    return null;
  }
}

/** Creates an empty file (POST with an empty body) and opens it; `base` is a decoded folder ending in '/'. */
export async function createFile(base: string, rawName: string): Promise<boolean> {
  const name = cleanName(rawName);
  if (!name) return false;
  try {
    await withProgress(() => createResource(base + name));
    goTo(`/files${encodeSegments(base + name)}`);
    return true;
  } catch (e) {
    showError(e);
    return false;
  }
}

/** Creates a folder (POST of the path with a trailing slash) and opens it. */
export async function createFolder(base: string, rawName: string): Promise<boolean> {
  const name = cleanName(rawName);
  if (!name) return false;
  try {
    await withProgress(() => createResource(`${base + name}/`));
    goTo(`/files${encodeSegments(`${base + name}/`)}`);
    return true;
  } catch (e) {
    showError(e);
    return false;
  }
}

/** Starts a browser download of a URL in this page (the server answers with an attachment). */
export function startDownload(url: string): void {
  const a = document.createElement('a');
  a.href = url;
  a.download = '';
  a.rel = 'noopener';
  document.body.append(a);
  a.click();
  a.remove();
}

/**
 * Downloads the selection: one file directly; anything else (several items, a folder, or the current folder
 * when nothing is selected) as an archive in the format picked in the download prompt.
 */
export function downloadItems(items: readonly WebResource[]): void {
  const only = items[0];
  if (items.length === 1 && only && !only.isDir) return startDownload(downloadUrl([only.path]));
  const paths = items.length ? items.map((i) => i.path) : [currentFolder()];
  showPrompt('download', { onChoose: (format) => startDownload(downloadUrl(paths, format)) });
}

/** Ctrl+C / Ctrl+X: keeps the items for a later paste. */
export function holdSelection(key: 'c' | 'x', items: readonly WebResource[]): void {
  if (!items.length) return;
  holdItems(key, items.map((i) => ({ from: i.path, name: i.name, isDir: i.isDir, folderSize: i.folderSize })), currentFolder());
}

/** The sub-folders of a folder, for the move / copy destination picker. */
export async function foldersIn(path: string, signal?: AbortSignal): Promise<{ name: string; path: string }[]> {
  const res = await fetchResource(path, signal);
  return (res.items ?? []).filter((i) => i.isDir).map((i) => ({ name: i.name, path: i.path }));
}

/** A file's checksum (md5, sha1, sha256, sha512), computed by the server on demand. */
export const checksumOf = (path: string, algo: string): Promise<string> => fetchChecksum(path, algo);
