import type { Quota } from '../../contract/versions';
import type { StoredUser } from '../../contract/user';
import { resolve } from 'node:path';
import { inside, ScopedFs } from '../../fs/scoped-fs';

/** A user with a quota, and the real folder it applies to. */
export interface QuotaAccount {
  userId: number;
  username: string;
  quota: Quota;
  /** The user's scope folder, real path. */
  scopeReal: string;
}

/** The real folder of a user's scope under the files root (links on the way resolved as ScopedFs resolves them). */
export function scopeRealOf(root: string, user: Pick<StoredUser, 'scope'>): string {
  const scope = user.scope === '/' || user.scope === '.' ? '' : user.scope;
  try {
    return new ScopedFs(`${root}${scope}`).realRoot;
  } catch {
    return resolve(`${root}${scope}`); // not made yet: where it will be
  }
}

/**
 * Users with a quota, as of the users table's `mark` (its row count and latest change): read again only when the
 * mark moves, so a quota set a moment ago applies to the very next write, in every instance.
 */
export class QuotaAccounts {
  private mark = '';
  private list: QuotaAccount[] = [];

  constructor(private readonly root: string, private readonly read: () => Promise<{ mark: string; users: () => Promise<StoredUser[]> }>) {}

  async all(): Promise<QuotaAccount[]> {
    const { mark, users } = await this.read();
    if (mark !== this.mark) {
      this.list = (await users()).filter((u) => u.quota && (u.quota.bytes || u.quota.files)).map((u) => ({ userId: u.id, username: u.username, quota: u.quota!, scopeReal: scopeRealOf(this.root, u) }));
      this.mark = mark;
    }
    return this.list;
  }

  /**
   * The quotas a write landing at the real location `dest` counts against: every account whose scope holds it
   * (nested scopes: each of them), except, for a move, those that already hold its source `from`. Ordered by user
   * id, the order their locks are taken in.
   */
  async over(dest: string, from?: string): Promise<QuotaAccount[]> {
    return (await this.all()).filter((a) => inside(dest, a.scopeReal) && !(from && inside(from, a.scopeReal))).sort((a, b) => a.userId - b.userId);
  }
}
