import { proxy, ref } from 'valtio/vanilla';
import type { SortBy, ViewMode } from '../../server/contract/user';
import { VIEW_MODES } from '../../server/contract/user';
import { isApiError } from '../api/client';
import { saveListingPrefs, type WebResource } from '../api/resources';
import type { FolderSlots } from '../api/folder-slots';
import { fetchResourceStreamed } from '../api/resource-stream';
import { auth } from './auth.state';
import { showError } from './notices.state';
import { progress } from './progress.state';
import { resetSelection, restoreSelection, selection } from './selection.state';
import { scheduleAccountUsage } from './account-usage.state';

export interface LoadError {
  status: number;
  message: string;
}

/** A listing kept out of valtio's proxying: it can be large and is replaced, never mutated. */
type Listing = ReturnType<typeof ref<WebResource>>;

interface FilesState {
  /** The decoded path last requested ("/a b/"). */
  path: string;
  resource: Listing | null;
  loading: boolean;
  /** The folder on show is still arriving: its items so far are shown (a big folder parses in batches). */
  partial: boolean;
  error: LoadError | null;
}

/** The current files request. */
export const files = proxy<FilesState>({ path: '', resource: null, loading: false, partial: false, error: null });

let current: AbortController | null = null;
/** The places of the big folder on show while it arrives (null otherwise): ranges far down are asked through it. */
let places: FolderSlots | null = null;

async function load(path: string, quiet: boolean): Promise<void> {
  current?.abort();
  places = null;
  const controller = new AbortController();
  current = controller;
  files.path = path;
  if (!quiet) {
    files.loading = true;
    files.error = null;
  }
  progress.pending++;
  try {
    // An answer for a path that is no longer the requested one is ignored (spec §2).
    const wanted = () => current === controller && files.path === path;
    const res = await fetchResourceStreamed(path, controller.signal, (partial) => {
      // A quiet reload keeps the complete listing on show until the new one is complete (no shrinking flash).
      if (quiet || !wanted()) return;
      files.resource = ref(partial);
      files.partial = true;
      files.loading = false;
    }, { firstPage: !quiet, onSlots: (s) => void (wanted() && (places = s)) });
    if (!wanted()) return;
    files.resource = ref(res);
    files.error = null;
  } catch (e) {
    if (current !== controller) return;
    files.resource = null;
    files.error = isApiError(e) ? { status: e.status, message: e.message } : { status: 500, message: String(e) };
    if (!isApiError(e)) console.error('filedeck: loading failed', e);
  } finally {
    progress.pending--;
    if (current === controller) {
      places = null;
      files.loading = false;
      files.partial = false;
      current = null;
    }
  }
}

/**
 * The listing shows places [from, to) of the folder whose items have not arrived (placeholders): they are asked
 * for ahead of the stream, so End or the scrollbar reach the last item before the whole folder has arrived.
 */
export function wantItems(from: number, to: number): void {
  if (files.partial) places?.want(from, to);
}

/**
 * While a big folder arrives: where `before` turns false in its places [lo, hi) (see FolderSlots.seek), asking for
 * the ranges it needs. Null when the folder on show is complete or a range failed.
 */
export function seekPlaces(lo: number, hi: number, before: (name: string) => boolean): Promise<number | null> {
  return files.partial && places ? places.seek(lo, hi, before) : Promise.resolve(null);
}

/** Loads a path; an answer for a path that is no longer the requested one is ignored. */
export function openPath(path: string): Promise<void> {
  return load(path, false);
}

/** Loads the current path again in place (after uploads, moves, deletes...), dropping the selection. */
export async function reloadListing(): Promise<void> {
  if (!files.path) return;
  scheduleAccountUsage(); // a reload follows a change (delete, move, undo): the quota bar catches up, debounced
  await load(files.path, true);
  resetSelection();
}

/**
 * Loads the folder on show again after a change made in the background (a job or an upload ended), keeping the
 * selection and the keyboard position on the items that are still there (matched by name): work that ends
 * elsewhere never drops what the user has picked.
 */
export async function refreshListing(): Promise<void> {
  const path = files.path;
  if (!path) return;
  scheduleAccountUsage();
  const before = files.resource?.items ?? [];
  const picked = [...selection.selected].map((i) => before[i]?.name).filter((n): n is string => n !== undefined);
  const cursorName = selection.cursor === null ? undefined : before[selection.cursor]?.name;
  await load(path, true);
  if (files.path !== path) return; // the user went elsewhere meanwhile: that navigation owns the selection
  const at = new Map((files.resource?.items ?? []).map((item) => [item.name, item.index] as const));
  const kept = picked.map((n) => at.get(n)).filter((i): i is number => i !== undefined);
  restoreSelection(kept, cursorName === undefined ? null : (at.get(cursorName) ?? null));
}

/** Leaving the files screen cancels and clears the current request. */
export function closeFiles(): void {
  current?.abort();
  current = null;
  places = null;
  files.path = '';
  files.resource = null;
  files.loading = false;
  files.partial = false;
  files.error = null;
}

/** The folder the user is looking at: the listing's path, or the parent of a file on show ("/" at the root). */
export function currentFolder(): string {
  const res = files.resource;
  const path = res?.path ?? files.path ?? '/';
  const folder = res && !res.isDir ? path.replace(/\/[^/]*$/, '') : path;
  return folder ? (folder.endsWith('/') ? folder : `${folder}/`) : '/';
}

/** The listing's items, or none when a file (or nothing) is on show. */
export function listingItems(): readonly WebResource[] {
  return files.resource?.isDir ? (files.resource.items ?? []) : [];
}

/** Next view mode: list → mosaic → mosaic gallery → list; saved to the user. */
export async function cycleViewMode(): Promise<void> {
  const user = auth.user;
  if (!user) return;
  const at = VIEW_MODES.indexOf(user.viewMode);
  const next: ViewMode = VIEW_MODES[(at + 1) % VIEW_MODES.length] ?? 'list';
  user.viewMode = next;
  await saveListingPrefs(user.id, { viewMode: next }).catch((e: unknown) => showError(e));
}

/**
 * Sorts by a field: the field already in use flips its direction, another field starts with asc=false (the
 * server's default: A→Z for names, largest and newest first). The choice is saved, then the listing reloads.
 */
export async function sortListing(by: SortBy): Promise<void> {
  const user = auth.user;
  if (!user) return;
  const now = files.resource?.sorting ?? user.sorting;
  const asc = now.by === by ? !now.asc : false;
  user.sorting = { by, asc };
  try {
    await saveListingPrefs(user.id, { sorting: { by, asc } });
  } catch (e) {
    showError(e);
  }
  await reloadListing();
}
