import type { AuditAction } from '../../contract/audit';
import { AppError, forbidden } from '../../core/errors';
import type { AuditService, AuditWho } from '../audit/audit.service';
import { factorLimits } from '../auth/limits';
import type { RateLimiter } from '../auth/rate-limiter';

/**
 * The one gate in front of every second-factor comparison (TOTP, recovery codes, passkey assertions): the attempt
 * takes its rate-limit slots first (429 before any comparison, recorded once), a failure keeps them and is audited,
 * a success gives them back and is audited by the caller with what it did.
 */
export class CodeGuard {
  constructor(private readonly limits: RateLimiter, private readonly audit: AuditService | undefined) {}

  /** `compare` answers the match or null/false; the limits are per address and user (codes) or per address (passkeys). */
  async attempt<T>(who: AuditWho, userId: number | null, action: AuditAction, compare: () => Promise<T | null | false>): Promise<T> {
    const limits = userId === null ? factorLimits.passkey(who.address) : [...factorLimits.code(who.address, userId), ...(action === 'login.passkey' ? factorLimits.passkey(who.address) : [])];
    const slot = await this.limits.reserve(limits, 'too many wrong codes, try again later').catch(async (e) => {
      if (e instanceof AppError && e.code === 'RATE_LIMITED') await this.audit?.record(who, action, who.userName, {}, 'limited');
      throw e;
    });
    let got: T | null | false;
    try {
      got = await compare();
    } catch (e) {
      // A refused passkey is a wrong answer like a wrong code: its slots stay taken.
      await this.audit?.record(who, action, who.userName, { reason: e instanceof AppError ? e.detail ?? e.code : 'error' }, 'failed');
      throw e;
    }
    if (got === null || got === false) {
      await this.audit?.record(who, action, who.userName, {}, 'failed');
      throw forbidden('wrong code');
    }
    await slot.succeeded();
    return got;
  }
}
