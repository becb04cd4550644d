/**
 * Counts failures per key in a sliding window. In memory, per process: enough to stop online guessing
 * against one server; the log line "<path>: 403 <ip>" remains for fail2ban across restarts.
 */
export class RateLimiter {
  private readonly hits = new Map<string, number[]>();

  constructor(private readonly max: number, private readonly windowMs: number, private readonly now: () => number = Date.now) {}

  /** Seconds until another attempt is allowed, or 0 when allowed now. */
  retryAfter(key: string): number {
    const list = this.prune(key);
    if (list.length < this.max) return 0;
    return Math.max(1, Math.ceil((list[0]! + this.windowMs - this.now()) / 1000));
  }

  fail(key: string): void {
    const list = this.prune(key);
    list.push(this.now());
    this.hits.set(key, list);
    if (this.hits.size > 100_000) this.sweep();
  }

  reset(key: string): void {
    this.hits.delete(key);
  }

  private prune(key: string): number[] {
    const cutoff = this.now() - this.windowMs;
    const list = (this.hits.get(key) ?? []).filter((t) => t > cutoff);
    if (list.length) this.hits.set(key, list);
    else this.hits.delete(key);
    return list;
  }

  private sweep(): void {
    for (const k of [...this.hits.keys()]) this.prune(k);
  }
}
