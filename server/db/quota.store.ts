import type { Sql } from './sql';

/** A scope's measured usage: bytes and files as last measured plus what settled writes added since (delta). */
export interface UsageRow {
  userId: number;
  bytes: number;
  files: number;
  deltaBytes: number;
  deltaFiles: number;
  checkedAt: number;
}

/** What one reservation holds against one user's quota. */
export interface ReservationRow {
  id: string;
  userId: number;
  bytes: number;
  files: number;
  instance: string;
  expiresAt: number;
}

const num = (v: unknown) => Number(v ?? 0);

/**
 * SQL of quotas (migration 20): `quota_usage` (one row per user whose scope was measured) and `quota_reservations`
 * (writes in flight, one row per write and quota it counts against, with the instance that holds it and an expiry).
 */
export class QuotaStore {
  constructor(private readonly db: Sql) {}

  /** The same store inside a transaction. */
  with(tx: Sql): QuotaStore {
    return new QuotaStore(tx);
  }

  get engine(): Sql['engine'] {
    return this.db.engine;
  }

  transaction<T>(fn: (q: QuotaStore) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => fn(this.with(tx)));
  }

  /**
   * PostgreSQL: holds the user's quota lock until the transaction ends, so instances decide one reservation at a
   * time per quota (SQLite: the transaction already holds the one connection).
   */
  async lockUser(userId: number): Promise<void> {
    if (this.db.engine === 'postgres') await this.db.get('SELECT pg_advisory_xact_lock(?, ?)', 35, userId);
  }

  async usage(userId: number): Promise<UsageRow | null> {
    const r = await this.db.get<Record<string, unknown>>('SELECT user_id, bytes, files, delta_bytes, delta_files, checked_at FROM quota_usage WHERE user_id = ?', userId);
    return r ? { userId: num(r.user_id), bytes: num(r.bytes), files: num(r.files), deltaBytes: num(r.delta_bytes), deltaFiles: num(r.delta_files), checkedAt: num(r.checked_at) } : null;
  }

  /**
   * A fresh measure taken while `seen` of the delta was known: what settled after that (not surely in the measure)
   * stays on top of it, what settled before is in it.
   */
  async measured(userId: number, bytes: number, files: number, seen: { bytes: number; files: number; checkedAt: number }, at: number): Promise<void> {
    // Only over the row as `seen` found it: a measure applied meanwhile (another request's, another instance's, or
    // a stale mark) already took the delta it saw, and subtracting it twice would count too little.
    const r = await this.db.run(
      'UPDATE quota_usage SET bytes = ? + delta_bytes - ?, files = ? + delta_files - ?, delta_bytes = delta_bytes - ?, delta_files = delta_files - ?, checked_at = ? WHERE user_id = ? AND checked_at = ?',
      bytes, seen.bytes, files, seen.files, seen.bytes, seen.files, at, userId, seen.checkedAt,
    );
    if (!r.changes && seen.checkedAt < 0) await this.db.run('INSERT INTO quota_usage (user_id, bytes, files, delta_bytes, delta_files, checked_at) VALUES (?, ?, ?, 0, 0, ?) ON CONFLICT (user_id) DO NOTHING', userId, bytes, files, at);
  }

  /** Marks a user's measure as stale (something left the scope): measured again before it refuses or shows. */
  async stale(userId: number): Promise<void> {
    await this.db.run('UPDATE quota_usage SET checked_at = 0 WHERE user_id = ?', userId);
  }

  /** A write landed: its bytes and files now count as stored under the user's scope. */
  async add(userId: number, bytes: number, files: number): Promise<void> {
    await this.db.run('UPDATE quota_usage SET bytes = bytes + ?1, files = files + ?2, delta_bytes = delta_bytes + ?1, delta_files = delta_files + ?2 WHERE user_id = ?3', bytes, files, userId);
  }

  /** Bytes and files reserved against a user's quota by live reservations other than `except`. */
  async reserved(userId: number, now: number, except: string): Promise<{ bytes: number; files: number }> {
    const r = await this.db.get<Record<string, unknown>>('SELECT sum(bytes) AS b, sum(files) AS f FROM quota_reservations WHERE user_id = ? AND expires_at > ? AND id != ?', userId, now, except);
    return { bytes: num(r?.b), files: num(r?.f) };
  }

  /** Bytes in a user's trash (the trash rows' sizes). */
  async trashBytes(userId: number): Promise<number> {
    return num((await this.db.get<{ b: unknown }>('SELECT sum(size) AS b FROM trash WHERE owner_id = ?', userId))?.b);
  }

  /** Sets what reservation `id` holds against a user's quota (replacing what it held). */
  async hold(r: ReservationRow): Promise<void> {
    await this.db.run('DELETE FROM quota_reservations WHERE id = ? AND user_id = ?', r.id, r.userId);
    await this.db.run('INSERT INTO quota_reservations (id, user_id, bytes, files, instance, expires_at) VALUES (?, ?, ?, ?, ?, ?)', r.id, r.userId, r.bytes, r.files, r.instance, r.expiresAt);
  }

  /** Pushes a reservation's expiry (a long write still running). */
  async extend(id: string, expiresAt: number): Promise<void> {
    await this.db.run('UPDATE quota_reservations SET expires_at = ? WHERE id = ?', expiresAt, id);
  }

  async drop(id: string): Promise<void> {
    await this.db.run('DELETE FROM quota_reservations WHERE id = ?', id);
  }

  async byId(id: string): Promise<ReservationRow[]> {
    const rows = await this.db.all<Record<string, unknown>>('SELECT id, user_id, bytes, files, instance, expires_at FROM quota_reservations WHERE id = ?', id);
    return rows.map((r) => ({ id: String(r.id), userId: num(r.user_id), bytes: num(r.bytes), files: num(r.files), instance: String(r.instance), expiresAt: num(r.expires_at) }));
  }

  /** A mark of the users table that moves whenever a user is added, changed or removed (whose quota may have). */
  async usersMark(): Promise<string> {
    const r = await this.db.get<Record<string, unknown>>('SELECT count(*) AS n, max(updated_at) AS m FROM users');
    return `${num(r?.n)}:${num(r?.m)}`;
  }

  /** Every reservation id (the start-up sweep). */
  async ids(): Promise<string[]> {
    return (await this.db.all<{ id: string }>('SELECT DISTINCT id FROM quota_reservations')).map((r) => r.id);
  }

  /** Removes expired reservations; returns how many rows went. */
  async expire(now: number): Promise<number> {
    return (await this.db.run('DELETE FROM quota_reservations WHERE expires_at <= ?', now)).changes;
  }
}
