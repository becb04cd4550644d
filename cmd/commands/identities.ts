import type { Command } from 'commander';
import { invalid } from '../../server/core/errors';
import { fail, print, withServices, type GlobalOpts } from '../context';

const CLI = { userId: null, userName: '', address: 'cli' };

/**
 * `filedeck users link | unlink`: an admin ties an existing account to an OpenID Connect subject or an LDAP entry
 * (sign-ins find accounts by that link only, never by name), or unties it.
 */
export function addIdentityCommands(users: Command): void {
  users.command('link').argument('<id|username>')
    .option('--oidc-subject <sub>', "the provider's subject (sub claim) of this person")
    .option('--issuer <url>', 'the OIDC issuer (default: the configured one)')
    .option('--ldap-dn <dn>', "this person's entry in the directory (linked by its entryUUID)")
    .description('link an existing account to an OpenID Connect subject or an LDAP entry')
    .action(async (who: string, _o, cmd: Command) => {
      const o = cmd.optsWithGlobals() as GlobalOpts & { oidcSubject?: string; issuer?: string; ldapDn?: string };
      await withServices(o, async (s) => {
        const u = await s.users.find(who);
        const linked = await s.directory.linkAs(u.id, { oidcSubject: o.oidcSubject, ldapDn: o.ldapDn, issuer: o.issuer }, CLI);
        print(o, { user: u.username, ...linked }, () => `${u.username} is linked to ${linked.provider} ${linked.issuer} ${linked.subject}`);
      }).catch(fail);
    });

  users.command('unlink').argument('<id|username>').option('--provider <oidc|ldap>', 'only this provider (default: both)')
    .description("remove an account's links to OpenID Connect and LDAP")
    .action(async (who: string, _o, cmd: Command) => {
      const o = cmd.optsWithGlobals() as GlobalOpts & { provider?: string };
      await withServices(o, async (s) => {
        if (o.provider !== undefined && o.provider !== 'oidc' && o.provider !== 'ldap') throw invalid('--provider must be oidc or ldap');
        const u = await s.users.find(who);
        const count = await s.directory.unlink(u.id, CLI, o.provider as 'oidc' | 'ldap' | undefined);
        print(o, { user: u.username, count }, () => `${count} link(s) removed from ${u.username}`);
      }).catch(fail);
    });
}
