/** Units a link's lifetime is counted in, and the longest lifetime in units (spec §5). */
export const SHARE_UNITS = ['seconds', 'minutes', 'hours', 'days'] as const;
export type ShareUnit = (typeof SHARE_UNITS)[number];
export const MAX_SHARE_DURATION = 2147483647;

/** A share as the API returns it: never a password hash or a token (only hasPassword). */
export interface Share {
  hash: string;
  path: string;
  userID: number;
  username?: string;
  expire: number; // unix seconds; 0 = permanent
  hasPassword: boolean;
}
