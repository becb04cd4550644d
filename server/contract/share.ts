/** A share as the API returns it: never a password hash or a token (only hasPassword). */
export interface Share {
  hash: string;
  path: string;
  userID: number;
  username?: string;
  expire: number; // unix seconds; 0 = permanent
  hasPassword: boolean;
}
