import { AppError } from '../../core/errors';
import type { JobCaps, JobsStore } from '../../db/jobs.store';

/** The caps until the config says otherwise (the config's defaults: jobQueuePerUser, jobItemsPerUser, jobQueue, jobItems). */
export const DEFAULT_JOB_CAPS: Readonly<JobCaps> = { jobsPerUser: 20, itemsPerUser: 20_000, jobs: 200, items: 100_000 };

/** A start refused past a cap: 429 with the message. */
export const tooMany = (message: string) => new AppError('RATE_LIMITED', message);

/**
 * Which cap a refused start would pass, as the 429's message. The check itself is the one conditional insert
 * (JobsStore.insertCapped); this only reads the counts again to say why.
 */
export async function overCap(store: JobsStore, owner: number, items: number, caps: JobCaps): Promise<string> {
  const { mine, all } = await store.active(owner);
  if (mine.jobs >= caps.jobsPerUser) return `you have ${mine.jobs} jobs queued or running, the most allowed (${caps.jobsPerUser}); wait for some to end or cancel them`;
  if (mine.items + items > caps.itemsPerUser) return `your queued and running jobs would hold ${mine.items + items} items, more than the ${caps.itemsPerUser} allowed; wait for some to end or cancel them`;
  if (all.jobs >= caps.jobs) return `the server has ${all.jobs} jobs queued or running, the most allowed (${caps.jobs}); try again later`;
  return `the server's queued and running jobs would hold more than the ${caps.items} items allowed; try again later`;
}
