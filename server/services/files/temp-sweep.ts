import { lstat, readdir, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { hasLibc } from '../../fs/libc';
import { isProvenTemp, probeTemp, removeTemp } from '../../fs/temp-file';
import { findTemps } from '../../fs/temp-walk';
import type { Logger } from '../../core/log';
import type { TusService } from './tus.service';

/**
 * An unregistered temp that nobody holds is dead once this old. The floor only covers the instant between a
 * writer's open() and its lock; where locks are unavailable, age is all we have, so a day.
 */
export const TEMP_FLOOR_MS = hasLibc ? 3_000 : 24 * 3600_000;
/** Preview cache renders are written and renamed in one go: one left behind for an hour is a crash's. */
export const PREVIEW_TEMP_MS = 3600_000;
/** The preview cache's temp files: `<key>.<ext>.<uuid>.tmp` (preview.service.ts). */
const PREVIEW_TEMP = /\.[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.tmp$/;

export interface SweepResult {
  uploads: number;
  temps: number;
  previews: number;
}

/**
 * Nothing orphaned: removes what crashes, hang-ups, SIGHUP, renamed parents and failed tus creations leave behind.
 * Expired tus uploads go with their rows; any other `.filedeck-*.part` file or folder under the files root that
 * bears this root's proof (fs/temp-file.ts isProvenTemp: an HMAC under the root's secret), that no row registers
 * and no live writer holds (its flock; a kill -9 drops it) goes once past the age floor; stale
 * preview cache temps go after an hour. Runs at start and periodically, one run at a time, off the request path.
 */
export class TempSweep {
  private running: Promise<SweepResult> | null = null;
  private timer: Timer | null = null;

  constructor(private readonly opts: { root: string; cacheDir: string; tus: TusService; log?: Logger; floorMs?: number }) {}

  /** One full sweep (joins a sweep already running). */
  run(now = Date.now()): Promise<SweepResult> {
    this.running ??= this.sweep(now).finally(() => (this.running = null));
    return this.running;
  }

  /** Sweeps now and then every `everyMs` (the timer does not keep the process alive). */
  start(everyMs = 600_000): void {
    const go = () => void this.run().catch((e) => this.opts.log?.warn(`temp sweep: ${(e as Error).message}`));
    go();
    this.timer = setInterval(go, everyMs);
    this.timer.unref?.();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private async sweep(now: number): Promise<SweepResult> {
    const uploads = await this.opts.tus.sweep(now);
    const registered = await this.opts.tus.registeredTemps();
    const floor = this.opts.floorMs ?? TEMP_FLOOR_MS;
    let temps = 0;
    for await (const p of findTemps(this.opts.root)) {
      // Only what the server can prove it made: a user's file named like a temp is never ours to remove.
      if (registered.has(p) || !isProvenTemp(p)) continue;
      const probe = await probeTemp(p);
      if (!probe || probe.held || now - probe.mtimeMs < floor) continue;
      await removeTemp(p);
      temps++;
    }
    return { uploads, temps, previews: await this.previews(now) };
  }

  /** Preview cache temps sit one level down (`<cacheDir>/<2 hex>/<key>.<ext>.<uuid>.tmp`). */
  private async previews(now: number): Promise<number> {
    let n = 0;
    for (const sub of await readdir(this.opts.cacheDir).catch(() => [] as string[])) {
      if (!/^[0-9a-f]{2}$/.test(sub)) continue;
      const dir = join(this.opts.cacheDir, sub);
      for (const name of await readdir(dir).catch(() => [] as string[])) {
        if (!PREVIEW_TEMP.test(name)) continue;
        const p = join(dir, name);
        const st = await lstat(p).catch(() => null);
        if (st?.isFile() && now - st.mtimeMs > PREVIEW_TEMP_MS && (await unlink(p).then(() => true, () => false))) n++;
      }
    }
    return n;
  }
}
