import type { Command } from 'commander';
import { notFound } from '../../server/core/errors';
import { systemActor } from '../../server/services/actor';
import type { Services } from '../../server/services/services';
import { fail, print, withServices, type GlobalOpts } from '../context';

async function userId(s: Services, ref: string): Promise<number> {
  const u = await s.stores.users.byRef(ref);
  if (!u) throw notFound(`no user "${ref}"`);
  return u.id;
}

/**
 * `filedeck factors show | reset | require`: the admin's API calls for a user's second factors, from the shell (the
 * way back in for an admin who lost their authenticator and recovery codes). Same service, audited as the CLI.
 */
export function registerFactors(program: Command): void {
  const factors = program.command('factors').description("a user's second factors (TOTP, recovery codes, passkeys)");
  factors.command('show').argument('<user>', 'id or username').description('what the user has set up').action(async (ref: string, _o, cmd: Command) => {
    const o = cmd.optsWithGlobals() as GlobalOpts;
    await withServices(o, async (s) => {
      const st = await s.factors.statusOf(await userId(s, ref));
      print(o, st, () => `TOTP: ${st.totp ? 'on' : 'off'}\nRecovery codes left: ${st.recoveryCodesLeft}\nPasskeys: ${st.passkeys.map((p) => p.name).join(', ') || 'none'}\nRequired: ${st.required ? 'yes' : 'no'}`);
    }).catch(fail);
  });
  factors.command('reset').argument('<user>', 'id or username').description('remove TOTP, recovery codes and passkeys (the "required" flag stays)').action(async (ref: string, _o, cmd: Command) => {
    const o = cmd.optsWithGlobals() as GlobalOpts;
    await withServices(o, async (s) => {
      await s.factors.reset(systemActor, await userId(s, ref));
      print(o, { reset: ref }, () => `Second factors of ${ref} removed`);
    }).catch(fail);
  });
  factors.command('require').argument('<user>', 'id or username').option('--off', 'no longer required').description('require a second factor of this user').action(async (ref: string, _o, cmd: Command) => {
    const o = cmd.optsWithGlobals() as GlobalOpts & { off?: boolean };
    await withServices(o, async (s) => {
      await s.factors.setRequired(systemActor, await userId(s, ref), !o.off);
      print(o, { user: ref, required: !o.off }, () => `A second factor is ${o.off ? 'no longer ' : ''}required of ${ref}`);
    }).catch(fail);
  });
}
