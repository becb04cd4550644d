import type { StoredUser } from '../../contract/user';
import type { TotpEnrolment } from '../../contract/accounts';
import { exists, invalid } from '../../core/errors';
import type { FactorsStore } from '../../db/factors.store';
import { cleanCode, newTotpSecret, totpStep, totpUri } from './totp';
import { hashRecoveryCode, newRecoveryCode, normaliseRecoveryCode, RECOVERY_CODE_COUNT } from './recovery-codes';

/** Which kind of code matched. */
export type CodeKind = 'totp' | 'recovery';

/**
 * TOTP secrets and recovery codes of one user: the comparisons themselves. Rate limits, tickets and audit are the
 * caller's (FactorsService), so every path that checks a code goes through its one guarded entry.
 */
export class TotpFactor {
  constructor(private readonly store: FactorsStore, private readonly issuer: () => string, private readonly now: () => number = Date.now) {}

  /** A pending secret (not active until confirmed); refused while an active one exists. */
  async begin(user: StoredUser): Promise<TotpEnrolment> {
    const row = await this.store.get(user.id);
    if (row?.totpSecret && row.totpConfirmed) throw exists('two-factor authentication is already on: turn it off first');
    const secret = newTotpSecret();
    await this.store.setPendingTotp(user.id, secret);
    return { secret, uri: totpUri(secret, user.username, this.issuer()) };
  }

  /** True when the user has a pending (unconfirmed) secret. */
  async pending(userId: number): Promise<boolean> {
    const row = await this.store.get(userId);
    return !!row?.totpSecret && !row.totpConfirmed;
  }

  async active(userId: number): Promise<boolean> {
    const row = await this.store.get(userId);
    return !!row?.totpSecret && row.totpConfirmed;
  }

  /** Confirms a pending secret with its first code. False when the code is wrong or there is nothing pending. */
  async confirm(userId: number, code: unknown): Promise<boolean> {
    const c = cleanCode(code);
    const row = await this.store.get(userId);
    if (!c || !row?.totpSecret || row.totpConfirmed) return false;
    const step = totpStep(row.totpSecret, c, this.now());
    return step !== null && (await this.store.acceptStep(userId, row.totpSecret, step, true));
  }

  /**
   * Compares a code: `totp` (a current code whose time step is newer than the last accepted one), `recovery` (an
   * unused recovery code, then used up), or `any`. Null when nothing matched.
   */
  async check(userId: number, kind: CodeKind | 'any', code: unknown): Promise<CodeKind | null> {
    if (kind !== 'recovery') {
      const c = cleanCode(code);
      const row = await this.store.get(userId);
      if (c && row?.totpSecret && row.totpConfirmed) {
        const step = totpStep(row.totpSecret, c, this.now());
        if (step !== null && (await this.store.acceptStep(userId, row.totpSecret, step, false))) return 'totp';
        return null; // six digits are a TOTP code, never a recovery code
      }
    }
    if (kind !== 'totp') {
      const r = normaliseRecoveryCode(code);
      if (r && (await this.store.useRecoveryCode(userId, hashRecoveryCode(r), this.now()))) return 'recovery';
    }
    return null;
  }

  /** Ten new codes (shown once); the old ones stop working. */
  async newRecoveryCodes(userId: number): Promise<string[]> {
    const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
    await this.store.replaceRecoveryCodes(userId, codes.map((c) => hashRecoveryCode(normaliseRecoveryCode(c)!)));
    return codes;
  }

  async recoveryCodesLeft(userId: number): Promise<number> {
    return this.store.recoveryCodesLeft(userId);
  }

  /** TOTP and recovery codes gone (turning off, admin reset). */
  async remove(userId: number): Promise<void> {
    await this.store.clearTotp(userId);
    await this.store.deleteRecoveryCodes(userId);
  }

  async requiredFlag(userId: number): Promise<boolean> {
    return (await this.store.get(userId))?.required ?? false;
  }

  async setRequired(userId: number, required: boolean): Promise<void> {
    if (typeof required !== 'boolean') throw invalid('required must be true or false');
    await this.store.setRequired(userId, required);
  }
}
