import { proxy } from 'valtio/vanilla';
import type { Settings } from '../../server/contract/settings';
import type { Share } from '../../server/contract/share';
import type { User } from '../../server/contract/user';
import { isApiError } from '../api/client';
import * as settingsApi from '../api/settings';
import { deleteShare, fetchAllShares } from '../api/shares';
import { updateUser } from '../api/users';
import { isRtl, normalizeLocale } from '../i18n/locales';
import { auth, renewToken } from './auth.state';
import { showError, showSuccess } from './notices.state';

/** Success notices, by their key under `settings.notices` (shown through the app's notices). */
export type NoticeKey = 'settingsUpdated' | 'passwordUpdated' | 'userCreated' | 'userUpdated' | 'userDeleted' | 'linkCopied' | 'shareDeleted';

export function notifySuccess(key: NoticeKey): void {
  showSuccess(`settings.notices.${key}`);
}

/** An error notice with the server's message (e.g. "400 Bad Request (invalid regular expression ...)"). */
export function notifyError(e: unknown): void {
  showError(e);
}

// ---- Profile ----

export type ProfilePrefs = Pick<User, 'locale' | 'hideDotfiles' | 'singleClick' | 'dateFormat' | 'theme'>;
const PROFILE_FIELDS = ['locale', 'hideDotfiles', 'singleClick', 'dateFormat', 'theme'] as const;

/**
 * Saves the profile preferences (no password needed), then renews the token so its user object is fresh: the app
 * applies theme and language from it. Moving between a right-to-left and a left-to-right language reloads the page.
 */
export async function saveProfile(prefs: ProfilePrefs): Promise<boolean> {
  const user = auth.user;
  if (!user) return false;
  const wasRtl = isRtl(normalizeLocale(user.locale));
  try {
    await updateUser(user.id, [...PROFILE_FIELDS], prefs);
  } catch (e) {
    notifyError(e);
    return false;
  }
  await renewToken();
  notifySuccess('settingsUpdated');
  if (wasRtl !== isRtl(normalizeLocale(prefs.locale))) window.location.reload();
  return true;
}

/** Changes the user's own password; `current` is checked by the server. */
export async function changePassword(password: string, current: string): Promise<boolean> {
  const user = auth.user;
  if (!user) return false;
  try {
    await updateUser(user.id, ['password'], { password }, current);
  } catch (e) {
    notifyError(e);
    return false;
  }
  await renewToken();
  notifySuccess('passwordUpdated');
  return true;
}

// ---- Global settings ----

interface GlobalState {
  settings: Settings | null;
  error: { status: number; message: string } | null;
}

export const globalSettings = proxy<GlobalState>({ settings: null, error: null });

/** Loads the global settings (admin). */
export async function loadSettings(): Promise<Settings | null> {
  globalSettings.error = null;
  try {
    const s = await settingsApi.getSettings();
    globalSettings.settings = s;
    return s;
  } catch (e) {
    globalSettings.error = isApiError(e) ? { status: e.status, message: e.message } : { status: 500, message: String(e) };
    return null;
  }
}

/**
 * Saves the whole editable settings object and answers the stored result; a validation error (e.g. a bad regex) is
 * shown with its message and answers null.
 */
export async function saveSettings(next: Settings): Promise<Settings | null> {
  const { authMethod: _m, authHeader: _h, ...update } = next;
  try {
    await settingsApi.putSettings(update);
  } catch (e) {
    notifyError(e);
    return null;
  }
  notifySuccess('settingsUpdated');
  return loadSettings();
}

// ---- Shares ----

interface SharesState {
  list: Share[] | null;
  error: { status: number; message: string } | null;
}

export const sharesState = proxy<SharesState>({ list: null, error: null });

export async function loadShares(): Promise<void> {
  sharesState.error = null;
  try {
    sharesState.list = await fetchAllShares();
  } catch (e) {
    sharesState.list = null;
    sharesState.error = isApiError(e) ? { status: e.status, message: e.message } : { status: 500, message: String(e) };
  }
}

export async function removeShare(hash: string): Promise<void> {
  try {
    await deleteShare(hash);
    notifySuccess('shareDeleted');
  } catch (e) {
    notifyError(e);
  }
  await loadShares();
}

export { copyText } from './copy-text';
