import type { DirectoryLoginSettings } from '../../contract/accounts';
import type { StoredUser } from '../../contract/user';
import { AppError, forbidden } from '../../core/errors';
import type { IdentitiesStore, IdentityProvider } from '../../db/identities.store';
import type { UsersStore } from '../../db/users.store';
import { anonymous, triedName, type AuditService, type AuditWho } from '../audit/audit.service';
import { randomPassword } from '../auth/password-policy';
import type { SettingsService } from '../settings/settings.service';
import type { UsersService } from '../users/users.service';
import { hasGroup, managedFields } from './group-grants';
import { ldapSubjectOf } from './ldap-directory';
import { ldapIssuer } from './ldap-issuer';

/** What a directory (OpenID Connect provider, LDAP server) says about the person signing in. */
export interface DirectoryIdentity {
  provider: IdentityProvider;
  /** The OIDC issuer URL, or the LDAP server URL. */
  issuer: string;
  /** OIDC `sub`; LDAP entryUUID, else the DN. */
  subject: string;
  /** The Filedeck username for a new account (never used to find an existing one). */
  username: string;
  groups: string[];
}

export interface DirectoryLoginDeps {
  identities: IdentitiesStore;
  users: UsersStore;
  usersService: UsersService;
  settings: SettingsService;
  audit?: AuditService;
  now?: () => number;
}

/**
 * THE home of "a directory says who this is" (OIDC callbacks and LDAP binds both end here): the account is found by
 * its link (provider, issuer, subject), never by name; the allowed groups are checked; a new account is made only
 * through UsersService.create; and the managed fields are set from the groups the user has now, at every login.
 */
export class DirectoryLogin {
  private readonly now: () => number;

  constructor(private readonly d: DirectoryLoginDeps) {
    this.now = d.now ?? Date.now;
  }

  async signIn(who: DirectoryIdentity, address: string): Promise<StoredUser> {
    const section: DirectoryLoginSettings = this.d.settings.get()[who.provider];
    const ignoreCase = who.provider === 'ldap';
    const refuse = async (reason: string, message: string): Promise<never> => {
      await this.d.audit?.record(anonymous(address), 'login', triedName(who.username), { method: who.provider, reason, subject: triedName(who.subject) }, 'denied');
      throw forbidden(message);
    };
    if (section.allowedGroups.length && !section.allowedGroups.some((g) => hasGroup(who.groups, g, ignoreCase)))
      await refuse('group', 'your account is not in a group allowed to sign in here');
    let user = await this.linkedUser(who);
    if (!user) {
      if (await this.d.users.byUsername(who.username))
        await refuse('unlinked', `an account named "${who.username}" exists but is not linked to this sign-in; an admin can link it (filedeck users link)`);
      if (!section.createUsers) await refuse('no-account', 'no account is linked to this sign-in, and accounts are not made automatically');
      user = await this.create(who, address);
    }
    const by: AuditWho = { userId: user.id, userName: user.username, address };
    const m = managedFields(section, who.groups, this.d.settings.get().defaults.perm, this.d.usersService.templateScope(user.username), ignoreCase);
    try {
      await this.d.usersService.applyManaged(user.id, m, by);
    } catch (e) {
      // The directory would take admin away from the last admin: refused rather than leave the server without one.
      if (e instanceof AppError && e.code === 'FORBIDDEN') await refuse('last-admin', 'this sign-in would remove the last admin; give another account admin rights first');
      throw e;
    }
    await this.d.identities.touch(who.provider, who.issuer, who.subject, this.now());
    const fresh = (await this.d.users.byId(user.id))!;
    await this.d.audit?.record(by, 'login', fresh.username, { method: who.provider, groups: who.groups.slice(0, 50) });
    return fresh;
  }

  private async linkedUser(who: DirectoryIdentity): Promise<StoredUser | null> {
    const link = await this.d.identities.find(who.provider, who.issuer, who.subject);
    return link ? this.d.users.byId(link.userId) : null;
  }

  /** A first login: the account through the one creation path (random locked password), then the link. */
  private async create(who: DirectoryIdentity, address: string): Promise<StoredUser> {
    const made = await this.d.usersService.create(
      { username: who.username, password: randomPassword(), lockPassword: true },
      { forceNonAdmin: true, by: anonymous(address), via: who.provider },
    ).catch(async (e) => {
      // The same identity signing in twice at once: the other request made the account and its link.
      if (e instanceof AppError && e.code === 'EXISTS') {
        const again = await this.linkedUser(who);
        if (again) return again;
      }
      throw e;
    });
    if (!(await this.d.identities.link({ provider: who.provider, issuer: who.issuer, subject: who.subject, userId: made.id, createdAt: this.now() }))) {
      const other = await this.linkedUser(who);
      if (other) return other;
    }
    return (await this.d.users.byId(made.id))!;
  }

  /**
   * An admin links an existing account to an identity (CLI `users link`): OIDC by subject (issuer: the configured
   * one unless given), LDAP by DN (its entryUUID is read from the directory, as logins link by it).
   */
  async linkAs(userId: number, how: { oidcSubject?: string; ldapDn?: string; issuer?: string }, by: AuditWho): Promise<{ provider: IdentityProvider; issuer: string; subject: string }> {
    const s = this.d.settings.get();
    if (!!how.oidcSubject === !!how.ldapDn) throw new AppError('INVALID', 'give one of --oidc-subject or --ldap-dn');
    const target = how.oidcSubject
      ? { provider: 'oidc' as const, issuer: how.issuer || s.oidc.issuer, subject: how.oidcSubject }
      : { provider: 'ldap' as const, issuer: ldapIssuer(s.ldap.url), subject: await ldapSubjectOf(s.ldap, how.ldapDn!) };
    if (!target.issuer) throw new AppError('INVALID', `the ${target.provider} sign-in is not configured (no issuer or URL)`);
    await this.link(userId, target.provider, target.issuer, target.subject, by);
    return target;
  }

  async link(userId: number, provider: IdentityProvider, issuer: string, subject: string, by: AuditWho): Promise<void> {
    if (!(await this.d.identities.link({ provider, issuer, subject, userId, createdAt: this.now() })))
      throw new AppError('EXISTS', 'that identity is already linked to an account');
    const u = await this.d.users.byId(userId);
    await this.d.audit?.record(by, 'user.update', u?.username ?? String(userId), { id: userId, linked: { provider, issuer, subject } });
  }

  async unlink(userId: number, by: AuditWho, provider?: IdentityProvider): Promise<number> {
    const n = await this.d.identities.unlink(userId, provider);
    const u = await this.d.users.byId(userId);
    if (n) await this.d.audit?.record(by, 'user.update', u?.username ?? String(userId), { id: userId, unlinked: provider ?? 'all', count: n });
    return n;
  }

  userById(id: number): Promise<StoredUser | null> {
    return this.d.users.byId(id);
  }

  /** True when the user signs in through this provider (LDAP-linked users never fall back to a local password). */
  isLinked(userId: number, provider: IdentityProvider): Promise<boolean> {
    return this.d.identities.linked(userId, provider);
  }
}
