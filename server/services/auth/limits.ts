import type { Limit } from './rate-limiter';

/**
 * The rate-limit scheme, in one place (docs/SECURITY.md "Rate limits" repeats it). Every password comparison
 * (login, share password, current password) reserves its slots here before comparing; counters are database
 * rows shared by every instance. Usernames are compared case-insensitively, as logins are.
 */
const MIN = 60_000;

/** Tight: one address guessing one account. */
export const LOGIN_PER_ADDRESS_USER = { max: 10, windowMs: 15 * MIN };
/** Per address across usernames: a sprayer trying many accounts from one address. */
export const LOGIN_PER_ADDRESS = { max: 10, windowMs: MIN };
/**
 * Slow global backoff per username: many addresses guessing one account. It binds only addresses that have not
 * logged in as that user in the last KNOWN_ADDRESS_MS, so a botnet can never lock the owner out of the addresses
 * they use (those still meet the two limits above).
 */
export const LOGIN_PER_USER = { max: 50, windowMs: 60 * MIN };
export const KNOWN_ADDRESS_MS = 30 * 24 * 60 * MIN;

export const SHARE_PER_LINK = { max: 10, windowMs: MIN };
export const SHARE_PER_ADDRESS = { max: 10, windowMs: MIN };
/** The current-password check guards sensitive changes with a stolen session: a few tries, per user. */
export const CURRENT_PASSWORD_PER_USER = { max: 5, windowMs: 15 * MIN };

const user = (name: string) => name.toLowerCase();

export const loginKeys = {
  addressUser: (address: string, name: string): Limit => ({ key: `login:au:${user(name)}|${address}`, ...LOGIN_PER_ADDRESS_USER }),
  address: (address: string): Limit => ({ key: `login:a:${address}`, ...LOGIN_PER_ADDRESS }),
  user: (name: string): Limit => ({ key: `login:u:${user(name)}`, ...LOGIN_PER_USER }),
  /** The marker "this address logged in as this user". */
  known: (address: string, name: string) => `login:known:${user(name)}|${address}`,
};

export const shareLimits = (hash: string, address: string): Limit[] => [
  { key: `share:${hash}`, ...SHARE_PER_LINK },
  { key: `share:a:${address}`, ...SHARE_PER_ADDRESS },
];

export const currentPasswordLimits = (userId: number): Limit[] => [{ key: `curpw:${userId}`, ...CURRENT_PASSWORD_PER_USER }];
