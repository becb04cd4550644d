import type { Job, JobRequest } from '../../server/contract/job';
import { request, requestJson } from './client';
import { pageConfig } from './page-config';

/** POST /api/jobs: queues a background job; answers it as queued (or already running). */
export function startJob(body: JobRequest): Promise<Job> {
  return requestJson<Job>('/jobs', { method: 'POST', json: body });
}

/** DELETE /api/jobs/{id}: cancels a job of the caller. */
export async function cancelJob(id: number): Promise<void> {
  await request(`/jobs/${id}`, { method: 'DELETE' });
}

/**
 * GET /api/jobs/events as server-sent events: `jobs` (every job, once) then `job` (each change). EventSource sends no
 * headers: the `auth` cookie authenticates it, so no token is ever put in a URL.
 */
export function jobEvents(on: { all(jobs: Job[]): void; one(job: Job): void }): EventSource {
  const es = new EventSource(`${pageConfig.BaseURL}/api/jobs/events`, { withCredentials: true });
  es.addEventListener('jobs', (e) => on.all(JSON.parse((e as MessageEvent<string>).data) as Job[]));
  es.addEventListener('job', (e) => on.one(JSON.parse((e as MessageEvent<string>).data) as Job));
  return es;
}
