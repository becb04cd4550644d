import type { AppNotification } from '../../contract/share';
import { forbidden, invalid } from '../../core/errors';
import type { NotificationsStore } from '../../db/notifications.store';
import type { Actor } from '../actor';

/** Arrivals through one link within this long add to one unread notification (decision 0051). */
export const NOTIFY_BATCH_MS = 5 * 60_000;
/** Notifications kept per user: the oldest go first. */
export const NOTIFY_KEEP = 200;
const MAX_IDS = 1000;

/** In-app notifications: files that arrived through a user's file requests, batched per link. */
export class NotificationsService {
  constructor(private readonly store: NotificationsStore, private readonly now: () => number = Date.now) {}

  /** Files arrived through the link `hash` (named `name`, the shared folder's name) of `userId`. */
  async arrived(userId: number, hash: string, name: string, files: number, bytes: number): Promise<void> {
    const now = this.now();
    await this.store.add(userId, hash, name, files, bytes, now, now - NOTIFY_BATCH_MS, NOTIFY_KEEP);
  }

  /** The signed-in user's notifications, newest first, and how many are unread. */
  async list(actor: Actor): Promise<{ unread: number; items: AppNotification[] }> {
    const id = this.userId(actor);
    return { unread: await this.store.unread(id), items: await this.store.list(id, NOTIFY_KEEP) };
  }

  /** Marks the listed notifications (or all, without `ids`) read; ids of other users' are ignored. */
  async markRead(actor: Actor, body: unknown): Promise<void> {
    const id = this.userId(actor);
    const ids = (body as { ids?: unknown } | null)?.ids;
    if (ids === undefined || ids === null) return this.store.markRead(id);
    if (!Array.isArray(ids) || ids.length > MAX_IDS || !ids.every((x) => Number.isSafeInteger(x) && x > 0)) throw invalid(`ids must be a list of at most ${MAX_IDS} notification ids`);
    await this.store.markRead(id, [...new Set(ids as number[])]);
  }

  private userId(actor: Actor): number {
    if (!actor.user) throw forbidden();
    return actor.user.id;
  }
}
