import { proxy } from 'valtio/vanilla';
import type { Job, JobRequest } from '../../server/contract/job';
import { cancelJob, jobEvents, startJob } from '../api/jobs';
import { refreshListing } from './files.state';
import { showError } from './notices.state';

/** The caller's background jobs as the server reports them (newest first), live over server-sent events. */
export const jobs = proxy<{ list: Job[] }>({ list: [] });

const ended = (j: Job) => j.state !== 'queued' && j.state !== 'running';
let source: EventSource | null = null;

function upsert(job: Job): void {
  const i = jobs.list.findIndex((j) => j.id === job.id);
  const was = i >= 0 ? jobs.list[i]! : null;
  if (was && ended(was) && !ended(job)) return; // an ended job never runs again: this event is older than what we have
  if (i >= 0) jobs.list[i] = job;
  else jobs.list.unshift(job);
  // A job that just ended changed files: the listing on show may be one of them.
  if (ended(job) && (!was || !ended(was))) void refreshListing();
}

/** Follows the caller's jobs (after login); the browser reconnects by itself when the stream ends. */
export function followJobs(): void {
  if (source) return;
  source = jobEvents({ all: (list) => void (jobs.list = list), one: upsert });
}

/** Stops following (logout). */
export function unfollowJobs(): void {
  source?.close();
  source = null;
  jobs.list = [];
}

/** Starts a job; it appears in the panel from its first event. */
export async function runJob(body: JobRequest): Promise<Job | null> {
  try {
    const job = await startJob(body);
    upsert(job);
    return job;
  } catch (e) {
    showError(e);
    return null;
  }
}

export async function cancel(id: number): Promise<void> {
  await cancelJob(id).catch(showError);
}

/** Hides the jobs that have ended (they stay on record on the server). */
export function clearEnded(): void {
  jobs.list = jobs.list.filter((j) => !ended(j));
}

/** "Extract here": a folder named after the archive, beside it; a taken name keeps both. */
export function extractHere(path: string): Promise<Job | null> {
  return runJob({ kind: 'extract', items: [path], conflict: 'rename' });
}

/** "Extract to…": into `target`, a new folder (the picked folder plus the archive's stem); a taken name keeps both. */
export function extractTo(path: string, target: string): Promise<Job | null> {
  return runJob({ kind: 'extract', items: [path], destination: target, conflict: 'rename' });
}
