import type { JobKind, JobProgress, JobRequest, JobState } from '../contract/job';
import type { Sql } from './sql';

/** A job row. `instance` names the process running it; `heartbeat` is refreshed while it is queued or running. */
export interface JobRow {
  id: number;
  owner: number;
  kind: JobKind;
  params: JobRequest;
  state: JobState;
  progress: JobProgress;
  error: string;
  result: Record<string, unknown> | null;
  /** The real path of the temp file or folder the job is writing ('' when none): removed if the job dies. */
  tempPath: string;
  instance: string;
  heartbeat: number;
  createdAt: number;
  startedAt: number | null;
  finishedAt: number | null;
  /** Another process (the CLI, another instance) asked for a cancel; the process running the job acts on it. */
  cancelRequested: boolean;
  /** The database's clock (unix ms) at the row's last change: what another instance follows it by. */
  changedAt: number;
}

/** Which jobs to list: one owner's (null: everyone's), in some states (all when absent). */
export interface JobRowFilter {
  owner: number | null;
  states?: readonly JobState[];
}

type Raw = Omit<JobRow, 'params' | 'progress' | 'result' | 'cancelRequested'> & { params: string; progress: string; result: string | null; cancelRequested: number };

const SELECT = `SELECT id, owner, kind, params, state, progress, error, result, temp_path AS "tempPath", instance, heartbeat,
  created_at AS "createdAt", started_at AS "startedAt", finished_at AS "finishedAt", cancel_requested AS "cancelRequested",
  changed_at AS "changedAt" FROM jobs`;

const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
const fromRow = (r: Raw): JobRow => ({
  ...r,
  id: Number(r.id),
  owner: Number(r.owner),
  params: JSON.parse(r.params),
  progress: JSON.parse(r.progress),
  result: r.result ? JSON.parse(r.result) : null,
  heartbeat: Number(r.heartbeat),
  createdAt: Number(r.createdAt),
  startedAt: num(r.startedAt),
  finishedAt: num(r.finishedAt),
  cancelRequested: Number(r.cancelRequested) === 1,
  changedAt: Number(r.changedAt),
});

/** Caps on unfinished jobs and their items, per user and in all (config: jobsPerUser, jobItemsPerUser, jobs, jobItems). */
export interface JobCaps {
  jobsPerUser: number;
  itemsPerUser: number;
  jobs: number;
  items: number;
}

const ACTIVE = `state IN ('queued', 'running')`;
/** The PostgreSQL advisory lock key that orders job starts across instances (an arbitrary constant of ours). */
const CAPS_LOCK = 7_310_042;

const marks = (n: number) => Array.from({ length: n }, () => '?').join(', ');

/**
 * The database's own clock in unix ms, written as `changed_at` by every write another instance must see: one
 * clock for every instance, so no skew between hosts can hide a change from a follower.
 */
const CLOCK = {
  sqlite: `CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)`,
  postgres: `CAST(EXTRACT(EPOCH FROM clock_timestamp()) * 1000 AS BIGINT)`,
} as const;

/** SQL for background jobs (both engines). Rows outlive restarts so a job's end is always on record. */
export class JobsStore {
  private readonly clock: string;

  constructor(private readonly db: Sql) {
    this.clock = CLOCK[db.engine];
  }

  /**
   * Whether other server processes may run jobs on this database: PostgreSQL. One SQLite file has one server (the
   * CLI runs no jobs; its cancels are carried out, and emitted, by the server holding the job).
   */
  get shared(): boolean {
    return this.db.engine === 'postgres';
  }

  /** The database's clock now (unix ms), the time base of `changed_at`. */
  async now(): Promise<number> {
    return Number((await this.db.get<{ t: number }>(`SELECT ${this.clock} AS t`))!.t);
  }

  /**
   * Rows changed by other instances after the point (`t`, `id`) in (changed_at, id) order, at most `limit`: a
   * follower's poll. Rows of `except` (the caller) are left out: it emits its own changes as they happen.
   */
  async changedSince(t: number, id: number, except: string, limit: number): Promise<JobRow[]> {
    const rows = await this.db.all<Raw>(
      `${SELECT} WHERE (changed_at > ?1 OR (changed_at = ?1 AND id > ?2)) AND instance <> ?3 ORDER BY changed_at, id LIMIT ?4`,
      t, id, except, limit,
    );
    return rows.map(fromRow);
  }

  async insert(j: Pick<JobRow, 'owner' | 'kind' | 'params' | 'progress' | 'instance'>, now: number): Promise<number> {
    const r = await this.db.get<{ id: number }>(
      `INSERT INTO jobs (owner, kind, params, state, progress, instance, heartbeat, created_at, changed_at, item_count) VALUES (?, ?, ?, 'queued', ?, ?, ?, ?, ${this.clock}, ?) RETURNING id`,
      j.owner, j.kind, JSON.stringify(j.params), JSON.stringify(j.progress), j.instance, now, now, j.params.items.length,
    );
    return Number(r!.id);
  }

  /**
   * Inserts a job only while its owner and everyone stay within the caps on unfinished (queued or running) jobs and
   * their items, checked and inserted in one statement. SQLite has one writer at a time; on PostgreSQL the statement
   * runs under a transaction-scoped advisory lock, so concurrent starts on every instance are counted one after the
   * other. Returns the new id, or null when a cap would be passed (`active` then says which).
   */
  async insertCapped(j: Pick<JobRow, 'owner' | 'kind' | 'params' | 'progress' | 'instance'>, now: number, caps: JobCaps): Promise<number | null> {
    if (this.db.engine === 'postgres')
      return this.db.transaction(async (tx) => {
        await tx.get(`SELECT pg_advisory_xact_lock(${CAPS_LOCK}) AS locked`);
        return new JobsStore(tx).insertCappedNow(j, now, caps);
      });
    return this.insertCappedNow(j, now, caps);
  }

  private async insertCappedNow(j: Pick<JobRow, 'owner' | 'kind' | 'params' | 'progress' | 'instance'>, now: number, caps: JobCaps): Promise<number | null> {
    const n = j.params.items.length;
    const r = await this.db.get<{ id: number }>(
      `INSERT INTO jobs (owner, kind, params, state, progress, instance, heartbeat, created_at, changed_at, item_count)
       SELECT CAST(? AS INTEGER), ?, ?, 'queued', ?, ?, CAST(? AS BIGINT), CAST(? AS BIGINT), ${this.clock}, CAST(? AS INTEGER)
       WHERE (SELECT COUNT(*) FROM jobs WHERE owner = ? AND ${ACTIVE}) < ?
         AND (SELECT COALESCE(SUM(item_count), 0) FROM jobs WHERE owner = ? AND ${ACTIVE}) + ? <= ?
         AND (SELECT COUNT(*) FROM jobs WHERE ${ACTIVE}) < ?
         AND (SELECT COALESCE(SUM(item_count), 0) FROM jobs WHERE ${ACTIVE}) + ? <= ?
       RETURNING id`,
      j.owner, j.kind, JSON.stringify(j.params), JSON.stringify(j.progress), j.instance, now, now, n,
      j.owner, caps.jobsPerUser, j.owner, n, caps.itemsPerUser, caps.jobs, n, caps.items,
    );
    return r ? Number(r.id) : null;
  }

  /** Unfinished (queued or running) jobs and their items: one owner's and everyone's. */
  async active(owner: number): Promise<{ mine: { jobs: number; items: number }; all: { jobs: number; items: number } }> {
    const q = (where: string, ...args: unknown[]) => this.db.get<{ jobs: number; items: number }>(`SELECT COUNT(*) AS jobs, COALESCE(SUM(item_count), 0) AS items FROM jobs WHERE ${where}`, ...args);
    const [mine, all] = [await q(`owner = ? AND ${ACTIVE}`, owner), await q(ACTIVE)];
    const n = (v: { jobs: number; items: number } | null) => ({ jobs: Number(v?.jobs ?? 0), items: Number(v?.items ?? 0) });
    return { mine: n(mine), all: n(all) };
  }

  /** Ids of one owner's unfinished jobs (a user being deleted: each is cancelled). */
  async activeOf(owner: number): Promise<number[]> {
    return (await this.db.all<{ id: number }>(`SELECT id FROM jobs WHERE owner = ? AND ${ACTIVE}`, owner)).map((r) => Number(r.id));
  }

  async get(id: number): Promise<JobRow | null> {
    const r = await this.db.get<Raw>(`${SELECT} WHERE id = ?`, id);
    return r ? fromRow(r) : null;
  }

  /** The newest jobs of one owner (all owners when null), in the given states (any when absent or empty), below id `before` when given. */
  async list(f: JobRowFilter, limit = 100, before?: number): Promise<JobRow[]> {
    const where: string[] = [];
    const args: unknown[] = [];
    if (f.owner !== null) {
      where.push('owner = ?');
      args.push(f.owner);
    }
    if (f.states?.length) {
      where.push(`state IN (${marks(f.states.length)})`);
      args.push(...f.states);
    }
    if (before !== undefined) {
      where.push('id < ?');
      args.push(before);
    }
    const rows = await this.db.all<Raw>(`${SELECT}${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY id DESC LIMIT ?`, ...args, limit);
    return rows.map(fromRow);
  }

  /** Marks a queued job running; false when its row is no longer queued (cancelled by another process, or taken for dead). */
  async started(id: number, now: number): Promise<boolean> {
    const r = await this.db.run(`UPDATE jobs SET state = 'running', started_at = ?, heartbeat = ?, changed_at = ${this.clock} WHERE id = ? AND state = 'queued'`, now, now, id);
    return r.changes === 1;
  }

  /**
   * Cancels a job that has not started, at once, whichever process queued it (that process drops it at its next
   * tick, and `started` refuses it); false when it is not queued.
   */
  async cancelQueued(id: number, now: number): Promise<boolean> {
    const r = await this.db.run(
      `UPDATE jobs SET state = 'cancelled', error = 'cancelled', cancel_requested = 1, temp_path = '', finished_at = ?, heartbeat = ?, changed_at = ${this.clock} WHERE id = ? AND state = 'queued'`,
      now, now, id,
    );
    return r.changes === 1;
  }

  /** Asks the process running a job to cancel it (it checks at its next tick); false when the job has ended. */
  async requestCancel(id: number): Promise<boolean> {
    const r = await this.db.run(`UPDATE jobs SET cancel_requested = 1, changed_at = ${this.clock} WHERE id = ? AND state IN ('queued', 'running')`, id);
    return r.changes === 1;
  }

  /** Which of these jobs another process asked to cancel. */
  async cancelsAsked(ids: number[]): Promise<number[]> {
    if (!ids.length) return [];
    const rows = await this.db.all<{ id: number }>(`SELECT id FROM jobs WHERE cancel_requested = 1 AND id IN (${marks(ids.length)})`, ...ids);
    return rows.map((r) => Number(r.id));
  }

  async progress(id: number, p: JobProgress, tempPath: string, now: number): Promise<void> {
    await this.db.run(`UPDATE jobs SET progress = ?, temp_path = ?, heartbeat = ?, changed_at = ${this.clock} WHERE id = ?`, JSON.stringify(p), tempPath, now, id);
  }

  /**
   * Ends a job (only one that has not ended: a job marked interrupted by another instance stays so). `params`, when
   * given, replaces the request kept on record (an ended job keeps a summary of its items, not every one).
   */
  async finish(id: number, state: JobState, p: JobProgress, error: string, result: unknown, now: number, params?: JobRequest): Promise<void> {
    await this.db.run(
      `UPDATE jobs SET state = ?, progress = ?, error = ?, result = ?, temp_path = '', finished_at = ?, heartbeat = ?, changed_at = ${this.clock}${params ? ', params = ?' : ''} WHERE id = ? AND state IN ('queued', 'running')`,
      state, JSON.stringify(p), error, result === null ? null : JSON.stringify(result), now, now, ...(params ? [JSON.stringify(params)] : []), id,
    );
  }

  /** Keeps this process's live jobs from being taken for dead by another instance. */
  async beat(ids: number[], now: number): Promise<void> {
    if (!ids.length) return;
    await this.db.run(`UPDATE jobs SET heartbeat = ? WHERE id IN (${marks(ids.length)})`, now, ...ids);
  }

  /** Jobs not ended whose process is gone: `isDead` decides from the instance and the heartbeat. */
  async unfinished(): Promise<JobRow[]> {
    return (await this.db.all<Raw>(`${SELECT} WHERE state IN ('queued', 'running')`)).map(fromRow);
  }

  /** Marks one dead job interrupted (once: a concurrent instance doing the same changes nothing). */
  async interrupt(id: number, error: string, now: number): Promise<boolean> {
    const r = await this.db.run(
      `UPDATE jobs SET state = 'interrupted', error = ?, temp_path = '', finished_at = ?, changed_at = ${this.clock} WHERE id = ? AND state IN ('queued', 'running')`,
      error, now, id,
    );
    return r.changes === 1;
  }

  /** Forgets ended jobs older than `before`. */
  async prune(before: number): Promise<void> {
    await this.db.run(`DELETE FROM jobs WHERE state IN ('done', 'failed', 'cancelled', 'interrupted') AND finished_at < ?`, before);
  }
}
