import type { Logger } from '../../core/log';
import type { IndexNoticesStore } from '../../db/index-notices.store';
import { indexPath } from '../../fs/index-walk';
import { parentPath } from './index-builder';

/**
 * PostgreSQL refuses a NOTIFY payload of 8000 bytes or more; past this, a notice names folders to rescan instead of
 * paths (and past it again, their one common folder).
 */
export const MAX_NOTICE_BYTES = 7000;
/** Own writes are gathered this long into one notice (a batch upload is a few notices, not one per file). */
const GATHER_MS = 20;

/** What one instance tells the others: `i` its id; `p` paths it changed, or `r` folders to rescan whole. */
export interface IndexNotice {
  i: string;
  p?: string[];
  r?: string[];
}

const bytes = (s: string) => Buffer.byteLength(s);
/**
 * Whether `p` is an index path in canonical form ("/", or "/a/b": no ".", "..", empty or own-state component), the
 * only kind a notice may name: the worker reads the disk at root + path, so nothing heard may reach outside the root.
 */
export const isIndexPath = (p: unknown): p is string => typeof p === 'string' && !p.includes('\0') && (p === '/' || indexPath('', p) === p);
const inside = (p: string, folder: string) => folder === '/' || p === folder || p.startsWith(`${folder}/`);

/** The deepest folder holding every path (index paths, "/" first). */
function commonFolder(paths: string[]): string {
  let c = parentPath(paths[0]!);
  for (const p of paths) while (!inside(p, c)) c = parentPath(c);
  return c;
}

/** The notice for `paths` (index paths) from instance `id`, small enough for NOTIFY whatever the paths. */
export function noticeFor(id: string, paths: string[]): string {
  const exact = JSON.stringify({ i: id, p: paths } satisfies IndexNotice);
  if (bytes(exact) <= MAX_NOTICE_BYTES) return exact;
  // Their folders, none inside another (a rescan is deep): one rescan covers all it holds.
  const folders = new Set(paths.map(parentPath));
  const underAnother = (f: string) => {
    for (let a = f; a !== '/'; ) if (folders.has((a = parentPath(a)))) return true;
    return false;
  };
  const outer = [...folders].filter((f) => !underAnother(f)).sort();
  const rescan = JSON.stringify({ i: id, r: outer } satisfies IndexNotice);
  if (bytes(rescan) <= MAX_NOTICE_BYTES) return rescan;
  return JSON.stringify({ i: id, r: [commonFolder(paths)] } satisfies IndexNotice);
}

/**
 * Several instances on one PostgreSQL database each keep their own name index (its file on a local disk, decision
 * 0034), and inotify on one machine does not hear writes made through another. So each instance publishes the
 * paths its own writes changed (the one point every write path reaches: index-hooks.ts → NameIndex.touch) on a
 * channel, and applies what the others publish; its own notices come back to it too, and are ignored by id.
 * Paths are relative to the files root: each instance reaches the root by its own mount.
 */
export class IndexPeers {
  readonly id = crypto.randomUUID();
  private channel: string | null = null;
  private sub: { unlisten(): Promise<void> } | null = null;
  private pending = new Set<string>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private stopped = false;
  /** Notices sent and applied (tests, /metrics). */
  readonly counts = { sent: 0, heard: 0 };

  constructor(private readonly store: IndexNoticesStore, private readonly log: Logger) {}

  /** True when there can be other instances to tell (PostgreSQL). */
  get shared(): boolean {
    return this.store.shared;
  }

  /** True while listening or holding a notice to send (the lifecycle test: false after stop()). */
  get running(): boolean {
    return this.sub !== null || this.timer !== null;
  }

  /** Listens for the others' notices; `onHeard` gets the index paths to bring up to date (each deep). */
  async start(onHeard: (paths: string[]) => void): Promise<void> {
    if (!this.shared || this.sub) return;
    this.stopped = false;
    this.channel = await this.store.channel();
    const sub = await this.store.listen(this.channel, (payload) => {
      let n: IndexNotice;
      try {
        n = JSON.parse(payload) as IndexNotice;
      } catch {
        return; // not ours: nothing else writes on this channel
      }
      if (!n || typeof n !== 'object' || n.i === this.id) return;
      const listed = [...(Array.isArray(n?.p) ? n.p : []), ...(Array.isArray(n?.r) ? n.r : [])];
      const paths = listed.filter(isIndexPath);
      this.counts.heard++;
      if (paths.length) onHeard(paths);
    });
    if (this.stopped) await sub.unlisten(); // stopped while subscribing
    else this.sub = sub;
  }

  /** Index paths this instance just changed: told to the others within GATHER_MS. */
  publish(paths: string[]): void {
    if (!this.sub || !this.channel) return;
    for (const p of paths) this.pending.add(p);
    this.timer ??= setTimeout(() => void this.flush(), GATHER_MS);
  }

  private async flush(): Promise<void> {
    this.timer = null;
    const paths = [...this.pending];
    this.pending.clear();
    if (!paths.length || !this.channel) return;
    try {
      await this.store.notify(this.channel, noticeFor(this.id, paths));
      this.counts.sent++;
    } catch (e) {
      // The others catch up by their periodic sweep; the write itself is done and stays done.
      this.log.warn(`name index: could not tell the other instances (${(e as Error).message})`);
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.pending.clear();
    const sub = this.sub;
    this.sub = null;
    await sub?.unlisten().catch(() => {});
  }
}
