import { proxy } from 'valtio/vanilla';
import { isApiError } from '../api/client';

/** How long a success notice stays (spec §9). */
export const SUCCESS_MS = 1000;

export interface Notice {
  id: number;
  kind: 'error' | 'success';
  /** A translation key, or (for errors) the server's own message text. */
  message: string;
  translate: boolean;
  /** A translation key shown before the message (a 507: which limit was reached, in the user's language). */
  lead?: string;
}

/** Popups: errors stay until closed; successes leave by themselves after a second. */
export const notices = proxy<{ list: Notice[] }>({ list: [] });

let next = 1;

export function dismissNotice(id: number): void {
  const at = notices.list.findIndex((n) => n.id === id);
  if (at >= 0) notices.list.splice(at, 1);
}

/** Shows an error popup: an ApiError's body text (e.g. "409 Conflict"), or a translation key. */
export function showError(error: unknown, key?: string): void {
  if (error instanceof DOMException && error.name === 'AbortError') return;
  let message = key ?? 'notices.genericError';
  let translate = true;
  if (!key && isApiError(error)) {
    message = error.message.trim() || String(error.status);
    translate = false;
  } else if (!key && error instanceof Error && error.message) {
    message = error.message;
    translate = false;
  }
  if (!key && !isApiError(error)) console.error('filedeck:', error);
  // A 507 names the quota or volume that is full in the server's words; the lead says what it means in the user's language.
  const lead = !key && isApiError(error) && error.status === 507 ? 'notices.noSpace' : undefined;
  notices.list.push({ id: next++, kind: 'error', message, translate, lead });
}

/** Shows a success popup (a translation key) for one second. */
export function showSuccess(key: string): void {
  const id = next++;
  notices.list.push({ id, kind: 'success', message: key, translate: true });
  setTimeout(() => dismissNotice(id), SUCCESS_MS);
}
