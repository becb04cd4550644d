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
}

type Raw = Omit<JobRow, 'params' | 'progress' | 'result'> & { params: string; progress: string; result: string | null };

const SELECT = `SELECT id, owner, kind, params, state, progress, error, result, temp_path AS "tempPath", instance, heartbeat,
  created_at AS "createdAt", started_at AS "startedAt", finished_at AS "finishedAt" FROM jobs`;

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
});

/** SQL for background jobs (both engines). Rows outlive restarts so a job's end is always on record. */
export class JobsStore {
  constructor(private readonly db: Sql) {}

  async insert(j: Pick<JobRow, 'owner' | 'kind' | 'params' | 'progress' | 'instance'>, now: number): Promise<number> {
    const r = await this.db.get<{ id: number }>(
      `INSERT INTO jobs (owner, kind, params, state, progress, instance, heartbeat, created_at) VALUES (?, ?, ?, 'queued', ?, ?, ?, ?) RETURNING id`,
      j.owner, j.kind, JSON.stringify(j.params), JSON.stringify(j.progress), j.instance, now, now,
    );
    return Number(r!.id);
  }

  async get(id: number): Promise<JobRow | null> {
    const r = await this.db.get<Raw>(`${SELECT} WHERE id = ?`, id);
    return r ? fromRow(r) : null;
  }

  /** The newest jobs of one owner (all owners when null). */
  async list(owner: number | null, limit = 100): Promise<JobRow[]> {
    const rows = owner === null
      ? await this.db.all<Raw>(`${SELECT} ORDER BY id DESC LIMIT ?`, limit)
      : await this.db.all<Raw>(`${SELECT} WHERE owner = ? ORDER BY id DESC LIMIT ?`, owner, limit);
    return rows.map(fromRow);
  }

  async started(id: number, now: number): Promise<void> {
    await this.db.run(`UPDATE jobs SET state = 'running', started_at = ?, heartbeat = ? WHERE id = ? AND state = 'queued'`, now, now, id);
  }

  async progress(id: number, p: JobProgress, tempPath: string, now: number): Promise<void> {
    await this.db.run('UPDATE jobs SET progress = ?, temp_path = ?, heartbeat = ? WHERE id = ?', JSON.stringify(p), tempPath, now, id);
  }

  /** Ends a job (only one that has not ended: a job marked interrupted by another instance stays so). */
  async finish(id: number, state: JobState, p: JobProgress, error: string, result: unknown, now: number): Promise<void> {
    await this.db.run(
      `UPDATE jobs SET state = ?, progress = ?, error = ?, result = ?, temp_path = '', finished_at = ?, heartbeat = ? WHERE id = ? AND state IN ('queued', 'running')`,
      state, JSON.stringify(p), error, result === null ? null : JSON.stringify(result), now, now, id,
    );
  }

  /** Keeps this process's live jobs from being taken for dead by another instance. */
  async beat(ids: number[], now: number): Promise<void> {
    if (!ids.length) return;
    await this.db.run(`UPDATE jobs SET heartbeat = ? WHERE id IN (${ids.map(() => '?').join(', ')})`, now, ...ids);
  }

  /** Jobs not ended whose process is gone: `isDead` decides from the instance and the heartbeat. */
  async unfinished(): Promise<JobRow[]> {
    return (await this.db.all<Raw>(`${SELECT} WHERE state IN ('queued', 'running')`)).map(fromRow);
  }

  /** Marks one dead job interrupted (once: a concurrent instance doing the same changes nothing). */
  async interrupt(id: number, error: string, now: number): Promise<boolean> {
    const r = await this.db.run(
      `UPDATE jobs SET state = 'interrupted', error = ?, temp_path = '', finished_at = ? WHERE id = ? AND state IN ('queued', 'running')`,
      error, now, id,
    );
    return r.changes === 1;
  }

  /** Forgets ended jobs older than `before`. */
  async prune(before: number): Promise<void> {
    await this.db.run(`DELETE FROM jobs WHERE state IN ('done', 'failed', 'cancelled', 'interrupted') AND finished_at < ?`, before);
  }
}
