import type { TrashSettings } from '../../contract/trash';
import type { SharesStore } from '../../db/shares.store';
import type { TrashRow, TrashStore } from '../../db/trash.store';
import type { UsersStore } from '../../db/users.store';
import type { Logger } from '../../core/log';
import { join } from 'node:path';
import { ensureTrashBase, removeTrashed, TRASH_DIR } from '../../fs/trash-fs';
import { removeSlot, slotChangedMs, slotOf, trashBaseOf, trashSlots } from '../../fs/trash-slots';
import { effectiveTrash } from './trash-settings';

const DAY = 86_400_000;
/**
 * A slot no row claims is removed only once it has not changed for this long: an item is moved into its slot a
 * moment before its row is written, and a slot a crash left between the two is the only other way to have none.
 */
export const UNCLAIMED_AGE_MS = 3600_000;

/**
 * Deleting trash items for good: one at a time (a row is the claim on its item, so two instances never fight
 * over one), by retention (items older than the owner's `retentionDays`) and by size cap (past the owner's
 * `maxBytes`, the oldest go first; the newest item always stays, so a delete never silently becomes permanent).
 */
export class TrashPurge {
  constructor(
    private readonly store: TrashStore,
    private readonly users: UsersStore,
    private readonly shares: SharesStore,
    private readonly settings: () => TrashSettings,
    private readonly now: () => number = Date.now,
  ) {}

  /** The files root, once start() is given it: where unclaimed slots are looked for. */
  private root: string | null = null;
  private timer: Timer | null = null;

  /** Makes the root's trash folder, then purges now and every `everyMs` (one run at a time; the timer does not keep the process alive). */
  async start(root: string, log: Logger, everyMs: number): Promise<void> {
    await ensureTrashBase(root);
    this.root = root;
    let running = false;
    const go = () => {
      if (running) return;
      running = true;
      void this.run()
        .then((n) => n && log.info(`trash: ${n} item(s) past retention or size cap deleted`))
        .catch((e) => log.warn(`trash purge: ${(e as Error).message}`))
        .finally(() => (running = false));
    };
    go();
    this.stop();
    this.timer = setInterval(go, everyMs);
    this.timer.unref?.();
  }

  /** Stops the periodic purge (a run in progress finishes on its own). */
  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** True while the periodic purge is scheduled (the lifecycle test). */
  get scheduled(): boolean {
    return this.timer !== null;
  }

  /** Told after an item went for good (the versions it took along go too: services/versions). */
  onRemoved: ((id: string) => Promise<void>) | null = null;

  /** Deletes an item's files and links, if this caller wins its row. */
  async removeRow(r: TrashRow): Promise<boolean> {
    if (!(await this.store.delete(r.id))) return false;
    await removeTrashed(r.trashReal);
    await this.shares.deleteUnderTarget(r.trashReal);
    await this.onRemoved?.(r.id);
    return true;
  }

  /**
   * Retention and size cap for every user with items in the trash, then slots no item claims (server start and
   * hourly; `filedeck trash purge`). Returns how many went.
   */
  async run(root = this.root): Promise<number> {
    const users = new Map((await this.users.all()).map((u) => [u.id, u]));
    let n = 0;
    for (const owner of await this.store.owners()) {
      const s = effectiveTrash(this.settings(), users.get(owner) ?? null);
      if (s.retentionDays > 0) for (const r of await this.store.olderThan(this.now() - s.retentionDays * DAY, owner)) if (await this.removeRow(r)) n++;
      n += await this.enforceCap(owner);
    }
    if (root) n += await this.removeUnclaimed(root);
    return n;
  }

  /** Deletes every item of one user for good (the user is being deleted). Returns how many went. */
  async removeOwner(owner: number): Promise<number> {
    let n = 0;
    for (const r of await this.store.list(owner)) if (await this.removeRow(r)) n++;
    return n;
  }

  /** Gives every item of one user to another (a user deleted with their trash handed to an admin). */
  handOver(from: number, to: number): Promise<number> {
    return this.store.reassign(from, to);
  }

  /**
   * Removes trash slots on disk that no row claims (a user deleted before their trash went with them, a crash
   * between an item's move and its row): only folders of the trash's own naming (`<trash>/<user id>/<uuid>`) in the
   * root's trash and in every trash a row names, untouched for `minAgeMs`. Each is looked at twice, `settleMs` apart,
   * and goes only if it is still unclaimed and untouched: a restore deletes its row a moment before it renames the
   * item out (which touches the slot), so a slot caught in between is never taken for abandoned. Returns how many went.
   */
  async removeUnclaimed(root: string, minAgeMs = UNCLAIMED_AGE_MS, settleMs = 2000): Promise<number> {
    const reals = await this.store.trashReals();
    const claimed = new Set([...reals].map(slotOf));
    const bases = new Set([join(root, TRASH_DIR), ...[...reals].map(trashBaseOf)]);
    const suspects: { slot: string; changedMs: number }[] = [];
    for (const base of bases)
      for await (const s of trashSlots(base)) if (!claimed.has(s.slot) && this.now() - s.changedMs >= minAgeMs) suspects.push(s);
    if (!suspects.length) return 0;
    if (settleMs > 0) await Bun.sleep(settleMs);
    let n = 0;
    for (const { slot, changedMs } of suspects) {
      if ((await slotChangedMs(slot)) !== changedMs || (await this.store.slotClaimed(slot))) continue;
      await removeSlot(slot);
      await this.shares.deleteUnderTarget(slot);
      n++;
    }
    return n;
  }

  /** Past the owner's size cap, their oldest items go (never `keep`, nor the newest item). */
  async enforceCap(owner: number, keep?: string): Promise<number> {
    const user = await this.users.byId(owner);
    const cap = effectiveTrash(this.settings(), user).maxBytes;
    if (cap <= 0) return 0;
    const rows = await this.store.list(owner); // newest first
    let total = rows.reduce((sum, r) => sum + r.size, 0);
    let n = 0;
    for (let i = rows.length - 1; i > 0 && total > cap; i--) {
      const r = rows[i]!;
      if (r.id === keep) continue;
      if (await this.removeRow(r)) n++;
      total -= r.size;
    }
    return n;
  }
}
