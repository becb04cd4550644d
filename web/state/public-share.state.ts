import { proxy, ref } from 'valtio/vanilla';
import { isApiError } from '../api/client';
import { fetchPublicShare, type PublicResource } from '../api/public';

/** Items shown at first and added by each '+N' click on the share page (spec §9). */
export const SHARE_PAGE_STEP = 100;

interface PublicShareState {
  hash: string;
  /** Decoded path inside the share ("/" or "/sub/dir"). */
  path: string;
  resource: ReturnType<typeof ref<PublicResource>> | null;
  loading: boolean;
  /** Any failure other than a password request: shown as an error page with its status. */
  error: { status: number; message: string } | null;
  /** The share answered 401: the password card is shown. */
  needsPassword: boolean;
  /** A non-empty password was submitted, so a further 401 means 'Wrong credentials'. */
  attempted: boolean;
  /** The last answer was 429 (too many wrong passwords). */
  rateLimited: boolean;
  /** Selected item names in the current folder. */
  selected: string[];
  shown: number;
}

/** The public share page. No login token is involved; the password is only kept in memory for this visit. */
export const publicShare = proxy<PublicShareState>({
  hash: '', path: '/', resource: null, loading: false, error: null, needsPassword: false, attempted: false,
  rateLimited: false, selected: [], shown: SHARE_PAGE_STEP,
});

let password = '';
let passwordFor = '';
let current: AbortController | null = null;

/** Loads a share (or a folder inside it); an answer for a location no longer requested is ignored. */
export async function openShare(hash: string, path: string): Promise<void> {
  current?.abort();
  const controller = new AbortController();
  current = controller;
  if (passwordFor !== hash) {
    password = '';
    passwordFor = hash;
    publicShare.attempted = false;
  }
  const moved = publicShare.hash !== hash || publicShare.path !== path;
  publicShare.hash = hash;
  publicShare.path = path;
  publicShare.loading = true;
  publicShare.error = null;
  if (moved) {
    publicShare.selected = [];
    publicShare.shown = SHARE_PAGE_STEP;
    publicShare.resource = null;
  }
  try {
    const res = await fetchPublicShare(hash, path, password || undefined, controller.signal);
    if (current !== controller) return;
    publicShare.resource = ref(res);
    publicShare.needsPassword = false;
    publicShare.rateLimited = false;
  } catch (e) {
    if (current !== controller) return;
    publicShare.resource = null;
    const status = isApiError(e) ? e.status : 500;
    if (status === 401 || (status === 429 && publicShare.needsPassword)) {
      publicShare.needsPassword = true;
      publicShare.rateLimited = status === 429;
    } else {
      publicShare.needsPassword = false;
      publicShare.error = { status, message: isApiError(e) ? e.message : String(e) };
      if (!isApiError(e)) console.error('filedeck: loading the share failed', e);
    }
  } finally {
    if (current === controller) publicShare.loading = false;
  }
}

/** Submits the share password; an empty one sends nothing. */
export async function submitSharePassword(value: string): Promise<void> {
  if (!value) return;
  password = value;
  publicShare.attempted = true;
  await openShare(publicShare.hash, publicShare.path);
}

/** Click selects one item; with `add` (Ctrl/Cmd) it toggles the item within the selection. */
export function selectItem(name: string, add: boolean): void {
  const has = publicShare.selected.includes(name);
  if (add) publicShare.selected = has ? publicShare.selected.filter((n) => n !== name) : [...publicShare.selected, name];
  else publicShare.selected = has && publicShare.selected.length === 1 ? [] : [name];
}

export function clearSelection(): void {
  publicShare.selected = [];
}

export function showMore(): void {
  publicShare.shown += SHARE_PAGE_STEP;
}

/** Leaving the share page forgets the request (the password stays for a return to the same share). */
export function closeShare(): void {
  current?.abort();
  current = null;
  publicShare.resource = null;
  publicShare.error = null;
  publicShare.loading = false;
  publicShare.selected = [];
}
