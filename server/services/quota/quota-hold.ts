import type { WriteHold } from '../../fs/write-gate';
import type { QuotaAccount } from './quota-accounts';

/** What a hold asks of the quota service (quota.service.ts), without importing it. */
export interface HoldBackend {
  hold(accounts: QuotaAccount[], id: string, total: { bytes: number; files: number }, ttl: number): Promise<void>;
  settle(accounts: QuotaAccount[], id: string, total: { bytes: number; files: number }): Promise<void>;
  release(id: string): Promise<void>;
}

/** The largest step a stream's reservation grows by at once (fewer transactions for big files). */
const MAX_STEP = 16 * 1024 * 1024;

/**
 * One write's reservation against the quotas over its destination. A stream without a declared size grows it as it
 * writes: each step is reserved before the bytes are written (doubling up to MAX_STEP, never past what is needed
 * when room is short), so the write stops at the limit with 507 and its temp is discarded by the writer.
 */
export class QuotaHold implements WriteHold {
  /** Bytes and files reserved, and how much of it the write has used. */
  private reserved = { bytes: 0, files: 0 };
  private used = { bytes: 0, files: 0 };
  private ended = false;
  private renewAt = 0;

  constructor(private readonly svc: HoldBackend, private readonly accounts: QuotaAccount[], readonly id: string, private readonly ttl: number) {}

  /** Reserves exactly this much (the declared size), before the first byte. */
  async take(bytes: number, files: number): Promise<void> {
    await this.svc.hold(this.accounts, this.id, { bytes, files }, this.ttl);
    this.reserved = { bytes, files };
    this.used = { bytes, files };
    this.renewAt = Date.now() + this.ttl / 2;
  }

  async grow(bytes: number, files = 0): Promise<void> {
    const want = { bytes: this.used.bytes + bytes, files: this.used.files + files };
    if (want.bytes > this.reserved.bytes || want.files > this.reserved.files) {
      const step = Math.min(MAX_STEP, Math.max(bytes, this.reserved.bytes));
      const ahead = { bytes: Math.max(want.bytes, this.reserved.bytes + step), files: Math.max(want.files, this.reserved.files) };
      try {
        await this.svc.hold(this.accounts, this.id, ahead, this.ttl);
        this.reserved = ahead;
      } catch {
        await this.svc.hold(this.accounts, this.id, want, this.ttl); // room for exactly this, or the 507
        this.reserved = want;
      }
      this.renewAt = Date.now() + this.ttl / 2;
    } else if (Date.now() > this.renewAt) {
      await this.svc.hold(this.accounts, this.id, this.reserved, this.ttl); // a long write keeps its reservation
      this.renewAt = Date.now() + this.ttl / 2;
    }
    this.used = want;
  }

  async settle(): Promise<void> {
    if (this.ended) return;
    this.ended = true;
    await this.svc.settle(this.accounts, this.id, this.used);
  }

  async release(): Promise<void> {
    if (this.ended) return;
    this.ended = true;
    await this.svc.release(this.id);
  }
}
