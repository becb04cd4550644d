import { hostname } from 'node:os';
import type { ExtractionLimits, Job, JobState } from '../../contract/job';
import { AppError, forbidden, isAppError, notFound } from '../../core/errors';
import type { Logger } from '../../core/log';
import type { JobRow, JobsStore } from '../../db/jobs.store';
import { isWithin } from '../../fs/virtual-path';
import type { Actor } from '../actor';
import { extractTarget } from '../archive/extract';
import type { FilesService } from '../files/files.service';
import { authorizePath, type Access } from '../policy/file-policy';
import { JobFollower } from './job-follower';
import { liveJob, type Live } from './job-live';
import { ProgressTracker } from './job-progress';
import { interruptDead, STALE_MS } from './job-recovery';
import { JobQueue } from './job-queue';
import { parseJobRequest, type ValidRequest } from './job-request';
import { runJob } from './job-runners';
import { JobTicker } from './job-ticker';
import { rowJob } from './job-view';

export interface JobsDeps {
  store: JobsStore;
  files: FilesService;
  /** The user's actor as of now (current permissions, scope and rules); null when the user is gone. */
  actorOf(userId: number): Promise<Actor | null>;
  limits(): ExtractionLimits;
  /** DELETE /api/resources' own delete (TrashService.delete): into the trash when it is on, else for good. */
  deleteItem(actor: Actor, path: string, permanent: boolean): Promise<unknown>;
  log: Logger;
  /** Jobs running at once: in all, and of one user (the rest wait in order). */
  slots?: { global: number; perUser: number };
}

/** Which jobs `list` returns: every user's (`all`, admins), one owner's (admins and the CLI), in some states. */
export interface JobFilter {
  all?: boolean;
  owner?: number;
  states?: readonly JobState[];
  limit?: number;
}

/** Ended jobs are kept this long for the panel, then pruned. */
const KEEP_MS = 7 * 24 * 3600_000;

/** What each kind needs before it is queued (the work itself is authorized item by item, where it always is). */
const NEEDS: Record<ValidRequest['kind'], Access> = { copy: 'create', move: 'rename', delete: 'delete', archive: 'create', extract: 'create' };

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
    this.ticker = new JobTicker({ store: deps.store, log: deps.log, live: this.live, ids: () => this.queue.ids(), stop: (l) => this.stop(l), publish: (l) => this.publish(l) });
  }

  /** Validates and queues a job; what is wrong with it at once (bad paths, missing items, permissions) is a 4xx now. */
  async start(actor: Actor, body: unknown): Promise<Job> {
    if (!actor.user) throw forbidden('jobs run for a user');
    const req = parseJobRequest(body);
    authorizePath(actor, NEEDS[req.kind], ...req.items);
    for (const item of req.items) await actor.fs.stat(item); // 404 for a missing item
    if (req.kind === 'copy' || req.kind === 'move' || req.kind === 'archive') {
      authorizePath(actor, 'read', req.destination!);
      const { stats } = await actor.fs.stat(req.destination!);
      if (!stats.isDirectory()) throw new AppError('INVALID', 'the destination must be a folder');
      if (req.kind !== 'archive' && req.items.some((i) => isWithin(req.destination!, i))) throw new AppError('INVALID', 'the destination is inside the source');
    }
    if (req.kind === 'extract') authorizePath(actor, 'create', extractTarget(req.items[0]!, req.destination));
    const tracker = new ProgressTracker();
    const now = Date.now();
    const id = await this.deps.store.insert({ owner: actor.user.id, kind: req.kind, params: req, progress: tracker.p, instance: this.instance }, now);
    const l: Live = { id, owner: actor.user.id, req, state: 'queued', tracker, controller: new AbortController(), temp: '', createdAt: now, startedAt: null, finishedAt: null, error: '', result: null, saved: 0, sent: 0 };
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
    return (await this.deps.store.list({ owner, states: f.states }, f.limit)).map((r) => this.overlay(r));
  }

  async get(actor: Actor, id: number): Promise<Job> {
    return this.overlay(await this.own(actor, id));
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
        this.publish(l);
        const base = await this.deps.actorOf(l.owner);
        if (!base) throw forbidden('the user no longer exists');
        const signal = l.controller.signal;
        const fs = base.fs.observed({ signal, copied: (bytes, path) => l.tracker.add(1, bytes, path), temp: (real) => void (l.temp = real) });
        const actor: Actor = { ...base, fs };
        result = await runJob({ actor, files: this.deps.files, req: l.req, tracker: l.tracker, signal, temp: (real) => void (l.temp = real), limits: this.deps.limits(), deleteItem: this.deps.deleteItem });
      }
    } catch (e) {
      const reason = l.controller.signal.reason;
      if (l.controller.signal.aborted) {
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

  private async end(l: Live, state: JobState, error: string, result: Job['result']): Promise<void> {
    Object.assign(l, { state, error, result, finishedAt: Date.now(), temp: '' });
    await this.deps.store.finish(l.id, state, l.tracker.p, error, result, l.finishedAt!).catch((e) => this.deps.log.warn(`job ${l.id}: ${(e as Error).message}`));
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

  private emit(job: Job): void {
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
