import { mkdirSync, realpathSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Logger } from '../../core/log';
import type { Actor } from '../actor';
import { NameIndexStore } from '../../db/name-index.store';
import { indexPath } from '../../fs/index-walk';
import { watchTree, type TreeWatch } from '../../fs/tree-watch';
import { IndexBuilder } from './index-builder';
import { beneathBoth, visibleSizes, type VisibleSizes } from './visible-sizes';
import { HeldSizes } from './held-sizes';
import type { IndexEvent, IndexJob } from './index.worker';
import type { IndexPeers } from './index-peers';
import { workerSpecifier } from '../../core/worker-url';

/** How long a listing trusts the last readiness answer (see readyRecently). */
const READY_TTL_MS = 1000;
/**
 * The periodic sweep's slice (several instances: what none of them wrote): at most this many folders, and it stops
 * after the folder that brought the entries read to SWEEP_ENTRIES (a few hundred milliseconds of the worker's time).
 */
export const SWEEP_FOLDERS = 500;
export const SWEEP_ENTRIES = 20_000;

export interface NameIndexOptions {
  /** The index file (per instance, in the cache folder). */
  file: string;
  root: string;
  log: Logger;
  /** Most folders watched through inotify (0: as many as the kernel allows); past it, periodic reconciles. */
  watchLimit: number;
  /** Full reconcile while watching (catches what the watcher missed). */
  reconcileMs: number;
  /** Reconcile period when not watching (the watch limit was reached). */
  pollMs: number;
  /**
   * Other instances on the same PostgreSQL database (index-peers.ts): own writes are told to them, theirs applied
   * here, and a sweep of SWEEP_FOLDERS folders runs every `pollMs` for writes no instance made.
   */
  peers?: IndexPeers;
}

export interface IndexStatus {
  state: 'off' | 'building' | 'ready';
  /** Build progress, 0–100 (an estimate from the last build's count). */
  percent: number;
  entries: number;
  folders: number;
  builtAt: number | null;
  lastReconcile: number | null;
  /** How changes made outside the server are noticed. */
  watching: 'inotify' | 'polling' | 'off';
}

/**
 * The per-instance name index (search, folder sizes). Reads happen here on the main thread (indexed queries);
 * every write happens on the index worker thread, which builds at first start, catches up at restart, applies
 * the paths the watcher and the server's own writes report, and reconciles on a schedule.
 */
export class NameIndex {
  readonly root: string;
  private store: NameIndexStore | null = null;
  private worker: Worker | null = null;
  private watch: TreeWatch | null = null;
  private timer: ReturnType<typeof setInterval> | null = null;
  private done = 0;
  private pings = new Map<number, () => void>();
  private nextPing = 1;
  watching: IndexStatus['watching'] = 'off';
  /** Full builds this process's worker started (the first one and every rebuild): /metrics. */
  builds = 0;

  constructor(readonly opts: NameIndexOptions) {
    let root = opts.root;
    try {
      root = realpathSync(root);
    } catch {
      // not created yet: used as given
    }
    this.root = root;
  }

  /** The reader connection (also creates the file and schema). */
  private db(): NameIndexStore {
    if (!this.store) {
      mkdirSync(dirname(this.opts.file), { recursive: true });
      this.store = new NameIndexStore(this.opts.file);
      this.store.commits = this.held.generation;
    }
    return this.store;
  }

  /** Starts the worker (build or catch-up), the watcher and the reconcile schedule. */
  start(): void {
    if (this.worker) return;
    this.db();
    const w = new Worker(workerSpecifier('server/services/index/index.worker.ts', import.meta.url));
    this.worker = w;
    w.onmessage = (e: MessageEvent<IndexEvent>) => this.onEvent(e.data);
    w.onerror = (e) => this.opts.log.error(`index worker: ${(e as ErrorEvent).message}`);
    this.post({ type: 'init', file: this.opts.file, root: this.root, generation: this.held.generation.buffer as SharedArrayBuffer });
    this.startWatching();
    this.startPeers();
  }

  /** With other instances possible: hear their writes, and sweep a slice of the tree every pollMs. */
  private startPeers(): void {
    const peers = this.opts.peers;
    if (!peers?.shared) return;
    peers.start((paths) => this.post({ type: 'touch', paths, deep: true })).catch((e) => this.opts.log.warn(`name index: not listening to the other instances (${(e as Error).message}); their writes show after the sweep`));
    this.sweepTimer = setInterval(() => this.post({ type: 'sweep', folders: SWEEP_FOLDERS, entries: SWEEP_ENTRIES }), this.opts.pollMs);
    this.sweepTimer.unref?.();
  }
  private sweepTimer: ReturnType<typeof setInterval> | null = null;

  private onEvent(e: IndexEvent): void {
    if (e.type === 'progress') this.done = e.done;
    else if (e.type === 'pong') {
      this.pings.get(e.id)?.();
      this.pings.delete(e.id);
    } else if (e.type === 'error') this.opts.log.warn(`name index: ${e.message}`);
    else if (e.type === 'state' && e.state === 'building') this.builds++;
    else if (e.type === 'state' && e.state === 'ready') {
      this.opts.log.info(`name index ready (${this.db().counts().entries} entries)`);
      this.checkWatchLimit();
    }
  }

  private post(job: IndexJob): void {
    this.worker?.postMessage(job);
  }

  private startWatching(): void {
    this.watch = watchTree(
      this.root,
      (abs) => {
        if (abs.includes(null)) return this.post({ type: 'reconcile' });
        const paths = (abs as string[]).map((a) => indexPath(this.root, a)).filter((p): p is string => p !== null);
        // A path and its parent: a name that appeared or vanished changes the folder (mtime, totals) too.
        if (paths.length) this.post({ type: 'touch', paths, deep: false });
      },
      (e) => this.fallBack(`the folder watch failed (${(e as NodeJS.ErrnoException).code ?? e.message}; the kernel's inotify watch limit is fs.inotify.max_user_watches)`),
    );
    this.watching = 'inotify';
    this.schedule(this.opts.reconcileMs);
  }

  /** After a build: more folders than the configured watch limit means periodic reconciles instead of watching. */
  private checkWatchLimit(): void {
    const limit = this.opts.watchLimit;
    if (!limit || this.watching !== 'inotify') return;
    const folders = this.db().counts().folders + 1;
    if (folders > limit) this.fallBack(`${folders} folders exceed the watch limit of ${limit} (indexWatchLimit)`);
  }

  private fallBack(why: string): void {
    this.watch?.close();
    this.watch = null;
    this.watching = 'polling';
    this.opts.log.warn(`name index: ${why}; changes made outside the server are picked up by a reconcile every ${Math.round(this.opts.pollMs / 1000)} s`);
    this.schedule(this.opts.pollMs);
  }

  private schedule(ms: number): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = setInterval(() => this.post({ type: 'reconcile' }), ms);
    this.timer.unref?.();
  }

  /** Absolute paths the server itself just changed (created, replaced, moved away or in, deleted). */
  touch(abs: string[]): void {
    if (!this.worker) return;
    const paths = abs.map((a) => indexPath(this.root, a)).filter((p): p is string => p !== null);
    if (!paths.length) return;
    this.post({ type: 'touch', paths, deep: true });
    this.opts.peers?.publish(paths);
  }

  /** Resolves once everything reported so far is in the index (tests, the CLI). */
  settled(): Promise<void> {
    if (!this.worker) return Promise.resolve();
    const id = this.nextPing++;
    return new Promise((resolve) => {
      this.pings.set(id, resolve);
      this.post({ type: 'ping', id });
    });
  }

  /** Starts a full build from nothing (in the worker) and resolves when it is done. */
  async rebuild(): Promise<void> {
    this.readyCheckedAt = -Infinity;
    this.post({ type: 'build' });
    await this.settled();
  }

  /**
   * A full build on this thread, without the worker (the CLI's `index rebuild`; a running server sees the state
   * "building" in the file, searches by walking meanwhile, and keeps applying its changes afterwards).
   */
  async rebuildHere(onProgress: (done: number) => void = () => {}): Promise<void> {
    await new IndexBuilder(this.db(), this.root, onProgress).build();
  }

  /** Runs a full reconcile now and resolves when it is done. */
  async reconcile(): Promise<void> {
    this.post({ type: 'reconcile' });
    await this.settled();
  }

  /** True when search and folder sizes can come from the index. */
  ready(): boolean {
    return this.db().readyFor(this.root);
  }

  /**
   * ready(), asked of the database at most once a second: every listing asks it (for folder sizes), and a rebuild
   * started by another process (the CLI) shows here within that second. Search asks ready() itself.
   */
  private readyRecently(): boolean {
    const now = Date.now();
    if (now - this.readyCheckedAt >= READY_TTL_MS) {
      this.readyValue = this.ready();
      this.readyCheckedAt = now;
    }
    return this.readyValue;
  }
  private readyCheckedAt = -Infinity;
  private readyValue = false;

  status(): IndexStatus {
    const s = this.db();
    const raw = s.meta('state');
    const state = raw === 'ready' && s.meta('root') === this.root ? 'ready' : raw === 'building' ? 'building' : 'off';
    const counts = s.counts();
    const estimate = Number(s.meta('estimate') ?? 0);
    const done = Math.max(this.done, Number(s.meta('progress') ?? 0));
    const percent = state === 'ready' ? 100 : estimate ? Math.min(99, Math.floor((done / estimate) * 100)) : 0;
    const num = (k: string) => (s.meta(k) === null ? null : Number(s.meta(k)));
    return { state, percent, ...counts, builtAt: num('built_at'), lastReconcile: num('last_reconcile'), watching: this.watching };
  }

  /**
   * Bytes and files beneath a real folder (a quota's scope: services/quota), an index lookup and a range count;
   * null while the index is not ready or does not hold the folder (the quota then measures the disk).
   */
  usageUnder(real: string): { bytes: number; files: number } | null {
    const p = indexPath(this.root, real);
    if (p === null || !this.ready()) return null;
    return this.db().usageUnder(p);
  }

  /** The reader store, for search (index-search.ts). */
  reader(): NameIndexStore {
    return this.db();
  }

  /**
   * Sizes of what `actor` can see beneath the folder at virtual `path` (absolute real path `absDir`) and beneath
   * each of its sub-folders (visible-sizes.ts); null while the index is not ready or does not hold the folder.
   */
  visibleSizes(actor: Actor, path: string, absDir: string): VisibleSizes | null {
    const p = indexPath(this.root, absDir);
    if (p === null || !this.readyRecently()) return null;
    const db = this.db();
    // A folder reached through a link: the rules also hold where it really is.
    const realPath = actor.fs.realPathOf(path, absDir);
    const read = () => db.snapshot(() => visibleSizes(db, actor, path, p, undefined, realPath));
    // Without path or regex rules beneath, the answer depends on the index and dotfile hiding alone: the same for
    // every such caller, kept until the next commit to the index (its change mark, read before the rows).
    const f = beneathBoth(actor, path, realPath);
    if (f.regex || f.paths.length || f.realPaths.length) return read();
    return this.held.get(db, f.dotfiles ? `.${p}` : p, read); // index paths start with "/"
  }
  /** Folder sizes held between changes of the index (held-sizes.ts). */
  private readonly held = new HeldSizes();

  /** True while the worker, the watcher or the reconcile timer exists (the lifecycle test: false after close()). */
  get running(): boolean {
    return this.worker !== null || this.watch !== null || this.timer !== null || this.sweepTimer !== null || !!this.opts.peers?.running;
  }

  /** close(), then resolves once the worker thread has closed its database and ended (at most ~2 s). */
  async stop(): Promise<void> {
    const w = this.worker;
    const ended = w ? new Promise<void>((r) => w.addEventListener('close', () => r(), { once: true })) : Promise.resolve();
    this.close();
    await this.opts.peers?.stop();
    let timer: Timer | undefined;
    await Promise.race([ended, new Promise<void>((r) => (timer = setTimeout(r, 2500)))]);
    clearTimeout(timer);
  }

  close(): void {
    this.watch?.close();
    this.watch = null;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    this.sweepTimer = null;
    void this.opts.peers?.stop();
    const w = this.worker;
    if (w) {
      // Asked to close its database and end; terminated anyway if it has not within 2 s (a build stuck on a slow disk).
      w.postMessage({ type: 'close' } satisfies IndexJob);
      setTimeout(() => w.terminate(), 2000).unref?.();
    }
    this.worker = null;
    for (const r of this.pings.values()) r();
    this.store?.close();
    this.store = null;
  }
}
