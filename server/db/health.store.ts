import type { Sql } from './sql';

/** Cheap queries for readiness, metrics and `filedeck doctor`. Session rows themselves belong to sessions.store.ts. */
export class HealthStore {
  constructor(private readonly db: Sql) {}

  /** One round trip to the database; throws when it cannot be reached. */
  async ping(): Promise<void> {
    await this.db.get('SELECT 1 AS ok');
  }

  /** The database server's clock in ms (PostgreSQL); null on SQLite, which runs in this process. */
  async serverTime(): Promise<number | null> {
    if (this.db.engine !== 'postgres') return null;
    const r = await this.db.get<{ ms: string | number }>('SELECT (extract(epoch from clock_timestamp()) * 1000)::bigint AS ms');
    return r ? Number(r.ms) : null;
  }

  /** Sessions that can still be used: not expired and not replaced by a renewal. */
  async activeSessions(now: number): Promise<number> {
    const r = await this.db.get<{ n: number | string }>('SELECT count(*) AS n FROM sessions WHERE expires_at > ? AND replaced_by IS NULL', now);
    return Number(r?.n ?? 0);
  }

  /** Jobs of every instance counted by state (queued, running, done, failed, cancelled, interrupted). */
  async jobsByState(): Promise<Record<string, number>> {
    const rows = await this.db.all<{ state: string; n: number | string }>('SELECT state, count(*) AS n FROM jobs GROUP BY state');
    return Object.fromEntries(rows.map((r) => [r.state, Number(r.n)]));
  }
}
