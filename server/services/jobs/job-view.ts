import type { Job } from '../../contract/job';
import type { JobRow } from '../../db/jobs.store';

/**
 * A job as its row has it (a job this process does not run): the same Job shape the live view has, with the rate
 * and time left given by the caller (unknown, 0 and null, when it has no earlier sample).
 */
export function rowJob(r: JobRow, rate = 0, secondsLeft: number | null = null): Job {
  return {
    id: r.id, owner: r.owner, kind: r.kind, params: r.params, state: r.state, progress: r.progress, rate, secondsLeft,
    createdAt: r.createdAt, startedAt: r.startedAt, finishedAt: r.finishedAt, error: r.error, result: r.result as Job['result'],
    ...(r.cancelRequested && (r.state === 'queued' || r.state === 'running') ? { cancelRequested: true } : {}),
  };
}

export const ended = (state: Job['state']) => state !== 'queued' && state !== 'running';
