import { createHash } from 'node:crypto';
import { AppError } from '../../core/errors';
import type { RateLimitsStore } from '../../db/rate-limits.store';

/** One counter: at most `max` attempts per `windowMs` under `key`. */
export interface Limit {
  key: string;
  max: number;
  windowMs: number;
}

/** Slots taken for one attempt; give them back when the attempt turned out right. */
export interface Reservation {
  /** The attempt succeeded: its slots are returned, and the listed keys' counters (taken or not) are forgotten. */
  succeeded(clearKeys?: string[]): Promise<void>;
}

/** How often (in reservations) ended windows are swept from the table. */
const SWEEP_EVERY = 500;

/** Longest key stored as it is (UTF-8 bytes); a longer one is stored as its kind and a hash. */
export const MAX_KEY_BYTES = 160;

/**
 * The key a counter is stored under, bounded whatever a visitor sent (a name, an address from a header): short
 * keys stay readable ("login:a:192.0.2.7"), longer ones become their kind and a SHA-256
 * ("login:au:#<43 characters>"). Every limiter method goes through it, so no row grows with its input.
 */
export function boundedKey(key: string): string {
  if (key.length <= MAX_KEY_BYTES / 4 || Buffer.byteLength(key) <= MAX_KEY_BYTES) return key;
  const kind = /^[a-z]+:(?:[a-z]+:)?/.exec(key)?.[0] ?? '';
  return `${kind}#${createHash('sha256').update(key).digest('base64url')}`;
}

/**
 * Rate limits that count FIRST: an attempt reserves a slot under every key before the password comparison
 * runs, so concurrent attempts (on this or any other instance: counters are rows) are each counted, and at
 * most `max` of them per window ever reach the comparison. A refused attempt gives its slots back, so refusals
 * do not extend a lockout. The "<path>: 403 <ip>" log line stays for fail2ban.
 */
export class RateLimiter {
  private calls = 0;

  constructor(private readonly store: RateLimitsStore, private readonly now: () => number = Date.now) {}

  /** Reserves one slot under each limit, or throws RATE_LIMITED (with Retry-After) and keeps nothing. */
  async reserve(limits: Limit[], message: string): Promise<Reservation> {
    const now = this.now();
    if (++this.calls % SWEEP_EVERY === 0) await this.store.sweep(now);
    const taken: string[] = [];
    for (const l of limits) {
      const key = boundedKey(l.key);
      const { hits, expiresAt } = await this.store.hit(key, l.windowMs, now);
      taken.push(key);
      if (hits > l.max) {
        for (const k of taken) await this.store.refund(k);
        const wait = Math.max(1, Math.ceil((expiresAt - now) / 1000));
        throw new AppError('RATE_LIMITED', message, { headers: { 'Retry-After': String(wait) } });
      }
    }
    return {
      succeeded: async (clearKeys = []) => {
        const clear = clearKeys.map(boundedKey);
        for (const k of taken) if (!clear.includes(k)) await this.store.refund(k);
        for (const k of clear) await this.store.clear(k);
      },
    };
  }

  /**
   * True for the first call under `key` in each window of `windowMs` (one atomic count: of concurrent callers on
   * any instance exactly one gets true), e.g. to write one audit entry a minute for a flood.
   */
  async firstIn(key: string, windowMs: number): Promise<boolean> {
    return (await this.store.hit(boundedKey(key), windowMs, this.now())).hits === 1;
  }

  /** Remembers `key` for `ttlMs` (e.g. an address that logged in as a user). */
  async remember(key: string, ttlMs: number): Promise<void> {
    await this.store.mark(boundedKey(key), this.now() + ttlMs);
  }

  async remembers(key: string): Promise<boolean> {
    return this.store.live(boundedKey(key), this.now());
  }
}
