import type { PasskeyInfo, TotpEnrolment } from '../../contract/accounts';
import type { StoredUser } from '../../contract/user';
import { forbidden, invalid } from '../../core/errors';
import type { Actor } from '../actor';
import { whoOf, type AuditService } from '../audit/audit.service';
import type { CodeGuard } from './code-guard';
import { passkeyInfo, type PasskeysFactor } from './passkeys-factor';
import type { RelyingParty } from './relying-party';
import type { TotpFactor } from './totp-factor';

/**
 * The signed-in user of an actor. API tokens never get here: the auth plugin refuses them on /api/account/* (the one
 * home of that rule, decision 0044).
 */
export function accountUser(actor: Actor): StoredUser {
  if (!actor.user) throw forbidden();
  return actor.user;
}

/**
 * The signed-in user's own second factors (/api/account/…): TOTP enrolment, turning it off, recovery codes and
 * passkeys. A change that weakens the account (TOTP off, new recovery codes) needs a current code, checked behind
 * the same CodeGuard as logins.
 */
export class AccountFactors {
  constructor(private readonly totp: TotpFactor, private readonly passkeys: PasskeysFactor, private readonly guard: CodeGuard, private readonly audit?: AuditService) {}

  beginTotp(actor: Actor): Promise<TotpEnrolment> {
    return this.totp.begin(accountUser(actor));
  }

  /** The first code of a pending secret turns TOTP on; answers the ten recovery codes (shown once). */
  async confirmTotp(actor: Actor, code: unknown): Promise<{ recoveryCodes: string[] }> {
    const user = accountUser(actor);
    if (!(await this.totp.pending(user.id))) throw invalid('no authenticator is waiting for confirmation: start again');
    await this.guard.attempt(whoOf(actor), user.id, 'factors.totp.enable', () => this.totp.confirm(user.id, code));
    const recoveryCodes = await this.totp.newRecoveryCodes(user.id);
    await this.audit?.record(actor, 'factors.totp.enable', user.username);
    return { recoveryCodes };
  }

  /** TOTP and its recovery codes off, with a current TOTP or recovery code. */
  async disableTotp(actor: Actor, code: unknown): Promise<void> {
    const user = accountUser(actor);
    if (!(await this.totp.active(user.id))) throw invalid('two-factor authentication is not on');
    await this.guard.attempt(whoOf(actor), user.id, 'factors.totp.disable', () => this.totp.check(user.id, 'any', code));
    await this.totp.remove(user.id);
    await this.audit?.record(actor, 'factors.totp.disable', user.username);
  }

  /** Ten new recovery codes; the old ones stop working. */
  async regenerateRecoveryCodes(actor: Actor, code: unknown): Promise<{ recoveryCodes: string[] }> {
    const user = accountUser(actor);
    if (!(await this.totp.active(user.id))) throw invalid('turn on two-factor authentication first');
    await this.guard.attempt(whoOf(actor), user.id, 'factors.recovery.regenerate', () => this.totp.check(user.id, 'any', code));
    const recoveryCodes = await this.totp.newRecoveryCodes(user.id);
    await this.audit?.record(actor, 'factors.recovery.regenerate', user.username);
    return { recoveryCodes };
  }

  passkeyOptions(actor: Actor, rp: RelyingParty): Promise<{ challengeId: string; options: unknown }> {
    return this.passkeys.registrationOptions(accountUser(actor), rp, whoOf(actor).address);
  }

  async addPasskey(actor: Actor, challengeId: unknown, response: unknown, name: unknown): Promise<PasskeyInfo> {
    const user = accountUser(actor);
    const row = await this.passkeys.register(user, challengeId, response, name, whoOf(actor).address).catch(async (e) => {
      await this.audit?.record(actor, 'factors.passkey.add', user.username, {}, 'failed');
      throw e;
    });
    await this.audit?.record(actor, 'factors.passkey.add', user.username, { name: row.name });
    return passkeyInfo(row);
  }

  async renamePasskey(actor: Actor, id: string, name: unknown): Promise<void> {
    const user = accountUser(actor);
    await this.passkeys.rename(user.id, id, name);
    await this.audit?.record(actor, 'factors.passkey.rename', user.username, { id });
  }

  async removePasskey(actor: Actor, id: string): Promise<void> {
    const user = accountUser(actor);
    await this.passkeys.remove(user.id, id);
    await this.audit?.record(actor, 'factors.passkey.remove', user.username, { id });
  }
}
