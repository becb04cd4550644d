import type { Config } from '../../core/config';
import type { Logger } from '../../core/log';
import type { AuditService } from '../audit/audit.service';
import { TempSweep } from '../files/temp-sweep';
import type { TusService } from '../files/tus.service';
import type { NameIndex } from '../index/name-index.service';
import type { JobsService } from '../jobs/jobs.service';
import type { TrashPurge } from '../trash/trash-purge';
import type { VersionUpkeep } from '../versions/version-upkeep';
import type { QuotaService } from '../quota/quota.service';

export interface BackgroundDeps {
  config: Pick<Config, 'root' | 'cacheDir'>;
  log: Logger;
  tus: TusService;
  index: NameIndex;
  purge: TrashPurge;
  jobs: JobsService;
  audit: AuditService;
  /** File versions: half-done keeps resolved at start and each minute, retention at start and hourly. */
  versions?: VersionUpkeep;
  /** Quotas: stale reservations swept at start, usage re-measured every five minutes (outside changes show). */
  quota?: QuotaService;
  /** WebDAV locks: expired rows swept every minute (they are ignored from the moment they expire). */
  davLocks?: () => { sweep(): Promise<number> };
  /** Share webhooks: their delivery timers and requests end with the server (services/shares/share-webhooks.ts). */
  webhooks?: { stop(): Promise<void> };
  /** Access-log lines of links that are gone (deleted with their item or owner), swept hourly. */
  shareLog?: { sweep(): Promise<number> };
}

/** What is running, for the lifecycle test: each must be zero (false) after stop(). */
export interface BackgroundActivity {
  timers: number;
  tempSweep: boolean;
  trashPurge: boolean;
  index: boolean;
}

/**
 * Every task a server runs besides answering requests, started and stopped in one place (serve, the tests and the
 * multi-instance tests all go through it; Services.close() stops it first):
 * - jobs a crash left behind marked interrupted (before any sweep), then the jobs' own timers (recovery, pruning);
 * - expired tus uploads every minute, and the whole root's dead temps at start and every ten minutes;
 * - the name index (built at first start, caught up at restart, then watched);
 * - the trash's retention and size caps, and unclaimed slots, at start and hourly;
 * - audit entries past auditRetentionDays, at start and hourly.
 * Timers never keep the process alive; stop() clears every one, ends the index's worker and watcher, and the jobs'
 * timers, so nothing is left behind.
 */
export class Background {
  private readonly timers = new Set<Timer>();
  private sweep: TempSweep | null = null;
  private started = false;

  constructor(private readonly d: BackgroundDeps) {}

  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    const { log } = this.d;
    // Jobs a crash left behind first: their recovery removes the temp each was writing, and must find it unlocked.
    // The temp sweep below probes every temp by taking its lock for an instant; run together, a probe of the sweep
    // made the recovery take the temp for a live one and leave it (a rare kill -9 test failure under load).
    await this.d.jobs.recover();
    this.d.jobs.startTimers();
    const uploadSweep = () => void this.d.tus.sweep().catch((e) => log.warn(`upload sweep: ${(e as Error).message}`));
    this.every(60_000, uploadSweep);
    this.sweep = new TempSweep({ root: this.d.config.root, cacheDir: this.d.config.cacheDir, tus: this.d.tus, log });
    this.sweep.start(600_000);
    this.d.index.start();
    await this.d.purge.start(this.d.config.root, log, 3_600_000);
    if (this.d.versions) {
      const versions = this.d.versions;
      await versions.start();
      this.every(60_000, () => void versions.tick());
    }
    const auditPurge = () => void this.d.audit.purge().catch((e) => log.warn(`audit purge: ${(e as Error).message}`));
    auditPurge();
    this.every(3_600_000, auditPurge);
    const quota = this.d.quota;
    if (quota) {
      await quota.sweep(await this.d.tus.registeredTemps()).catch((e) => log.warn(`quota sweep: ${(e as Error).message}`));
      const reconcile = () => void quota.reconcile().catch((e) => log.warn(`quota reconcile: ${(e as Error).message}`));
      reconcile();
      this.every(300_000, reconcile);
    }
    const shareLog = this.d.shareLog;
    if (shareLog) this.every(3_600_000, () => void shareLog.sweep().catch((e) => log.warn(`share log sweep: ${(e as Error).message}`)));
    const davLocks = this.d.davLocks;
    if (davLocks) this.every(60_000, () => void davLocks().sweep().catch((e) => log.warn(`webdav lock sweep: ${(e as Error).message}`)));
  }

  /** Stops every task; safe to call more than once, and before start(). */
  async stop(): Promise<void> {
    for (const t of this.timers) clearInterval(t);
    this.timers.clear();
    this.sweep?.stop();
    this.sweep = null;
    this.d.purge.stop();
    if (this.started) await this.d.jobs.close();
    await this.d.index.stop();
    await this.d.webhooks?.stop();
    this.started = false;
  }

  activity(): BackgroundActivity {
    return { timers: this.timers.size, tempSweep: this.sweep !== null, trashPurge: this.d.purge.scheduled, index: this.d.index.running };
  }

  private every(ms: number, fn: () => void): void {
    const t = setInterval(fn, ms);
    t.unref?.();
    this.timers.add(t);
  }
}
