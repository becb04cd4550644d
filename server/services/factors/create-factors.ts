import { FactorsStore } from '../../db/factors.store';
import { LoginTicketsStore } from '../../db/login-tickets.store';
import { PasskeysStore } from '../../db/passkeys.store';
import type { Sql } from '../../db/sql';
import type { UsersStore } from '../../db/users.store';
import type { AuditService } from '../audit/audit.service';
import type { RateLimiter } from '../auth/rate-limiter';
import type { SettingsService } from '../settings/settings.service';
import { AccountFactors } from './account-factors';
import { CodeGuard } from './code-guard';
import { FactorsService } from './factors.service';
import { LoginTickets } from './login-tickets';
import { PasskeysFactor } from './passkeys-factor';
import { TotpFactor } from './totp-factor';

/** Builds the second-factor service and its parts over one database (called by the composition root). */
export function createFactors(db: Sql, d: { users: UsersStore; settings: SettingsService; limits: RateLimiter; audit?: AuditService }): FactorsService {
  const tickets = new LoginTickets(new LoginTicketsStore(db), d.limits);
  const totp = new TotpFactor(new FactorsStore(db), () => d.settings.get().branding.name || 'Filedeck');
  const passkeys = new PasskeysFactor(new PasskeysStore(db), tickets);
  const guard = new CodeGuard(d.limits, d.audit);
  const account = new AccountFactors(totp, passkeys, guard, d.audit);
  return new FactorsService({ users: d.users, settings: d.settings, totp, passkeys, tickets, guard, account, audit: d.audit });
}
