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

/** Accounts made by signup from one address (refused attempts give their slot back). */
export const SIGNUP_PER_ADDRESS = { max: 10, windowMs: 60 * MIN };

export const SHARE_PER_LINK = { max: 10, windowMs: MIN };
export const SHARE_PER_ADDRESS = { max: 10, windowMs: MIN };
/** The current-password check guards sensitive changes with a stolen session: a few tries, per user. */
export const CURRENT_PASSWORD_PER_USER = { max: 5, windowMs: 15 * MIN };

const user = (name: string) => name.toLowerCase();

/**
 * Per address first: an address over its limit is refused before any per-name row is made, so one address can
 * make at most LOGIN_PER_ADDRESS.max per-name rows a minute, whatever names it sends. (Keys are bounded by the
 * limiter: see rate-limiter.ts boundedKey.)
 */
export const loginKeys = {
  address: (address: string): Limit => ({ key: `login:a:${address}`, ...LOGIN_PER_ADDRESS }),
  addressUser: (address: string, name: string): Limit => ({ key: `login:au:${user(name)}|${address}`, ...LOGIN_PER_ADDRESS_USER }),
  user: (name: string): Limit => ({ key: `login:u:${user(name)}`, ...LOGIN_PER_USER }),
  /** The counter whose first hit in a window may write the address's one "limited" audit entry. */
  limitedNote: (address: string) => `login:note:${address}`,
  /** The marker "this address logged in as this user". */
  known: (address: string, name: string) => `login:known:${user(name)}|${address}`,
};

/** Per address first (as loginKeys). */
/**
 * At most one "limited" audit entry per address per this long: a refused flood records that it happened, once a
 * minute, whatever names it sends (RateLimiter.firstIn on loginKeys.limitedNote: one row per address, atomic).
 */
export const LIMITED_NOTE_MS = MIN;

export const shareLimits = (hash: string, address: string): Limit[] => [
  { key: `share:a:${address}`, ...SHARE_PER_ADDRESS },
  { key: `share:${hash}`, ...SHARE_PER_LINK },
];

/** Files sent through one file-request link, and from one address across links (a flood is refused, 429). */
export const SHARE_UPLOADS_PER_LINK = { max: 120, windowMs: MIN };
export const SHARE_UPLOADS_PER_ADDRESS = { max: 60, windowMs: MIN };

/** Per address first (as loginKeys); every upload (plain POST, tus creation) takes a slot, kept whatever the outcome. */
export const shareUploadLimits = (hash: string, address: string): Limit[] => [
  { key: `shareup:a:${address}`, ...SHARE_UPLOADS_PER_ADDRESS },
  { key: `shareup:${hash}`, ...SHARE_UPLOADS_PER_LINK },
];

export const signupLimits = (address: string): Limit[] => [{ key: `signup:a:${address}`, ...SIGNUP_PER_ADDRESS }];

export const currentPasswordLimits = (userId: number): Limit[] => [{ key: `curpw:${userId}`, ...CURRENT_PASSWORD_PER_USER }];

/** Wrong second-factor codes (TOTP, recovery) per user: someone holding the password guessing codes. */
export const FACTOR_CODE_PER_USER = { max: 10, windowMs: 15 * MIN };
/** Wrong second-factor codes per address, across users. */
export const FACTOR_CODE_PER_ADDRESS = { max: 20, windowMs: 15 * MIN };
/** Passkey assertions per address (passwordless needs no password first, so this is the only bound). */
export const PASSKEY_PER_ADDRESS = { max: 20, windowMs: 15 * MIN };
/** Login tickets and WebAuthn challenges made per address. */
export const TICKETS_PER_ADDRESS = { max: 60, windowMs: 15 * MIN };

/** Second factors (services/factors): per address first, as loginKeys. */
export const factorLimits = {
  code: (address: string, userId: number): Limit[] => [
    { key: `2fa:a:${address}`, ...FACTOR_CODE_PER_ADDRESS },
    { key: `2fa:u:${userId}`, ...FACTOR_CODE_PER_USER },
  ],
  passkey: (address: string): Limit[] => [{ key: `passkey:a:${address}`, ...PASSKEY_PER_ADDRESS }],
  ticket: (address: string): Limit[] => [{ key: `ticket:a:${address}`, ...TICKETS_PER_ADDRESS }],
};

/**
 * Single sign-on steps an anonymous client can repeat (services/sso): starting an OIDC login, its callback and the
 * one-time code's exchange, per address. A successful exchange gives its slot back.
 */
export const SSO_PER_ADDRESS = { max: 60, windowMs: MIN };
export const ssoLimits = (address: string): Limit[] => [{ key: `sso:a:${address}`, ...SSO_PER_ADDRESS }];

/**
 * API token attempts per address: an unknown id, a wrong secret or an expired token counts; past the limit the
 * address is refused (429) before anything is looked up or hashed. A token already verified by this process is
 * remembered and never counted again (tokens/token-auth.ts).
 */
export const TOKEN_PER_ADDRESS = { max: 20, windowMs: MIN };

export const tokenKeys = {
  address: (address: string): Limit => ({ key: `token:a:${address}`, ...TOKEN_PER_ADDRESS }),
  /** One audit entry per address a minute for failed or refused token attempts. */
  note: (address: string) => `token:note:${address}`,
};
