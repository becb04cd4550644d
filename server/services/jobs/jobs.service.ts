import { hostname } from 'node:os';
import type { ExtractionLimits, Job, JobState } from '../../contract/job';
import { AppError, forbidden, isAppError, notFound } from '../../core/errors';
import type { Logger } from '../../core/log';
import type { JobCaps, JobRow, JobsStore } from '../../db/jobs.store';
import { isWithin } from '../../fs/virtual-path';
import type { Actor } from '../actor';
import type { FilesService } from '../files/files.service';
import { authorizeJob, lostReason } from './job-actor';
import { DEFAULT_JOB_CAPS, overCap, tooMany } from './job-caps';
import { JobFollower } from './job-follower';
import { liveJob, type Live } from './job-live';
import { ProgressTracker } from './job-progress';
import { interruptDead, STALE_MS } from './job-recovery';
import { JobQueue } from './job-queue';
import { parseJobRequest, type ValidRequest } from './job-request';
import { runJob } from './job-runners';
import { JobTicker } from './job-ticker';
import { brief, briefParams, briefResult, rowJob } from './job-view';
import type { TokenLimits } from '../policy/token-limits';

export interface JobsDeps {
  store: JobsStore;
  files: FilesService;
  /** The user's actor as of now (current permissions, scope and rules); null when the user is gone. */
  actorOf(userId: number, limits?: TokenLimits): Promise<Actor | null>;
  limits(): ExtractionLimits;
  /** DELETE /api/resources' own delete (TrashService.delete): into the trash when it is on, else for good. */
  deleteItem(actor: Actor, path: string, permanent: boolean): Promise<unknown>;
  log: Logger;
  /** Jobs running at once: in all, and of one user (the rest wait in order). */
  slots?: { global: number; perUser: number };
  /** Queued and running jobs, and their items, per user and in all (config; past them a start is a 429). */
  caps?: JobCaps;
}


/** Which jobs `list` returns: every user's (`all`, admins), one owner's (admins and the CLI), in some states. */
export interface JobFilter {
  all?: boolean;
  owner?: number;
  states?: readonly JobState[];
  limit?: number;
  /** Only jobs older than this one (a page's cursor: the last id of the page before). */
  before?: number;
}

/** Ended jobs are kept this long for the panel, then pruned. */
const KEEP_MS = 7 * 24 * 3600_000;

/**
 * Background jobs: copy, move, delete, archive-to-file and extraction of large trees, started by one request and
 * run in the server (not the request), with progress pushed to listeners, cancellable, and on record in the `jobs`
 * table. Each item of a job goes through the same function as its HTTP route (job-runners.ts), so this service
 * decides nothing about files: it schedules (JobQueue), reports (ProgressTracker, JobTicker) and records. A job
 * whose process died (kill -9, power loss) is marked interrupted at the next start, or by another instance once its
 * heartbeat is stale, and the temp it was writing is removed: finished, failed, cancelled or interrupted, never a
 * silent half.
 */
export class JobsService {
  /** This process among instances sharing the database: host, pid and a random tag. */
  readonly instance = `${hostname()}:${process.pid}:${crypto.randomUUID().slice(0, 8)}`;
  private readonly live = new Map<number, Live>();
  private readonly queue: JobQueue<Live>;
  private readonly listeners = new Set<(job: Job) => void>();
  private timers: Timer[] = [];
  /** Progress, saves, cross-process cancels and heartbeats while this process holds jobs (job-ticker.ts). */
  private readonly ticker: JobTicker;
  /** Other instances' job rows, emitted like local changes while anyone listens (PostgreSQL only: job-follower.ts). */
  private readonly follower: JobFollower | null;

  constructor(private readonly deps: JobsDeps) {
    this.queue = new JobQueue(deps.slots?.global ?? 2, deps.slots?.perUser ?? 1);
    this.follower = deps.store.shared ? new JobFollower(deps.store, this.instance, (j) => this.emit(j), deps.log) : null;
    this.ticker = new JobTicker({ store: deps.store, log: deps.log, live: this.live, ids: () => this.queue.ids(), stop: (l) => this.stop(l), publish: (l) => this.publish(l), recheck: (l) => this.recheck(l) });
  }

  /** Validates and queues a job; what is wrong with it at once (bad paths, missing items, permissions) is a 4xx now. */
  async start(actor: Actor, body: unknown): Promise<Job> {
    if (!actor.user) throw forbidden('jobs run for a user');
    const req = parseJobRequest(body);
    authorizeJob(actor, req);
    const caps = this.deps.caps ?? DEFAULT_JOB_CAPS;
    if (req.items.length > caps.itemsPerUser) throw tooMany(`a job may hold at most ${caps.itemsPerUser} items here`);
    for (const item of req.items) await actor.fs.stat(item); // 404 for a missing item
    if (req.kind === 'copy' || req.kind === 'move' || req.kind === 'archive') {
      const { stats } = await actor.fs.stat(req.destination!);
      if (!stats.isDirectory()) throw new AppError('INVALID', 'the destination must be a folder');
      if (req.kind !== 'archive' && req.items.some((i) => isWithin(req.destination!, i))) throw new AppError('INVALID', 'the destination is inside the source');
    }
    const tracker = new ProgressTracker();
    const now = Date.now();
    const id = await this.deps.store.insertCapped({ owner: actor.user.id, kind: req.kind, params: req, progress: tracker.p, instance: this.instance }, now, caps);
    if (id === null) throw tooMany(await overCap(this.deps.store, actor.user.id, req.items.length, caps));
    // A waiting job keeps only its first items in memory; its row holds them all and is read when it starts.
    const l: Live = { id, owner: actor.user.id, req: briefParams(req) as ValidRequest, scope: actor.user.scope, limits: actor.limits, state: 'queued', tracker, controller: new AbortController(), temp: '', createdAt: now, startedAt: null, finishedAt: null, error: '', result: null, saved: 0, sent: 0 };
    this.live.set(id, l);
    this.queue.push(l);
    this.ticker.start();
    this.publish(l);
    this.pump();
    return liveJob(l);
  }

  /**
   * The caller's jobs, newest first: every user's for an admin asking for all and for the CLI (the system actor),
   * or one owner's when named (admins and the CLI only); optionally only those in some states.
   */
  async list(actor: Actor, f: JobFilter = {}): Promise<Job[]> {
    const admin = actor.can('admin');
    if (f.owner !== undefined && !admin && f.owner !== actor.user?.id) throw forbidden('only admins see other users\' jobs');
    const owner = f.owner ?? (admin && (f.all || !actor.user) ? null : actor.user!.id);
    return (await this.deps.store.list({ owner, states: f.states }, f.limit, f.before)).map((r) => brief(this.overlay(r)));
  }

  /** One job; while it is queued or running, with every item it was given (its row holds them). */
  async get(actor: Actor, id: number): Promise<Job> {
    const row = await this.own(actor, id);
    const j = this.overlay(row);
    return j.state === 'queued' || j.state === 'running' ? { ...j, params: row.params } : j;
  }

  /**
   * Ends every unfinished job of a user who is being deleted: this process's at once (a running one stops at its
   * next check, failed with `reason`), another process's through its row (a queued one there and then, a running
   * one at that process's next tick, which also finds the account gone).
   */
  async endOwner(owner: number, reason: string): Promise<void> {
    for (const id of await this.deps.store.activeOf(owner)) {
      const l = this.live.get(id);
      if (l) {
        if (this.queue.drop(l.id)) await this.end(l, 'cancelled', reason, null);
        else if (!l.controller.signal.aborted) l.controller.abort(new AppError('FORBIDDEN', reason));
      } else if (!(await this.deps.store.cancelQueued(id, Date.now()))) await this.deps.store.requestCancel(id);
    }
  }

  /**
   * Checks a running job's owner as the database has them now (account, scope, the permission and rules its kind
   * needs: job-actor.ts) and stops the job when they no longer allow it: the ticker calls it about once a second.
   */
  async recheck(l: Live): Promise<void> {
    if (l.state !== 'running' || l.controller.signal.aborted) return;
    const why = lostReason(l.req, l.scope, await this.deps.actorOf(l.owner, l.limits));
    if (why && !l.controller.signal.aborted) l.controller.abort(new AppError('FORBIDDEN', why));
  }

  /**
   * Cancels a job of the caller (an admin and the CLI: anyone's). A queued job ends at once; a running one at its
   * next check. A job held by another process (another instance; the server, when the CLI asks) is cancelled through
   * its row: a queued one there and then, a running one by a flag that its process reads on its next tick (about a
   * second) and handles exactly as a local cancel (`stop`).
   */
  async cancel(actor: Actor, id: number): Promise<Job> {
    const row = await this.own(actor, id);
    const l = this.live.get(id);
    if (l) {
      await this.stop(l);
      return liveJob(l);
    }
    if (row.state !== 'queued' && row.state !== 'running') return this.overlay(row);
    if (!(await this.deps.store.cancelQueued(id, Date.now()))) await this.deps.store.requestCancel(id);
    return this.overlay((await this.deps.store.get(id)) ?? row);
  }

  /**
   * Every job change (state, and progress at most four times a second), for the SSE route: this process's jobs as
   * they change, and (several instances on PostgreSQL) other instances' jobs as their rows change, about once a
   * second, followed only while at least one listener is here.
   */
  subscribe(fn: (job: Job) => void): () => void {
    this.listeners.add(fn);
    if (this.listeners.size === 1) this.follower?.start();
    return () => {
      if (this.listeners.delete(fn) && !this.listeners.size) this.follower?.stop();
    };
  }

  /**
   * Marks jobs whose process is gone as interrupted and removes the temp each was writing (only when no live process
   * holds it): at start (this host's dead pids at once) and periodically (any instance's, by heartbeat).
   */
  async recover(now = Date.now()): Promise<number> {
    return interruptDead(this.deps.store, (id) => this.live.has(id), now);
  }

  /** The periodic dead-job check and pruning (serve); progress and heartbeats tick while jobs live. */
  startTimers(): void {
    const every = (ms: number, fn: () => Promise<unknown> | void) => {
      const t = setInterval(() => void Promise.resolve(fn()).catch((e) => this.deps.log.warn(`jobs: ${(e as Error).message}`)), ms);
      t.unref?.();
      this.timers.push(t);
    };
    every(STALE_MS, () => this.recover());
    every(3600_000, () => this.deps.store.prune(Date.now() - KEEP_MS));
  }

  /** Stops timers and every job of this process; their rows end as interrupted (a stop is not a user's cancel). */
  async close(): Promise<void> {
    this.follower?.close();
    for (const t of this.timers) clearInterval(t);
    this.timers = [];
    this.ticker.stop();
    const ending = [...this.live.values()];
    for (const l of ending) {
      if (this.queue.drop(l.id)) await this.end(l, 'interrupted', 'the server was stopped before the job started', null);
      else l.controller.abort(new AppError('UNAVAILABLE', 'the server was stopped during the job'));
    }
    for (let i = 0; i < 100 && this.live.size; i++) await Bun.sleep(20);
  }

  /** A job the actor may see: their own; any for an admin and for the CLI (the system actor can do anything). */
  private async own(actor: Actor, id: number): Promise<JobRow> {
    const row = Number.isSafeInteger(id) && id > 0 ? await this.deps.store.get(id) : null;
    if (!row || (row.owner !== actor.user?.id && !actor.can('admin'))) throw notFound(Number.isSafeInteger(id) ? `no job ${id}` : 'no such job');
    return row;
  }

  /** The one way a live job is cancelled, whoever asked: a waiting job ends now, a running one is aborted. */
  private async stop(l: Live): Promise<void> {
    if (this.queue.drop(l.id)) await this.end(l, 'cancelled', 'cancelled', null);
    else if (!l.controller.signal.aborted) l.controller.abort(new AppError('EXISTS', 'cancelled'));
  }

  private pump(): void {
    for (const l of this.queue.next()) void this.run(l);
  }

  private async run(l: Live): Promise<void> {
    l.state = 'running';
    l.startedAt = Date.now();
    let state: JobState = 'done';
    let error = '';
    let result: Job['result'] = null;
    try {
      if (!(await this.deps.store.started(l.id, l.startedAt))) {
        // Its row ended while it waited (cancelled from another process, which already wrote the end): it never runs.
        state = 'cancelled';
        error = 'cancelled';
      } else {
        const row = await this.deps.store.get(l.id);
        if (row) l.req = row.params as ValidRequest; // every item, from the row (the queue held only the first few)
        this.publish(l);
        const signal = l.controller.signal;
        // The owner as of now, each time it is asked (before each item, at each commit): gone, moved to another scope
        // or without the permission the job needs, the job ends here.
        const current = async (): Promise<Actor> => {
          const now = await this.deps.actorOf(l.owner, l.limits);
          const why = lostReason(l.req, l.scope, now, []); // each item's own operation checks its rules
          if (why) throw new AppError('FORBIDDEN', why);
          return { ...now!, fs: now!.fs.observed({ signal, copied: (bytes, path) => l.tracker.add(1, bytes, path), temp: (real) => void (l.temp = real) }) };
        };
        const actor = await current();
        result = await runJob({ actor, current, files: this.deps.files, req: l.req, tracker: l.tracker, signal, temp: (real) => void (l.temp = real), limits: this.deps.limits(), deleteItem: this.deps.deleteItem });
      }
    } catch (e) {
      const reason = l.controller.signal.reason;
      if (l.controller.signal.aborted && isAppError(reason) && reason.code === 'FORBIDDEN') {
        state = 'failed'; // its owner lost the account, the scope or the permission (recheck)
        error = reason.detail ?? 'stopped: access denied';
      } else if (l.controller.signal.aborted) {
        state = isAppError(reason) && reason.code === 'UNAVAILABLE' ? 'interrupted' : 'cancelled';
        error = isAppError(reason) ? reason.detail ?? 'cancelled' : 'cancelled';
      } else {
        state = 'failed';
        error = isAppError(e) && e.code !== 'INTERNAL' ? e.detail ?? e.code.toLowerCase().replace('_', ' ') : 'internal error';
        if (!isAppError(e) || e.code === 'INTERNAL') this.deps.log.error(`job ${l.id}: ${(e as Error)?.message ?? e}`);
      }
    }
    await this.end(l, state, error, result);
  }

  /** Called once for each job this process ran when it ends (metrics). */
  onLocalEnd(fn: (job: { id: number; kind: string; state: JobState }) => void): void {
    this.endListeners.add(fn);
  }
  private readonly endListeners = new Set<(job: { id: number; kind: string; state: JobState }) => void>();

  private async end(l: Live, state: JobState, error: string, result: Job['result']): Promise<void> {
    Object.assign(l, { state, error, result: briefResult(result), finishedAt: Date.now(), temp: '' });
    for (const fn of this.endListeners) fn({ id: l.id, kind: l.req.kind, state });
    // An ended job stays on record for a week with a summary of its items, so cancelled floods do not pile up.
    await this.deps.store.finish(l.id, state, l.tracker.p, error, l.result, l.finishedAt!, briefParams(l.req)).catch((e) => this.deps.log.warn(`job ${l.id}: ${(e as Error).message}`));
    this.live.delete(l.id);
    this.queue.finished(l.id);
    if (!this.live.size) this.ticker.stop();
    const row = await this.deps.store.get(l.id).catch(() => null);
    if (row) this.emit(this.overlay(row));
    this.pump();
  }

  private publish(l: Live): void {
    l.sent = l.tracker.version;
    this.emit(liveJob(l));
  }

  private emit(full: Job): void {
    const job = brief(full);
    for (const fn of this.listeners) {
      try {
        fn(job);
      } catch {
        // a listener that failed (a closed stream) is its route's concern
      }
    }
  }

  private overlay(r: JobRow): Job {
    const l = this.live.get(r.id);
    return l ? liveJob(l) : rowJob(r);
  }
}
