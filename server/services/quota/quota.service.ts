import { randomUUID } from 'node:crypto';
import type { QuotaUsage } from '../../contract/versions';
import type { StoredUser } from '../../contract/user';
import { AppError } from '../../core/errors';
import type { Logger } from '../../core/log';
import type { QuotaStore, UsageRow } from '../../db/quota.store';
import type { UsersStore } from '../../db/users.store';
import { entryUsage, treeUsage } from '../../fs/tree-usage';
import { NO_HOLD, type WriteGate, type WriteHold } from '../../fs/write-gate';
import { QuotaAccounts, scopeRealOf, type QuotaAccount } from './quota-accounts';
import { humanBytes } from './quota-format';
import { QuotaHold } from './quota-hold';

/** A reservation of a write in flight lives this long unless the write goes on (QuotaHold extends it). */
export const HOLD_MS = 5 * 60_000;
/** A refusal re-measures the scope first when its measure is older than this (a delete may have made room). */
const REMEASURE_MS = 2_000;
/** How long usage() waits for a first measure before answering with what it knows. */
const USAGE_WAIT_MS = 1_000;
/** The shown usage of a user without a quota is measured again when older than this. */
const RECHECK_MS = 60_000;

export interface QuotaDeps {
  store: QuotaStore;
  users: UsersStore;
  /** The files root (its real path is the quotas' frame). */
  root: string;
  log: Logger;
  /**
   * Bytes of the versions kept of files under a root-relative prefix ('' = the whole root) plus those in a user's
   * trash (services/versions). Absent: versions count as nothing.
   */
  versionsBytes?: (prefix: string, userId: number) => Promise<number>;
  /** Bytes and files under a real folder from the name index when it can answer (null: measured on disk). */
  indexUsage?: (real: string) => Promise<{ bytes: number; files: number } | null>;
}

/**
 * Quotas (decision 0049): the one home of the decision whether a write may land. `reserve` before it (the bytes
 * and files it declares, against every quota whose scope holds the destination), `settle` or `release` after it
 * (WriteHold). Reservations are rows (quota_reservations) taken in a transaction under each quota's lock, so
 * parallel writes, in one process or several on PostgreSQL, never end above a quota together. The file layer reaches
 * this through the write gate of the files root (server/fs/write-gate.ts), so no write path can get around it.
 */
export class QuotaService implements WriteGate {
  readonly instance = randomUUID();
  readonly accounts: QuotaAccounts;
  readonly realRoot: string;

  constructor(readonly d: QuotaDeps) {
    this.realRoot = scopeRealOf(d.root, { scope: '/' });
    this.accounts = new QuotaAccounts(d.root, async () => ({ mark: await d.store.usersMark(), users: () => d.users.all() }));
  }

  /**
   * Reserves `amount` (or what `measure` finds, asked only when some quota applies) at the real location `dest`.
   * `id` names the reservation (a temp file's path: its resumable upload and its commit share one); `from` is the
   * source of a move (quotas already holding it gain nothing). Throws QUOTA (507) naming the quota and its usage.
   */
  async reserve(dest: string, bytes: number, files: number, opts: { from?: string; counted?: number; id?: string; ttl?: number; measure?: () => Promise<{ bytes: number; files: number }> } = {}): Promise<WriteHold> {
    const over = (await this.accounts.over(dest, opts.from)).filter((a) => a.userId !== opts.counted);
    if (!over.length) return NO_HOLD;
    const amount = opts.measure ? await opts.measure() : { bytes, files };
    const hold = new QuotaHold(this, over, opts.id ?? `w:${randomUUID()}`, opts.ttl ?? HOLD_MS);
    await hold.take(amount.bytes, amount.files);
    return hold;
  }

  /** reserve() for a move of the real entry `from` to `dest`: its size is measured only when a quota gains it. */
  reserveMove(from: string, dest: string, opts: { counted?: number } = {}): Promise<WriteHold> {
    return this.reserve(dest, 0, 0, { from, counted: opts.counted, measure: async () => (await entryUsage(from)) ?? { bytes: 0, files: 0 } });
  }

  /**
   * Sets reservation `id` to hold `total` bytes and files against each account, in one transaction under their
   * locks; nothing changes when one of them would go over (QUOTA). Re-measures a stale scope once before refusing.
   */
  async hold(accounts: QuotaAccount[], id: string, total: { bytes: number; files: number }, ttl: number, attempt = 0): Promise<void> {
    for (const a of accounts) if (!(await this.d.store.usage(a.userId))) await this.measureOnce(a);
    // Versions are read before the transaction: on SQLite a statement outside it would wait for it to end.
    const versions = new Map<number, number>();
    for (const a of accounts) versions.set(a.userId, await this.versionsOf(a));
    const now = Date.now();
    const refused = await this.d.store.transaction(async (q) => {
      for (const a of accounts) await q.lockUser(a.userId);
      for (const a of accounts) {
        const u = (await q.usage(a.userId))!;
        const others = await q.reserved(a.userId, now, id);
        const used = u.bytes + (await q.trashBytes(a.userId)) + versions.get(a.userId)!;
        const { bytes: qb, files: qf } = a.quota;
        // Nothing new fits a full quota (a folder, an empty file); otherwise what the write adds must fit.
        const over = (limit: number, have: number, adds: number) => limit > 0 && (adds > 0 ? have + adds > limit : have >= limit);
        if (over(qb, used + others.bytes, total.bytes) || over(qf, u.files + others.files, total.files)) return { a, used: used + others.bytes, u };
      }
      for (const a of accounts) await q.hold({ id, userId: a.userId, bytes: total.bytes, files: total.files, instance: this.instance, expiresAt: now + ttl });
      return null;
    });
    if (!refused) return;
    if (attempt === 0 && now - refused.u.checkedAt > REMEASURE_MS) {
      await this.measureOnce(refused.a);
      return this.hold(accounts, id, total, ttl, 1);
    }
    // The admin may have chosen that a full quota first gives up its oldest trash and versions (quota-prune.ts).
    const short = refused.used + total.bytes - refused.a.quota.bytes;
    if (attempt < 2 && this.makeRoom && refused.a.quota.bytes && short > 0 && (await this.makeRoom(refused.a.userId, this.prefixOf(refused.a), short)) > 0)
      return this.hold(accounts, id, total, ttl, 2);
    throw overQuota(refused.a, refused.used, refused.u.files);
  }

  /** Versions of files under the account's scope and those its trash took along (services/versions). */
  private versionsOf(a: Pick<QuotaAccount, 'scopeReal' | 'userId'>): Promise<number> {
    return this.d.versionsBytes?.(this.prefixOf(a), a.userId) ?? Promise.resolve(0);
  }

  /** The account's scope relative to the files root ('' = the root), as versions name their files. */
  private prefixOf(a: Pick<QuotaAccount, 'scopeReal'>): string {
    return a.scopeReal === this.realRoot ? '' : a.scopeReal.slice(this.realRoot.length + 1);
  }

  /**
   * Set by the composition root: frees at least `bytes` of a user's trash and versions (oldest first) when the
   * setting `quotaPrunesTrash` is on; returns what it freed (quota-prune.ts).
   */
  makeRoom: ((userId: number, prefix: string, bytes: number) => Promise<number>) | null = null;

  /** A write landed: what it held now counts as stored under each account's scope, and the reservation goes. */
  async settle(accounts: QuotaAccount[], id: string, total: { bytes: number; files: number }): Promise<void> {
    await this.d.store.transaction(async (q) => {
      // Under the same locks as hold(): on PostgreSQL a decision reads the usage and the reservations in two
      // statements, and a settle committing between them would count its bytes in neither.
      for (const a of accounts) await q.lockUser(a.userId);
      for (const a of accounts) await q.add(a.userId, total.bytes, total.files);
      await q.drop(id);
    });
  }

  /** Something left `real`: every quota over it is measured again before it next refuses or shows (WriteGate). */
  async touched(real: string): Promise<void> {
    for (const a of await this.accounts.over(real)) await this.d.store.stale(a.userId);
  }

  /** Gives up reservation `id` (a write refused, failed or abandoned: a resumable upload cancelled or swept). */
  async release(id: string): Promise<void> {
    await this.d.store.drop(id);
  }

  /** Measures an account's scope now (the index when it can answer, else the disk) and stores it. */
  async measure(a: Pick<QuotaAccount, 'scopeReal' | 'userId'>): Promise<void> {
    const seen = (await this.d.store.usage(a.userId)) ?? { deltaBytes: 0, deltaFiles: 0, checkedAt: -1 };
    const got = (await this.d.indexUsage?.(a.scopeReal)) ?? (await treeUsage(a.scopeReal));
    await this.d.store.measured(a.userId, got.bytes, got.files, { bytes: seen.deltaBytes, files: seen.deltaFiles, checkedAt: seen.checkedAt }, Math.max(Date.now(), seen.checkedAt + 1));
  }

  /**
   * What a user's scope holds against their quota (GET /api/account/usage, admin user lists). Never walks the disk
   * on the caller's time: a scope not measured yet is measured in the background (the index answers at once when
   * ready) and, if that takes longer than USAGE_WAIT_MS, the answer is what is known now with `checkedAt` 0.
   */
  async usage(user: StoredUser): Promise<QuotaUsage> {
    const a = { userId: user.id, scopeReal: scopeRealOf(this.d.root, user) };
    let u = await this.d.store.usage(user.id);
    if (!u || !u.checkedAt) {
      const done = this.measureOnce(a);
      await Promise.race([done, Bun.sleep(USAGE_WAIT_MS)]);
      u = await this.d.store.usage(user.id);
    } else if (!(user.quota?.bytes || user.quota?.files) && Date.now() - u.checkedAt > RECHECK_MS) {
      // Without a quota no write settles into this row and the reconcile skips it: measured again, in the background.
      void this.measureOnce(a);
    }
    const trashBytes = await this.d.store.trashBytes(user.id);
    const versionsBytes = await this.versionsOf(a);
    const quota = user.quota && (user.quota.bytes || user.quota.files) ? user.quota : null;
    const bytes = u?.bytes ?? 0;
    return { bytes: bytes + trashBytes + versionsBytes, files: u?.files ?? 0, trashBytes, versionsBytes, quota, checkedAt: u?.checkedAt ?? 0 };
  }

  /** measure(), one at a time per user (usage() of a list of users must not start one walk per request). */
  private measureOnce(a: Pick<QuotaAccount, 'scopeReal' | 'userId'>): Promise<void> {
    let p = this.measuring.get(a.userId);
    if (!p) {
      p = this.measure(a)
        .catch((e) => this.d.log.warn(`quota usage of user ${a.userId}: ${(e as Error).message}`))
        .finally(() => this.measuring.delete(a.userId));
      this.measuring.set(a.userId, p);
    }
    return p;
  }
  private readonly measuring = new Map<number, Promise<void>>();

  /** Re-measures every scope under a quota (the background reconcile; outside changes show here). */
  async reconcile(): Promise<number> {
    const all = await this.accounts.all();
    for (const a of all) await this.measure(a).catch((e) => this.d.log.warn(`quota of ${a.username}: ${(e as Error).message}`));
    return all.length;
  }

  /**
   * At start: reservations that can no longer be in flight go. Expired ones everywhere; on SQLite (one server per
   * database) also every one not kept by a registered resumable upload (`keep`: their temp paths), since whoever
   * held them died with the last process. On PostgreSQL another instance may hold live ones: they expire.
   */
  async sweep(keep: Set<string>): Promise<number> {
    let n = await this.d.store.expire(Date.now());
    if (this.d.store.engine === 'sqlite')
      for (const id of await this.d.store.ids()) if (!(id.startsWith('temp:') && keep.has(id.slice(5)))) n += (await this.d.store.drop(id), 1);
    return n;
  }
}

/** The refusal: 507, naming the quota and the usage ("quota of alice: 1.0 GB, 0.98 GB used"). */
export function overQuota(a: QuotaAccount, usedBytes: number, usedFiles: number): AppError {
  const parts = [];
  if (a.quota.bytes) parts.push(`${humanBytes(a.quota.bytes)}, ${humanBytes(usedBytes)} used`);
  if (a.quota.files) parts.push(`${a.quota.files} files, ${usedFiles} stored`);
  return new AppError('QUOTA', `quota of ${a.username}: ${parts.join('; ')}`);
}
