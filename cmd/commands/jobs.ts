import type { Command } from 'commander';
import { JOB_STATES, type Job, type JobState } from '../../server/contract/job';
import { invalid } from '../../server/core/errors';
import type { Services } from '../../server/app';
import { systemActor } from '../../server/services/actor';
import { fail, print, withServices, type GlobalOpts } from '../context';
import { isoSeconds, table } from '../table';

const ACTIVE: JobState[] = ['queued', 'running'];
const ended = (j: Job) => !ACTIVE.includes(j.state);

/** A job id as typed: a positive whole number, else one clear line. */
function jobId(text: string): number {
  if (!/^\d{1,15}$/.test(text) || Number(text) < 1) throw invalid(`"${text}" is not a job id (a positive whole number; see "filedeck jobs ls")`);
  return Number(text);
}

/** `--state running,queued`: known states only. */
function states(text: string): JobState[] {
  const list = text.split(',').map((s) => s.trim()).filter(Boolean);
  const bad = list.find((s) => !(JOB_STATES as readonly string[]).includes(s));
  if (bad !== undefined || !list.length) throw invalid(`--state "${bad ?? text}" is not a job state: use ${JOB_STATES.join(', ')}`);
  return list as JobState[];
}

async function ownerNames(s: Services): Promise<Map<number, string>> {
  return new Map((await s.users.list()).map((u) => [u.id, u.username]));
}

const state = (j: Job) => (j.cancelRequested ? `${j.state} (cancelling)` : j.state);
const progress = (j: Job) => `${j.progress.filesDone}/${j.progress.filesTotal} files, ${j.progress.bytesDone}/${j.progress.bytesTotal} B`;
/** The first items of a long job (lists show SHOWN_ITEMS) and how many more it has. */
const items = (j: Job) => `${j.params.items.join(', ')}${(j.params.itemCount ?? 0) > j.params.items.length ? ` (+${j.params.itemCount! - j.params.items.length} more)` : ''}`;
const what = (j: Job) => `${items(j)}${j.params.destination ? ` -> ${j.params.destination}` : ''}`;

function jobsTable(jobs: Job[], names: Map<number, string>): string {
  const rows = jobs.map((j) => [j.id, names.get(j.owner) ?? j.owner, j.kind, state(j), progress(j), isoSeconds(j.createdAt), what(j)]);
  return table(['ID', 'Owner', 'Kind', 'State', 'Progress', 'Created', 'Items'], rows);
}

function jobDetail(j: Job, names: Map<number, string>): string {
  const time = (ms: number | null) => (ms === null ? '-' : isoSeconds(ms));
  const lines: [string, string | number][] = [
    ['ID', j.id], ['Owner', names.get(j.owner) ?? j.owner], ['Kind', j.kind], ['State', state(j)],
    ['Items', items(j)], ['Destination', j.params.destination ?? '-'], ['Conflict', j.params.conflict ?? '-'],
    ['Progress', progress(j)], ['Current', j.progress.current || '-'],
    ['Created', time(j.createdAt)], ['Started', time(j.startedAt)], ['Finished', time(j.finishedAt)],
  ];
  if (j.error) lines.push(['Error', j.error]);
  if (j.result) lines.push(['Result', JSON.stringify(j.result)]);
  return table(['Field', 'Value'], lines);
}

/**
 * `filedeck jobs ls | show | cancel`: background jobs through the same JobsService as /api/jobs, as the system
 * (any user's job). A job runs inside the server process, so a cancel of a running job is asked for through its
 * row and taken up by that process within about a second; `cancel` waits for the end by default.
 */
export function registerJobs(program: Command): void {
  const jobs = program.command('jobs').description('list, inspect and cancel background jobs (copy, move, delete, archive, extract)');
  jobs.command('ls').description('list jobs, newest first: queued and running ones unless --all or --state')
    .option('--user <id|username>', 'only this user\'s jobs')
    .option('--all', 'ended jobs too (done, failed, cancelled, interrupted)')
    .option('--state <state>', `only jobs in this state (or several, comma-separated: ${JOB_STATES.join(', ')})`)
    .option('--limit <n>', 'at most this many jobs (1-1000)', '100')
    .action(async (_o, cmd: Command) => {
      const o = cmd.optsWithGlobals() as GlobalOpts & { user?: string; all?: boolean; state?: string; limit: string };
      await withServices(o, async (s) => {
        if (!/^\d{1,4}$/.test(o.limit) || Number(o.limit) < 1 || Number(o.limit) > 1000) throw invalid('--limit must be a whole number from 1 to 1000');
        const filter = o.state !== undefined ? states(o.state) : o.all ? undefined : ACTIVE;
        const owner = o.user === undefined ? undefined : (await s.users.find(o.user)).id;
        const list = await s.jobs.list(systemActor, { owner, states: filter, limit: Number(o.limit) });
        const names = await ownerNames(s);
        print(o, list, () => (list.length ? jobsTable(list, names) : o.all || o.state ? 'No jobs' : 'No queued or running jobs (--all shows ended ones)'));
      }).catch(fail);
    });
  jobs.command('show').argument('<id>').description('one job: what it does, its state, progress, error and result').action(async (id: string, _o, cmd: Command) => {
    const o = cmd.optsWithGlobals() as GlobalOpts;
    await withServices(o, async (s) => {
      const job = await s.jobs.get(systemActor, jobId(id));
      const names = await ownerNames(s);
      print(o, job, () => jobDetail(job, names));
    }).catch(fail);
  });
  jobs.command('cancel').argument('<id>').description('cancel a job: a queued one at once, a running one at its next check (temps removed)')
    .option('--wait <seconds>', 'wait this long for a running job to stop (0: do not wait)', '10')
    .action(async (id: string, _o, cmd: Command) => {
      const o = cmd.optsWithGlobals() as GlobalOpts & { wait: string };
      await withServices(o, async (s) => {
        const n = jobId(id);
        if (!/^\d{1,4}$/.test(o.wait)) throw invalid('--wait must be a whole number of seconds');
        let job = await s.jobs.cancel(systemActor, n);
        for (const until = Date.now() + Number(o.wait) * 1000; !ended(job) && Date.now() < until; ) {
          await Bun.sleep(100);
          job = await s.jobs.get(systemActor, n);
        }
        print(o, job, () => {
          if (job.state === 'cancelled') return `Job ${n} cancelled`;
          if (ended(job)) return `Job ${n} had already ended: ${job.state}`;
          return `Job ${n}: cancel asked for; it is still ${job.state} and stops at its next check`;
        });
      }).catch(fail);
    });
}
