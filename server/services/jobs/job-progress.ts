import type { JobProgress } from '../../contract/job';

/** Samples kept for the rate: the last few seconds, so a stall shows at once and a burst does not linger. */
const WINDOW_MS = 5_000;

/**
 * A running job's counters, with the rate and time left estimated from the last five seconds: bytes per second
 * when the job moves bytes, else files per second (moves within a filesystem, deletes).
 */
export class ProgressTracker {
  readonly p: JobProgress = { filesDone: 0, filesTotal: 0, bytesDone: 0, bytesTotal: 0, current: '' };
  private samples: { t: number; bytes: number; files: number }[] = [];
  /** Bumped on every change: the publisher sends only what changed. */
  version = 0;

  constructor(private readonly now: () => number = Date.now) {}

  set(patch: Partial<JobProgress>): void {
    Object.assign(this.p, patch);
    this.version++;
    const t = this.now();
    const last = this.samples.at(-1);
    if (!last || t - last.t >= 200) this.samples.push({ t, bytes: this.p.bytesDone, files: this.p.filesDone });
    while (this.samples.length > 2 && t - this.samples[0]!.t > WINDOW_MS) this.samples.shift();
  }

  add(files: number, bytes: number, current?: string): void {
    this.set({ filesDone: this.p.filesDone + files, bytesDone: this.p.bytesDone + bytes, ...(current === undefined ? {} : { current }) });
  }

  /** Bytes (or files, when no bytes move) per second, and seconds left at that rate (null when unknown). */
  estimate(): { rate: number; secondsLeft: number | null } {
    const first = this.samples[0];
    const t = this.now();
    if (!first || t - first.t < 500) return { rate: 0, secondsLeft: null };
    const dt = (t - first.t) / 1000;
    const byBytes = this.p.bytesTotal > 0;
    const rate = byBytes ? (this.p.bytesDone - first.bytes) / dt : (this.p.filesDone - first.files) / dt;
    const left = byBytes ? this.p.bytesTotal - this.p.bytesDone : this.p.filesTotal - this.p.filesDone;
    return { rate: Math.max(0, Math.round(rate)), secondsLeft: rate > 0 ? Math.max(0, Math.ceil(left / rate)) : null };
  }
}
