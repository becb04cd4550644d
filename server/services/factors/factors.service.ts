import type { FactorStatus, LoginMethod, SecondFactorMethod, SecondFactorStep, TotpEnrolment } from '../../contract/accounts';
import type { StoredUser } from '../../contract/user';
import { invalid, notFound, unauthorized } from '../../core/errors';
import type { UsersStore } from '../../db/users.store';
import type { Actor } from '../actor';
import { whoOf, type AuditService, type AuditWho } from '../audit/audit.service';
import type { SettingsService } from '../settings/settings.service';
import type { CodeGuard } from './code-guard';
import type { LoginTickets } from './login-tickets';
import { passkeyInfo, type PasskeysFactor } from './passkeys-factor';
import type { RelyingParty } from './relying-party';
import type { TotpFactor } from './totp-factor';
import { accountUser, type AccountFactors } from './account-factors';

export interface FactorsDeps {
  users: UsersStore;
  settings: SettingsService;
  totp: TotpFactor;
  passkeys: PasskeysFactor;
  tickets: LoginTickets;
  guard: CodeGuard;
  /** The signed-in user's own changes (/api/account/…). */
  account: AccountFactors;
  audit?: AuditService;
}

/** A finished sign-in: who, and the method the session records (the first factor's, or 'passkey'). */
export interface SignedIn {
  user: StoredUser;
  method: LoginMethod;
  /** Set when this step turned TOTP on (an enrolment at login): the ten recovery codes, shown once. */
  recoveryCodes?: string[];
}

const who = (u: StoredUser, address: string): AuditWho => ({ userId: u.id, userName: u.username, address });
const firstMethod = (payload: Record<string, unknown>): LoginMethod => (payload.method === 'ldap' ? 'ldap' : 'password');

/**
 * Second factors: what a user has, the second step of a password login, passkey sign-in and the admin's reset and
 * "required" flag. Every code and assertion is compared behind CodeGuard (rate limits, audit); every ticket and
 * challenge is single-use, bound to its address and 5 minutes long (LoginTickets). The signed-in user's own changes
 * are in account-factors.ts.
 */
export class FactorsService {
  constructor(private readonly d: FactorsDeps) {}

  get account(): AccountFactors {
    return this.d.account;
  }

  async status(userId: number): Promise<FactorStatus> {
    const [totp, recoveryCodesLeft, passkeys, required] = await Promise.all([
      this.d.totp.active(userId), this.d.totp.recoveryCodesLeft(userId), this.d.passkeys.list(userId), this.required(userId),
    ]);
    return { totp, recoveryCodesLeft, passkeys: passkeys.map(passkeyInfo), required };
  }

  /** The signed-in user's own status (not through an API token). */
  accountStatus(actor: Actor): Promise<FactorStatus> {
    return this.status(accountUser(actor).id);
  }

  /** TOTP or a passkey is set up: the account password alone must not be enough (tokens, WebDAV). */
  async hasSecondFactor(userId: number): Promise<boolean> {
    return (await this.d.totp.active(userId)) || (await this.d.passkeys.count(userId)) > 0;
  }

  async required(userId: number): Promise<boolean> {
    return this.d.settings.get().twoFactor.required || (await this.d.totp.requiredFlag(userId));
  }

  /**
   * After a right password (or LDAP bind): null when the session may start now; otherwise the step to answer
   * with a fresh ticket: 'second-factor' with the user's methods, or 'enrol-second-factor' when one is required and
   * none is set up.
   */
  async secondStep(user: StoredUser, address: string, method: LoginMethod = 'password'): Promise<SecondFactorStep | null> {
    const methods: SecondFactorMethod[] = [];
    if (await this.d.totp.active(user.id)) methods.push('totp');
    if ((await this.d.totp.recoveryCodesLeft(user.id)) > 0) methods.push('recovery');
    if ((await this.d.passkeys.count(user.id)) > 0) methods.push('passkey');
    if (methods.length) return { step: 'second-factor', ticket: await this.d.tickets.issue('second-factor', user.id, { method }, address), methods };
    if (!(await this.required(user.id))) return null;
    return { step: 'enrol-second-factor', ticket: await this.d.tickets.issue('enrol-second-factor', user.id, { method }, address), methods: ['totp'] };
  }

  /** The user of a ticket, still there. */
  private async userOf(userId: number | null): Promise<StoredUser> {
    const user = userId === null ? null : await this.d.users.byId(userId);
    if (!user) throw unauthorized('the sign-in step expired or is unknown: sign in again');
    return user;
  }

  /** An enrolment ticket: a pending TOTP secret for its user (confirmed by secondFactor with that ticket). */
  async enrolAtLogin(ticketId: unknown, address: string): Promise<TotpEnrolment> {
    const t = await this.d.tickets.open(ticketId, address, ['enrol-second-factor']);
    return this.d.totp.begin(await this.userOf(t.userId));
  }

  /**
   * The second step: a TOTP or recovery code for a 'second-factor' ticket, or the confirming TOTP code of an
   * enrolment ticket (which turns TOTP on and makes the recovery codes). Wrong: 403, and the fifth ends the ticket.
   */
  async secondFactor(ticketId: unknown, method: unknown, code: unknown, address: string): Promise<SignedIn> {
    if (method !== 'totp' && method !== 'recovery') throw invalid('method must be totp or recovery');
    const t = await this.d.tickets.open(ticketId, address, ['second-factor', 'enrol-second-factor']);
    const user = await this.userOf(t.userId);
    const enrol = t.kind === 'enrol-second-factor';
    if (enrol && method !== 'totp') throw invalid('confirm the new authenticator with a TOTP code');
    const action = method === 'totp' ? 'login.totp' : 'login.recovery';
    await this.d.guard.attempt(who(user, address), user.id, action, async () => {
      const ok = enrol ? await this.d.totp.confirm(user.id, code) : await this.d.totp.check(user.id, method, code);
      if (!ok) await this.d.tickets.wrong(t.id);
      return ok;
    });
    await this.d.tickets.take(t.id);
    const recoveryCodes = enrol ? await this.d.totp.newRecoveryCodes(user.id) : undefined;
    await this.d.audit?.record(who(user, address), action, user.username, { first: firstMethod(t.payload), enrolled: enrol || undefined });
    if (enrol) await this.d.audit?.record(who(user, address), 'factors.totp.enable', user.username, { atLogin: true });
    return { user, method: firstMethod(t.payload), recoveryCodes };
  }

  /** Request options: with a 'second-factor' ticket that user's passkeys; without, any discoverable passkey. */
  async passkeyOptions(ticketId: unknown, rp: RelyingParty, address: string): Promise<{ challengeId: string; options: unknown }> {
    if (ticketId === undefined || ticketId === null) return this.d.passkeys.loginOptions(null, null, rp, address);
    const t = await this.d.tickets.open(ticketId, address, ['second-factor']);
    return this.d.passkeys.loginOptions(t.userId, t.id, rp, address);
  }

  /**
   * A passkey sign-in: the challenge is taken first (a replayed answer finds nothing), then the assertion is checked
   * behind the guard. As a second factor the ticket must be the one the challenge was made for, and is taken too.
   */
  async passkeyLogin(challengeId: unknown, response: unknown, ticketId: unknown, address: string): Promise<SignedIn> {
    const ch = await this.d.tickets.open(challengeId, address, ['passkey-login']);
    await this.d.tickets.take(ch.id);
    const second = ch.payload.ticket as string | null;
    if ((ticketId ?? null) !== second) throw invalid('ticket does not match this challenge');
    const t = second === null ? null : await this.d.tickets.open(second, address, ['second-factor']);
    const who0: AuditWho = t ? who(await this.userOf(t.userId), address) : { userId: null, userName: '', address };
    const pk = await this.d.guard.attempt(who0, t?.userId ?? null, 'login.passkey', () =>
      this.d.passkeys.verifyAssertion(ch, response).catch(async (e) => {
        if (t) await this.d.tickets.wrong(t.id);
        throw e;
      }),
    );
    if (t) await this.d.tickets.take(t.id);
    const user = await this.userOf(pk.userId);
    await this.d.audit?.record(who(user, address), 'login.passkey', user.username, { passkey: pk.name, secondFactor: !!t });
    return { user, method: t ? firstMethod(t.payload) : 'passkey' };
  }

  /** Admin: TOTP, recovery codes and passkeys of a user removed (the "required" flag stays). */
  async reset(admin: Actor, userId: number): Promise<void> {
    const user = await this.d.users.byId(userId);
    if (!user) throw notFound('no such user');
    await this.d.totp.remove(userId);
    const passkeys = await this.d.passkeys.removeAll(userId);
    await this.d.tickets.dropUser(userId);
    await this.d.audit?.record(whoOf(admin), 'factors.reset', user.username, { passkeys });
  }

  /** Admin: this user must (or no longer must) use a second factor. */
  async setRequired(admin: Actor, userId: number, required: unknown): Promise<void> {
    if (typeof required !== 'boolean') throw invalid('required must be true or false');
    const user = await this.d.users.byId(userId);
    if (!user) throw notFound('no such user');
    await this.d.totp.setRequired(userId, required);
    await this.d.audit?.record(whoOf(admin), 'factors.required', user.username, { required });
  }

  async statusOf(userId: number): Promise<FactorStatus> {
    if (!(await this.d.users.byId(userId))) throw notFound('no such user');
    return this.status(userId);
  }
}
