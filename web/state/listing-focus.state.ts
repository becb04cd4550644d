import { proxy } from 'valtio/vanilla';

/**
 * Where the keyboard focus goes in a listing that is (re)loading, so it is never left on <body>: the folder we
 * came up from, the item a preview or a prompt was opened from, the item renamed, or, when that item is gone
 * (deleted, moved), the one that took its place. The listing on show consumes the request once it can.
 */
export interface FocusRequest {
  /** The decoded folder path the request is for; another folder's listing ignores it. */
  folder: string;
  /** The item to focus, by name; when it is not in the listing (any more), the item at `pos` instead. */
  name: string | null;
  /** A place in the shown order (folders first), clamped to the last item. */
  pos: number | null;
  /** Also select the item (a folder came back from, a rename); otherwise only the keyboard cursor moves. */
  select: boolean;
  /** Never touch the selection, even when the item is gone (a background reload took it away: the selection is the user's). */
  keepSelection?: boolean;
}

export const listingFocus = proxy<{ want: FocusRequest | null }>({ want: null });

/** One spelling per folder: no trailing slash except the root's. */
export const folderKey = (path: string) => path.replace(/\/+$/, '') || '/';

/** The item that last had the focus in a listing, noted by the listing itself. */
let last: FocusRequest | null = null;

export function noteListingFocus(folder: string, name: string, pos: number): void {
  last = { folder: folderKey(folder), name, pos, select: false };
}

/** Asks the listing of `folder` to focus the item named `name` (or its first item with null). */
export function focusListingItem(folder: string, name: string | null, select = true): void {
  listingFocus.want = { folder: folderKey(folder), name, pos: name === null ? 0 : null, select };
}

/**
 * A prompt or menu closed and its opener is gone or was in the listing: back to the item last focused there.
 * `keepSelection`: a reload (not the user) took the item away, so the one in its place gets the cursor only.
 */
export function returnListingFocus(keepSelection = false): void {
  if (!listingFocus.want && last) listingFocus.want = { ...last, keepSelection };
}

/** A route change: requests for other folders are stale. */
export function dropStaleListingFocus(path: string): void {
  if (listingFocus.want && listingFocus.want.folder !== folderKey(path)) listingFocus.want = null;
}

/** The listing took the request. */
export function takeListingFocus(): void {
  listingFocus.want = null;
}

/**
 * Going up from `from` to `to` (Backspace, Alt+↑, a breadcrumb, closing a preview): the child of `to` we came
 * from, or null when `from` is not below `to`.
 */
export function childCameFrom(from: string, to: string): string | null {
  const base = folderKey(to);
  const prefix = base === '/' ? '/' : `${base}/`;
  const below = folderKey(from);
  if (!below.startsWith(prefix) || below.length <= prefix.length) return null;
  return below.slice(prefix.length).split('/')[0] ?? null;
}
