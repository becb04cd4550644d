import type { StoredUser } from '../../contract/user';
import { AppError } from '../../core/errors';
import { anonymous, triedName, type AuditService } from '../audit/audit.service';
import type { SettingsService } from '../settings/settings.service';
import type { DirectoryLogin } from './directory-login';
import { DirectoryUnreachable, ldapAuthenticate } from './ldap-directory';
import { ldapIssuer } from './ldap-issuer';

export interface LdapLoginDeps {
  settings: SettingsService;
  directory: DirectoryLogin;
  audit?: AuditService;
}

/**
 * The directory's part of a password login (AuthService.loginWithPassword asks it first, inside the login's rate
 * limits). Answers the user when the directory knows the name and the password is right; null to let the local
 * account decide; throws for a wrong password (403), a disabled account (403), an unreachable directory (503).
 */
export class LdapLogin {
  constructor(private readonly d: LdapLoginDeps) {}

  /**
   * `local` is the local account of that name, if any. The fallback rules: a name the directory does not know is
   * left to local accounts (a local admin still signs in), unless that account is linked to LDAP (it never falls
   * back to a local password); an unreachable directory is a 503 for everyone but unlinked local accounts.
   */
  async tryPassword(name: string, password: string, address: string, local: StoredUser | null): Promise<StoredUser | null> {
    const s = this.d.settings.get().ldap;
    if (!s.enabled || !s.url || !name) return null;
    const linked = local ? await this.d.directory.isLinked(local.id, 'ldap') : false;
    let person;
    try {
      person = await ldapAuthenticate(s, name, password);
    } catch (e) {
      if (e instanceof DirectoryUnreachable || (e instanceof AppError && e.code === 'UNAVAILABLE')) {
        if (local && !linked) return null;
        await this.d.audit?.record(anonymous(address), 'login', triedName(name), { method: 'ldap', reason: 'unreachable' }, 'failed');
        throw e;
      }
      await this.d.audit?.record(anonymous(address), 'login', triedName(name), { method: 'ldap', reason: e instanceof AppError ? (e.detail ?? 'password') : 'error' }, 'failed');
      throw e;
    }
    if (!person) {
      if (!linked) return null;
      await this.d.audit?.record(anonymous(address), 'login', triedName(name), { method: 'ldap', reason: 'gone from the directory' }, 'failed');
      throw new AppError('FORBIDDEN');
    }
    return this.d.directory.signIn({ provider: 'ldap', issuer: ldapIssuer(s.url), subject: person.subject, username: person.username, groups: person.groups }, address);
  }
}
