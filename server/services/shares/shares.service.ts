import type { Share } from '../../contract/share';
import { notFound } from '../../core/errors';
import type { ShareRow, SharesStore } from '../../db/shares.store';
import type { UsersStore } from '../../db/users.store';

/** Shares as clients may see them: never the password hash or the token. */
export function publicShare(r: ShareRow, username?: string): Share {
  return { hash: r.hash, path: r.path, userID: r.userId, expire: r.expire, hasPassword: r.passwordHash !== '', ...(username !== undefined ? { username } : {}) };
}

/** Share records. The share API and public access arrive with the shares issue; the CLI lists and removes. */
export class SharesService {
  constructor(private readonly store: SharesStore, private readonly users: UsersStore) {}

  /** All shares with owner names resolved, optionally for one user. */
  list(userId?: number): Share[] {
    const names = new Map(this.users.all().map((u) => [u.id, u.username]));
    const rows = userId === undefined ? this.store.all() : this.store.byUser(userId);
    return rows.map((r) => publicShare(r, names.get(r.userId) ?? ''));
  }

  remove(hash: string): void {
    if (!this.store.delete(hash)) throw notFound(`no share "${hash}"`);
  }
}
