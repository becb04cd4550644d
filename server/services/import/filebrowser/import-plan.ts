import type { Settings } from '../../../contract/settings';
import type { StoredUser } from '../../../contract/user';
import type { ShareRow } from '../../../db/shares.store';
import type { PreparedUser } from '../../users/users.service';

/**
 * What an import will do, item by item: the dry run prints it, the real run applies exactly it in one transaction.
 *
 * - create: new here. merge: the username exists and --merge replaces its record. unchanged: already here as
 *   imported (a second run). conflict: the username exists with other values, or the link's hash is taken by
 *   another link; left alone and reported. skip: cannot or must not be imported, with the reason.
 */
export type ItemAction = 'create' | 'merge' | 'unchanged' | 'conflict' | 'skip';

export interface UserPlan {
  /** filebrowser's id (shares name their owner by it). */
  fbId: number;
  username: string;
  action: ItemAction;
  reason?: string;
  /** What was mapped differently or dropped (fb-user-map.ts). */
  notes: string[];
  /** The record to store (create, merge). */
  prepared?: PreparedUser;
  /** The user here with that name (merge, unchanged, conflict). */
  existing?: StoredUser;
}

/**
 * Where a link leads on this server at import time. ok: its item was found under the owner's scope and the link is
 * pinned to it; missing: nothing there now (a disk not mounted, a file moved away): imported unpinned, it is pinned
 * when its item is first found (SharesService reach), as links made before pinning are; unreachable: the owner's
 * rules or scope refuse it now.
 */
export type ShareReach = 'ok' | 'missing' | 'unreachable';

export interface SharePlan {
  hash: string;
  /** Owner's username ('' for an orphan). */
  owner: string;
  /** Owner's filebrowser id. */
  ownerFbId: number;
  /** The path as filebrowser stored it (relative to the owner's scope; folders end in "/"). */
  fbPath: string;
  action: ItemAction;
  reason?: string;
  reach?: ShareReach;
  /** The row to insert; userId is set from the owner when applied. */
  row?: Omit<ShareRow, 'userId'>;
}

export interface SettingsPlan {
  /** The settings after the import. */
  next: Settings;
  /** Top-level settings whose value changes (none: unchanged). */
  changed: string[];
  /** The database had no settings yet (first run): they are all written. */
  fresh: boolean;
}

export interface ImportPlan {
  /** The file(s) read, for messages and the audit log. */
  source: string;
  merge: boolean;
  users: UserPlan[];
  shares: SharePlan[];
  settings: SettingsPlan;
  /** filedeck.yaml keys for filebrowser's server settings: printed (and written with --write-config), never applied. */
  serverConfig: Record<string, unknown>;
  /** What does not carry over, and anything else the admin should know. */
  notes: string[];
}

export interface ImportCounts {
  users: Record<ItemAction, number>;
  shares: Record<ItemAction, number>;
  settingsChanged: number;
}

const zero = (): Record<ItemAction, number> => ({ create: 0, merge: 0, unchanged: 0, conflict: 0, skip: 0 });

export function countPlan(plan: ImportPlan): ImportCounts {
  const users = zero();
  const shares = zero();
  for (const u of plan.users) users[u.action]++;
  for (const s of plan.shares) shares[s.action]++;
  return { users, shares, settingsChanged: plan.settings.changed.length };
}

/** True when applying the plan would write something. */
export function planChanges(plan: ImportPlan): boolean {
  const c = countPlan(plan);
  return c.users.create + c.users.merge + c.shares.create > 0 || c.settingsChanged > 0;
}

/** JSON with object keys sorted, so two values compare equal whatever order their keys were written in. */
export function canonical(v: unknown): string {
  return JSON.stringify(v, (_k, x) => (x && typeof x === 'object' && !Array.isArray(x) ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => (a < b ? -1 : 1))) : x));
}
