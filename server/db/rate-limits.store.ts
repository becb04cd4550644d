import type { Sql } from './sql';

/**
 * Attempt counters in fixed windows, shared by every instance (rows, not process memory). `hit` counts an
 * attempt atomically in one statement, so concurrent attempts on any instance each get their own number.
 */
export class RateLimitsStore {
  constructor(private readonly db: Sql) {}

  /**
   * Counts one attempt under `key` and returns the count in the current window with the window's end. A window
   * starts with the first attempt after the previous one ended.
   */
  async hit(key: string, windowMs: number, now: number): Promise<{ hits: number; expiresAt: number }> {
    const r = await this.db.get<{ hits: number; expires_at: number }>(
      `INSERT INTO rate_limits (key, hits, expires_at) VALUES (?1, 1, CAST(?2 AS BIGINT) + CAST(?3 AS BIGINT))
       ON CONFLICT (key) DO UPDATE SET
         hits = CASE WHEN rate_limits.expires_at <= CAST(?2 AS BIGINT) THEN 1 ELSE rate_limits.hits + 1 END,
         expires_at = CASE WHEN rate_limits.expires_at <= CAST(?2 AS BIGINT) THEN CAST(?2 AS BIGINT) + CAST(?3 AS BIGINT) ELSE rate_limits.expires_at END
       RETURNING hits, expires_at`,
      key, now, windowMs,
    );
    return { hits: Number(r!.hits), expiresAt: Number(r!.expires_at) };
  }

  /** Gives one counted attempt back (a reservation that was refused elsewhere, or one that succeeded). */
  async refund(key: string): Promise<void> {
    await this.db.run('UPDATE rate_limits SET hits = hits - 1 WHERE key = ? AND hits > 0', key);
  }

  /** Forgets a counter. */
  async clear(key: string): Promise<void> {
    await this.db.run('DELETE FROM rate_limits WHERE key = ?', key);
  }

  /** Records a marker under `key` until `until` (e.g. "this address logged in as this user"). */
  async mark(key: string, until: number): Promise<void> {
    await this.db.run('INSERT INTO rate_limits (key, hits, expires_at) VALUES (?1, 0, ?2) ON CONFLICT (key) DO UPDATE SET expires_at = ?2', key, until);
  }

  /** True when a counter or marker under `key` is still live. */
  async live(key: string, now: number): Promise<boolean> {
    return !!(await this.db.get('SELECT 1 AS one FROM rate_limits WHERE key = ? AND expires_at > ?', key, now));
  }

  /** Removes ended windows and markers. */
  async sweep(now: number): Promise<number> {
    return (await this.db.run('DELETE FROM rate_limits WHERE expires_at <= ?', now)).changes;
  }
}
