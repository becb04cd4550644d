/** Units a link's lifetime is counted in, and the longest lifetime in units (spec §5). */
export const SHARE_UNITS = ['seconds', 'minutes', 'hours', 'days'] as const;
export type ShareUnit = (typeof SHARE_UNITS)[number];
export const MAX_SHARE_DURATION = 2147483647;

/**
 * How a link stands when it is listed. Only `ok` links serve anything; the others answer 403/404 and are kept,
 * because what stops them may pass (a disk not mounted yet, a scope or rule changed back, a restore):
 * - `missing`: nothing, or another item, is at the shared item's pinned location;
 * - `trashed`: the shared item is in the trash (working again after a restore);
 * - `unreachable`: the owner may no longer share it (permissions, scope, rules) or is gone.
 */
export const SHARE_STATES = ['ok', 'missing', 'trashed', 'unreachable'] as const;
export type ShareState = (typeof SHARE_STATES)[number];

/** A share as the API returns it: never a password hash or a token (only hasPassword). */
export interface Share {
  hash: string;
  path: string;
  userID: number;
  username?: string;
  expire: number; // unix seconds; 0 = permanent
  hasPassword: boolean;
  /** Set in listings (`GET /api/shares`, `filedeck shares ls`); an older client ignores it. */
  state?: ShareState;
}
