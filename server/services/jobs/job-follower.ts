import type { Job } from '../../contract/job';
import type { Logger } from '../../core/log';
import type { JobRow, JobsStore } from '../../db/jobs.store';
import { ended, rowJob } from './job-view';

/** Rows read per poll at most; a full page is followed by the next at once, from where it stopped. */
const LIMIT = 200;

export interface FollowTiming {
  /** How often the rows are read while someone follows. */
  pollMs: number;
  /** How long to wait after a failed read (the database is down) before the next try. */
  retryMs: number;
  /**
   * Each pass reads again the rows changed this long before the database's clock at its start: a write stamped
   * before another's but committed after it (the stamp is taken inside the statement) still shows at the next pass.
   */
  overlapMs: number;
}

const TIMING: FollowTiming = { pollMs: 1_000, retryMs: 5_000, overlapMs: 5_000 };

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

interface Seen {
  changedAt: number;
  state: Job['state'];
  cancel: boolean;
  files: number;
  bytes: number;
}

/**
 * Follows the job rows other instances write (one database, several servers): while started, reads the rows
 * changed lately (the overlap) about once a second and hands each new version, as a Job, to `emit`: the same
 * path a local change takes, so the events route's owner check applies as it does to every event. One follower
 * per process, however many streams are open; stopped when the last one closes. A job never goes back from an
 * ended state to a running one, and a version is sent once.
 */
export class JobFollower {
  private active = false;
  private closed = false;
  /** Bumped by start and stop: a poll that began in an earlier run drops what it read (and what went wrong). */
  private run = 0;
  private timer: Timer | null = null;
  /**
   * The database's clock at the start of the latest pass (never lowered): rows changed more than the overlap
   * before it are not read again, so the re-reading and `seen` cover a few seconds of changes, however quiet.
   */
  private mark = 0;
  /** Where the next read starts: (changed_at, id) after which rows are read. */
  private from = { t: 0, id: 0 };
  /** Whether the next read continues a pass (the last page was full) rather than starting one. */
  private paging = false;
  /** Whether the last read failed: an outage is logged once, when it starts, and once when it ends. */
  private failing = false;
  private readonly seen = new Map<number, Seen>();
  private readonly timing: FollowTiming;

  constructor(
    private readonly store: JobsStore,
    private readonly instance: string,
    private readonly emit: (job: Job) => void,
    private readonly log: Logger,
    timing: Partial<FollowTiming> = {},
  ) {
    this.timing = { ...TIMING, ...timing };
  }

  /** Rows whose last version is remembered (those changed within the overlap of the latest pass). */
  get tracked(): number {
    return this.seen.size;
  }

  start(): void {
    if (this.active || this.closed) return;
    this.active = true;
    this.mark = 0;
    this.paging = false;
    this.seen.clear();
    this.next(++this.run, 0);
  }

  stop(): void {
    this.active = false;
    this.run++;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.seen.clear();
  }

  /** Stops for good (the service closes; the database goes next): a later start does nothing. */
  close(): void {
    this.closed = true;
    this.stop();
  }

  private next(run: number, ms: number): void {
    this.timer = setTimeout(() => void this.poll(run), ms);
    this.timer.unref?.();
  }

  /** One read; whatever happens (a failed query included), the next is scheduled while this run lasts. */
  private async poll(run: number): Promise<void> {
    let wait = this.timing.pollMs;
    try {
      if (!this.paging) {
        const now = await this.store.now();
        if (run !== this.run) return;
        this.mark = Math.max(this.mark, now);
        this.from = { t: this.mark - this.timing.overlapMs, id: 0 };
        for (const [id, s] of this.seen) if (s.changedAt < this.from.t) this.seen.delete(id); // never read again
      }
      const rows = await this.store.changedSince(this.from.t, this.from.id, this.instance, LIMIT);
      if (run !== this.run) return;
      if (this.failing) this.log.info('jobs: following other instances again');
      this.failing = false;
      for (const r of rows) this.take(r);
      this.paging = rows.length === LIMIT;
      if (this.paging) {
        this.from = { t: rows.at(-1)!.changedAt, id: rows.at(-1)!.id };
        wait = 0;
      }
    } catch (e) {
      // A read of a run already stopped (closing: the database may be closed under it) has nothing to report.
      if (run !== this.run) return;
      if (!this.failing) this.log.warn(`jobs: following other instances failed, retrying every ${this.timing.retryMs} ms: ${message(e)}`);
      this.failing = true;
      wait = this.timing.retryMs;
    } finally {
      if (run === this.run && this.active) this.next(run, wait);
    }
  }

  /** Emits a row's version unless it was sent already or is older than an end that was. */
  private take(r: JobRow): void {
    const was = this.seen.get(r.id);
    if (was && ended(was.state) && !ended(r.state)) return;
    if (was && r.changedAt <= was.changedAt && r.state === was.state && r.cancelRequested === was.cancel) return;
    const p = r.progress;
    this.seen.set(r.id, { changedAt: r.changedAt, state: r.state, cancel: r.cancelRequested, files: p.filesDone, bytes: p.bytesDone });
    // The rate between this version and the last one seen (progress is saved about once a second).
    let rate = 0;
    let left: number | null = null;
    if (r.state === 'running' && was?.state === 'running' && r.changedAt > was.changedAt) {
      const byBytes = p.bytesTotal > 0;
      const done = byBytes ? p.bytesDone - was.bytes : p.filesDone - was.files;
      rate = Math.max(0, Math.round((done * 1000) / (r.changedAt - was.changedAt)));
      const rest = byBytes ? p.bytesTotal - p.bytesDone : p.filesTotal - p.filesDone;
      left = rate > 0 ? Math.max(0, Math.ceil(rest / rate)) : null;
    }
    this.emit(rowJob(r, rate, left));
  }
}
