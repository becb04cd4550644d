import type { AppNotification } from '../../server/contract/share';
import { request, requestJson } from './client';

export interface NotificationList {
  unread: number;
  items: AppNotification[];
}

/** GET /api/notifications: the signed-in user's notifications, newest first, and how many are unread. */
export function fetchNotifications(signal?: AbortSignal): Promise<NotificationList> {
  return requestJson<NotificationList>('/notifications', { signal });
}

/** POST /api/notifications/read: marks the given notifications read, or all of them without ids. */
export async function markNotificationsRead(ids?: readonly number[]): Promise<void> {
  await request('/notifications/read', { method: 'POST', json: ids ? { ids } : {} });
}
