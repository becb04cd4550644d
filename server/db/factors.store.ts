import type { Sql } from './sql';

/** A user's TOTP state and the admin's "second factor required" flag (one row per user, made on first need). */
export interface FactorsRow {
  userId: number;
  /** The base32 secret; null when no TOTP was ever started or it was removed. */
  totpSecret: string | null;
  /** False while an enrolment waits for its confirming code. */
  totpConfirmed: boolean;
  /** The newest accepted time step: a code of this step or older is refused (no reuse). */
  totpLastStep: number;
  required: boolean;
}

type Raw = { userId: number; totpSecret: string | null; totpConfirmed: number; totpLastStep: number | string; required: number };
const SELECT = 'SELECT user_id AS "userId", totp_secret AS "totpSecret", totp_confirmed AS "totpConfirmed", totp_last_step AS "totpLastStep", required FROM user_factors';
const row = (r: Raw | null): FactorsRow | null =>
  r ? { userId: Number(r.userId), totpSecret: r.totpSecret ?? null, totpConfirmed: !!Number(r.totpConfirmed), totpLastStep: Number(r.totpLastStep), required: !!Number(r.required) } : null;

/** user_factors and recovery_codes: SQL only; the rules are in services/factors. */
export class FactorsStore {
  constructor(private readonly db: Sql) {}

  async get(userId: number): Promise<FactorsRow | null> {
    return row(await this.db.get<Raw>(`${SELECT} WHERE user_id = ?`, userId));
  }

  /** Starts (or restarts) an enrolment: a new unconfirmed secret; the admin flag is kept. */
  async setPendingTotp(userId: number, secret: string): Promise<void> {
    await this.db.run(
      `INSERT INTO user_factors (user_id, totp_secret, totp_confirmed, totp_last_step) VALUES (?1, ?2, 0, 0)
       ON CONFLICT (user_id) DO UPDATE SET totp_secret = ?2, totp_confirmed = 0, totp_last_step = 0`,
      userId, secret,
    );
  }

  /**
   * Accepts a code's time step, atomically: only when it is newer than the last accepted one (two requests with the
   * same code: exactly one wins). `confirm` also turns a pending enrolment on. False when the step was not newer.
   */
  async acceptStep(userId: number, secret: string, step: number, confirm: boolean): Promise<boolean> {
    const r = await this.db.run(
      `UPDATE user_factors SET totp_last_step = ?, totp_confirmed = CASE WHEN ? = 1 THEN 1 ELSE totp_confirmed END
       WHERE user_id = ? AND totp_secret = ? AND totp_last_step < ?`,
      step, confirm ? 1 : 0, userId, secret, step,
    );
    return r.changes === 1;
  }

  async clearTotp(userId: number): Promise<void> {
    await this.db.run('UPDATE user_factors SET totp_secret = NULL, totp_confirmed = 0, totp_last_step = 0 WHERE user_id = ?', userId);
  }

  async setRequired(userId: number, required: boolean): Promise<void> {
    await this.db.run(
      'INSERT INTO user_factors (user_id, required) VALUES (?1, ?2) ON CONFLICT (user_id) DO UPDATE SET required = ?2',
      userId, required ? 1 : 0,
    );
  }

  /** Replaces every recovery code of the user by these hashes (regenerate: the old ones stop working). */
  async replaceRecoveryCodes(userId: number, hashes: string[]): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.run('DELETE FROM recovery_codes WHERE user_id = ?', userId);
      for (const h of hashes) await tx.run('INSERT INTO recovery_codes (user_id, hash) VALUES (?, ?)', userId, h);
    });
  }

  /** Marks one unused code used, atomically (of two concurrent uses exactly one succeeds). */
  async useRecoveryCode(userId: number, hash: string, now: number): Promise<boolean> {
    const r = await this.db.run('UPDATE recovery_codes SET used_at = ? WHERE user_id = ? AND hash = ? AND used_at IS NULL', now, userId, hash);
    return r.changes === 1;
  }

  async recoveryCodesLeft(userId: number): Promise<number> {
    const r = await this.db.get<{ n: number | string }>('SELECT COUNT(*) AS n FROM recovery_codes WHERE user_id = ? AND used_at IS NULL', userId);
    return Number(r?.n ?? 0);
  }

  async deleteRecoveryCodes(userId: number): Promise<void> {
    await this.db.run('DELETE FROM recovery_codes WHERE user_id = ?', userId);
  }
}
