import type { Job, JobRequest } from '../../contract/job';
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

/** Items (and landed or skipped paths) a list, an event or an ended job's record shows; the rest are counted. */
export const SHOWN_ITEMS = 20;

/** A request with at most SHOWN_ITEMS items; `itemCount` says how many it has when some are left out. */
export function briefParams(p: JobRequest): JobRequest {
  if (p.items.length <= SHOWN_ITEMS) return p;
  return { ...p, items: p.items.slice(0, SHOWN_ITEMS), itemCount: p.itemCount ?? p.items.length };
}

/** A result with at most SHOWN_ITEMS paths and skipped names, and their counts when some are left out. */
export function briefResult(r: Job['result']): Job['result'] {
  if (!r) return r;
  const out = { ...r };
  if (r.paths && r.paths.length > SHOWN_ITEMS) Object.assign(out, { paths: r.paths.slice(0, SHOWN_ITEMS), pathCount: r.pathCount ?? r.paths.length });
  if (r.skipped && r.skipped.length > SHOWN_ITEMS) Object.assign(out, { skipped: r.skipped.slice(0, SHOWN_ITEMS), skippedCount: r.skippedCount ?? r.skipped.length });
  return out;
}

/**
 * A job as lists and events show it: never every item of a 10,000-item job (GET /api/jobs once answered 100 MB),
 * the first SHOWN_ITEMS with their count. One job (GET /api/jobs/{id}) is shown whole while it is queued or running.
 */
export function brief(j: Job): Job {
  return { ...j, params: briefParams(j.params), result: briefResult(j.result) };
}
