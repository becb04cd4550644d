import { proxy } from 'valtio/vanilla';
import type { AppNotification } from '../../server/contract/share';
import { fetchNotifications, markNotificationsRead } from '../api/notifications';

/** How often the badge asks while the page is visible (decision 0051: the web app polls). */
export const POLL_MS = 45_000;

export const notificationsState = proxy<{ unread: number; items: AppNotification[]; loaded: boolean }>({ unread: 0, items: [], loaded: false });

let inFlight: Promise<void> | null = null;

/** Reads the list once; overlapping calls (a focus during a poll) share one request. Failures keep the last list. */
export function refreshNotifications(): Promise<void> {
  inFlight ??= fetchNotifications()
    .then((list) => {
      notificationsState.unread = list.unread;
      notificationsState.items = list.items;
      notificationsState.loaded = true;
    })
    .catch(() => {})
    .finally(() => {
      inFlight = null;
    });
  return inFlight;
}

/**
 * Polls while the page is visible, and at once when it comes back into view or gets the focus: a hidden tab asks
 * nothing. Returns the stop function (the badge's effect cleanup).
 */
export function followNotifications(): () => void {
  let timer: ReturnType<typeof setInterval> | null = null;
  const stopTimer = () => {
    if (timer) clearInterval(timer);
    timer = null;
  };
  const wake = () => {
    if (document.visibilityState !== 'visible') return stopTimer();
    void refreshNotifications();
    stopTimer();
    timer = setInterval(() => void refreshNotifications(), POLL_MS);
  };
  wake();
  document.addEventListener('visibilitychange', wake);
  window.addEventListener('focus', wake);
  return () => {
    stopTimer();
    // Signed out (the badge unmounts): the next user starts from nothing, not from this user's count.
    Object.assign(notificationsState, { unread: 0, items: [], loaded: false });
    document.removeEventListener('visibilitychange', wake);
    window.removeEventListener('focus', wake);
  };
}

/** Marks every notification read (the list's button), then reads the list again. */
export async function markAllRead(): Promise<void> {
  await markNotificationsRead();
  notificationsState.unread = 0;
  for (const n of notificationsState.items) n.read = true;
  await refreshNotifications();
}

/** Marks one read (opening it). */
export async function markRead(id: number): Promise<void> {
  const item = notificationsState.items.find((n) => n.id === id);
  if (!item || item.read) return;
  await markNotificationsRead([id]);
  item.read = true;
  notificationsState.unread = Math.max(0, notificationsState.unread - 1);
}
