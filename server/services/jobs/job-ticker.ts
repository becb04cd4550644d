import type { Logger } from '../../core/log';
import type { JobsStore } from '../../db/jobs.store';
import type { Live } from './job-live';

const BEAT_MS = 5_000;
const PUBLISH_MS = 250;
const SAVE_MS = 1_000;

/** What the ticker reads and calls of the service holding the jobs. */
export interface TickHost {
  store: JobsStore;
  log: Logger;
  /** The jobs this process holds. */
  live: ReadonlyMap<number, Live>;
  /** Ids of those jobs, waiting or running (their rows get the heartbeat and are asked for cancels). */
  ids(): number[];
  /** The one way a live job is cancelled (JobsService.stop). */
  stop(l: Live): Promise<void>;
  /** Sends a live job's view to listeners. */
  publish(l: Live): void;
  /** Ends a running job whose owner lost the account, the scope or the permission it needs (JobsService.recheck). */
  recheck(l: Live): Promise<void>;
}

/**
 * The periodic work while this process holds jobs: progress to listeners (at most four times a second), progress
 * and the temp being written to the row, the cancels other processes asked for and the owner's current rights
 * (about once a second: a job inside one big folder has no item boundary to check at), and the
 * heartbeat that tells other instances the jobs' process is alive. Runs only while jobs live; never holds the
 * process open.
 */
export class JobTicker {
  private timer: Timer | null = null;
  private lastSave = 0;
  private lastBeat = 0;

  constructor(private readonly host: TickHost) {}

  /** Starts ticking unless it already does (a job was queued). */
  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.tick().catch((e) => this.host.log.warn(`jobs: ${(e as Error).message}`)), PUBLISH_MS);
    this.timer.unref?.();
  }

  /** Stops ticking (the last job ended, or the service closes). */
  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private async tick(): Promise<void> {
    const { store, live } = this.host;
    const now = Date.now();
    const save = now - this.lastSave >= SAVE_MS;
    if (save) {
      this.lastSave = now;
      for (const id of await store.cancelsAsked(this.host.ids())) {
        const l = live.get(id);
        if (l) await this.host.stop(l);
      }
    }
    if (now - this.lastBeat >= BEAT_MS) {
      this.lastBeat = now;
      await store.beat(this.host.ids(), now);
    }
    for (const l of live.values()) {
      if (l.state !== 'running') continue;
      if (save) await this.host.recheck(l);
      if (l.tracker.version !== l.sent) this.host.publish(l);
      if (save && l.tracker.version !== l.saved) {
        l.saved = l.tracker.version;
        await store.progress(l.id, l.tracker.p, l.temp, now);
      }
    }
  }
}
