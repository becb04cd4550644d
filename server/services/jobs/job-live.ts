import type { Job, JobState } from '../../contract/job';
import { briefParams } from './job-view';
import type { ProgressTracker } from './job-progress';
import type { ValidRequest } from './job-request';
import type { TokenLimits } from '../policy/token-limits';

/** A job this process holds (queued or running), kept in memory until it ends; its row is the record. */
export interface Live {
  id: number;
  owner: number;
  /** The request: while queued only its first items (the row holds them all, read when the job starts). */
  req: ValidRequest;
  /** The owner's scope when the job was queued: its paths mean that scope's (a changed scope ends the job). */
  scope: string;
  /** The API token's limits when a token started it: the owner is re-read with them each time (never lifted). */
  limits?: TokenLimits;
  state: JobState;
  tracker: ProgressTracker;
  controller: AbortController;
  temp: string;
  createdAt: number;
  startedAt: number | null;
  /** Set when it ends (shown at once, before the row is written). */
  finishedAt: number | null;
  error: string;
  result: Job['result'];
  /** tracker.version when last written to the database / sent to listeners. */
  saved: number;
  sent: number;
}

/** A live job as the API shows it: its progress as of now, with the rate and time left while it runs. */
export function liveJob(l: Live): Job {
  const { rate, secondsLeft } = l.state === 'running' ? l.tracker.estimate() : { rate: 0, secondsLeft: null };
  return {
    id: l.id, owner: l.owner, kind: l.req.kind, params: briefParams(l.req), state: l.state, progress: { ...l.tracker.p }, rate, secondsLeft,
    createdAt: l.createdAt, startedAt: l.startedAt, finishedAt: l.finishedAt, error: l.error, result: l.result,
  };
}
