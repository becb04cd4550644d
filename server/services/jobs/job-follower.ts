import type { Job } from '../../contract/job';
import type { Logger } from '../../core/log';
import type { JobRow, JobsStore } from '../../db/jobs.store';
import { ended, rowJob } from './job-view';

/** How often the rows are read while someone follows. */
const POLL_MS = 1_000;
/**
 * Each poll reads again the rows changed this long before the newest change seen: a write stamped before another's
 * but committed after it (the stamp is taken inside the statement) still shows at the next poll.
 */
const OVERLAP_MS = 5_000;
/** Rows read per poll at most; a full page is followed by the next at once, from where it stopped. */
const LIMIT = 200;

interface Seen {
  changedAt: number;
  state: Job['state'];
  cancel: boolean;
  files: number;
  bytes: number;
}

/**
 * Follows the job rows other instances write (one database, several servers): while started, reads the rows
 * changed since the last one seen about once a second and hands each new version, as a Job, to `emit`: the same
 * path a local change takes, so the events route's owner check applies as it does to every event. One follower
 * per process, however many streams are open; stopped when the last one closes. A job never goes back from an
 * ended state to a running one, and a version is sent once.
 */
export class JobFollower {
  private active = false;
  /** Bumped by start and stop: a poll that began in an earlier run drops what it read. */
  private run = 0;
  private timer: Timer | null = null;
  /** The newest change seen (database clock); 0 until the first poll of a run reads the clock. */
  private mark = 0;
  /** Where the next poll starts: (changed_at, id) after which rows are read. */
  private from = { t: 0, id: 0 };
  private readonly seen = new Map<number, Seen>();

  constructor(
    private readonly store: JobsStore,
    private readonly instance: string,
    private readonly emit: (job: Job) => void,
    private readonly log: Logger,
  ) {}

  start(): void {
    if (this.active) return;
    this.active = true;
    this.mark = 0;
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

  private next(run: number, ms: number): void {
    this.timer = setTimeout(() => void this.poll(run), ms);
    this.timer.unref?.();
  }

  private async poll(run: number): Promise<void> {
    let full = false;
    try {
      if (!this.mark) {
        const now = await this.store.now();
        if (run !== this.run) return;
        this.mark = now;
        this.from = { t: now - OVERLAP_MS, id: 0 };
      }
      const rows = await this.store.changedSince(this.from.t, this.from.id, this.instance, LIMIT);
      if (run !== this.run) return;
      for (const r of rows) this.take(r);
      full = rows.length === LIMIT;
      if (full) this.from = { t: rows.at(-1)!.changedAt, id: rows.at(-1)!.id };
      else {
        this.from = { t: this.mark - OVERLAP_MS, id: 0 };
        for (const [id, s] of this.seen) if (s.changedAt < this.from.t) this.seen.delete(id); // never read again
      }
    } catch (e) {
      this.log.warn(`jobs: following other instances: ${(e as Error).message}`);
    }
    if (run === this.run && this.active) this.next(run, full ? 0 : POLL_MS);
  }

  /** Emits a row's version unless it was sent already or is older than an end that was. */
  private take(r: JobRow): void {
    const was = this.seen.get(r.id);
    if (was && ended(was.state) && !ended(r.state)) return;
    if (was && r.changedAt <= was.changedAt && r.state === was.state && r.cancelRequested === was.cancel) return;
    const p = r.progress;
    this.seen.set(r.id, { changedAt: r.changedAt, state: r.state, cancel: r.cancelRequested, files: p.filesDone, bytes: p.bytesDone });
    this.mark = Math.max(this.mark, r.changedAt);
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
