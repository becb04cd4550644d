import type { Logger } from '../../core/log';
import type { VersionRow } from '../../db/versions.store';
import { diskSpace, ensureVersionsBase, removeVersionFile, restoreMoved, rootVersionsBase, sameFile, versionFiles, versionsBaseOf, versionStat } from '../../fs/versions-fs';
import { retention, thinFile, type Kept } from './retention';
import { effectiveVersions } from './version-settings';
import type { VersionsService } from './versions.service';

/** A keep in flight takes milliseconds (a link, then a rename); older pending rows are what a crash left. */
export const PENDING_GRACE_MS = 5_000;
/** A file in a versions folder no row claims goes once it has not changed for this long (never a keep in flight). */
export const ORPHAN_AGE_MS = 600_000;
/** Retention over every version runs this often (and at start); one file's after each keep. */
export const PRUNE_EVERY_MS = 3_600_000;

/**
 * The versions' upkeep, run by Background: at start (and each minute) the keeps a crash left half-done are finished
 * or undone; retention (retention.ts) over every version at start and hourly, and for one file after each keep (in
 * the background: never in the request that kept it); files no row claims are removed.
 */
export class VersionUpkeep {
  private ticking = false;
  private lastPrune = 0;
  private running = false;
  private queued = new Set<string>();

  constructor(
    private readonly v: VersionsService,
    private readonly log?: Logger,
  ) {
    v.afterKeep = (path) => this.pruneSoon(path);
  }

  /** At start: the versions folder made, half-done keeps resolved, retention run. */
  async start(): Promise<void> {
    await ensureVersionsBase(this.v.d.root);
    await this.tick(true);
  }

  /**
   * Background's minute timer: keeps a crash left resolved, and retention over everything once an hour (or `now`).
   * Never throws (a failure is logged and retried at the next tick).
   */
  async tick(pruneNow = false): Promise<void> {
    if (this.ticking) return;
    this.ticking = true;
    try {
      await this.recover();
      if (pruneNow || this.v.now() - this.lastPrune >= PRUNE_EVERY_MS) {
        this.lastPrune = this.v.now();
        await this.prune();
      }
    } catch (e) {
      this.log?.warn(`versions upkeep: ${(e as Error).message}`);
    } finally {
      this.ticking = false;
    }
  }

  /**
   * Resolves keeps a crash interrupted (pending rows older than the grace): no version file → the row goes; the version
   * is still the current file (the link was made, the overwrite never happened) → the link and the row go; a
   * moved-away file whose name is still empty → it goes back; otherwise the overwrite happened → the version is
   * settled. Then rows whose file vanished go, and files no row claims. Returns how many rows were settled or dropped.
   */
  async recover(now = this.v.now()): Promise<number> {
    const store = this.v.d.store;
    let n = 0;
    for (const r of await store.pendingBefore(now - PENDING_GRACE_MS)) {
      const fileReal = `${this.v.realRoot}/${r.path}`;
      if (!(await versionStat(r.versionReal))) await store.delete(r.id);
      else if (await sameFile(r.versionReal, fileReal)) await this.v.drop(r);
      else if (!(await versionStat(fileReal)) && (await restoreMoved(r.versionReal, fileReal))) await store.delete(r.id);
      else await store.markKept(r.id);
      n++;
    }
    await this.removeOrphans(now);
    return n;
  }

  /** Files in the root's versions folder (and every one a row names) that no row claims, untouched for a while. */
  async removeOrphans(now: number, minAgeMs = ORPHAN_AGE_MS): Promise<number> {
    const claimed = await this.v.d.store.reals();
    const bases = new Set([rootVersionsBase(this.v.d.root), ...[...claimed].map(versionsBaseOf)]);
    let n = 0;
    for (const base of bases)
      for await (const f of versionFiles(base)) {
        if (claimed.has(f.real) || now - f.changedMs < minAgeMs) continue;
        if (await this.v.d.store.byReal(f.real)) continue; // claimed since the list was read
        await removeVersionFile(f.real).catch(() => {});
        n++;
      }
    return n;
  }

  /**
   * Retention over every settled version (or over one file's, `only`): the owner's settings, the per-user cap, the
   * free-space share. `dryRun` answers what would go. Returns the versions that went (or would).
   */
  async prune(opts: { only?: string; dryRun?: boolean } = {}): Promise<VersionRow[]> {
    const d = this.v.d;
    const users = await d.users.all();
    const scopes = users.map((u) => ({ u, prefix: u.scope.replace(/^\/+|\/+$/g, '') })).sort((a, b) => b.prefix.length - a.prefix.length);
    const ownerOf = (path: string) => scopes.find((s) => s.prefix === '' || path === s.prefix || path.startsWith(`${s.prefix}/`))?.u ?? null;
    const global = d.settings();
    if (opts.only !== undefined) {
      // After a keep: that file's thinning only (cheap); the caps across files are the periodic run's.
      const rows = await d.store.ofFile(opts.only);
      const drop = thinFile(rows, this.v.now(), effectiveVersions(global, ownerOf(opts.only)));
      return this.dropAll(rows.filter((r) => drop.has(r.id)), opts.dryRun);
    }
    const all = (await d.store.settled()).filter((r) => r.trashId === null);
    const held = all.reduce((n, r) => n + r.size, 0);
    const free = (await diskSpace(d.root).catch(() => ({ free: Number.MAX_SAFE_INTEGER }))).free + held;
    const drop = retention(all as Kept[], {
      now: this.v.now(),
      settingsFor: (path) => effectiveVersions(global, ownerOf(path)),
      ownerOf: (path) => ownerOf(path)?.id ?? null,
      freeBytes: free,
      maxFreeSharePercent: global.maxFreeSharePercent,
    });
    return this.dropAll(all.filter((r) => drop.has(r.id)), opts.dryRun);
  }

  private async dropAll(gone: VersionRow[], dryRun?: boolean): Promise<VersionRow[]> {
    if (!dryRun) for (const r of gone) await this.v.drop(r).catch((e) => this.log?.warn(`versions prune: ${(e as Error).message}`));
    return gone;
  }

  /** Retention for one file after a keep, off the request (one at a time; a file asked twice meanwhile runs once). */
  private pruneSoon(path: string): void {
    this.queued.add(path);
    if (this.running) return;
    this.running = true;
    const next = async (): Promise<void> => {
      const [p] = this.queued;
      if (p === undefined) return void (this.running = false);
      this.queued.delete(p);
      await this.prune({ only: p }).catch((e) => this.log?.warn(`versions prune: ${(e as Error).message}`));
      return next();
    };
    setTimeout(() => void next(), 0);
  }
}
