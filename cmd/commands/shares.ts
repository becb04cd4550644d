import type { Command } from 'commander';
import { actorFor, systemActor } from '../../server/services/actor';
import { toVirtualPath } from '../../server/fs/virtual-path';
import { fail, print, withServices, type GlobalOpts } from '../context';
import { table } from '../table';

const expiry = (e: number) => (e === 0 ? 'permanent' : new Date(e * 1000).toISOString());

/** `filedeck shares ls | add | rm`: works offline on the database, with the same checks as the API. */
export function registerShares(program: Command): void {
  const shares = program.command('shares').description('manage shared links');
  shares.command('ls').option('--user <id|username>', 'only this user\'s shares').description('list shares').action(async (_o, cmd: Command) => {
    const o = cmd.optsWithGlobals() as GlobalOpts & { user?: string };
    await withServices(o, async (s) => {
      const list = await s.shares.list(systemActor, o.user ? (await s.users.find(o.user)).id : undefined);
      print(o, list, () => table(['Hash', 'Path', 'User', 'Expires', 'Password'], list.map((x) => [x.hash, x.path, x.username ?? x.userID, expiry(x.expire), x.hasPassword])));
    }).catch(fail);
  });
  shares.command('add').argument('<path>', 'path inside the user\'s scope').requiredOption('--user <id|username>', 'the owner of the link')
    .option('--expires <n>', 'lifetime in units (empty or 0: permanent)').option('--unit <unit>', 'seconds, minutes, hours or days', 'hours')
    .option('--password <password>', 'password visitors must give').description('create a shared link')
    .action(async (path: string, _o, cmd: Command) => {
      const o = cmd.optsWithGlobals() as GlobalOpts & { user: string; expires?: string; unit?: string; password?: string };
      await withServices(o, async (s) => {
        const owner = (await s.users.find(o.user));
        const actor = actorFor(owner, { root: s.config.root, globalRules: s.settings.get().rules, followExternalSymlinks: s.config.followExternalSymlinks });
        const share = await s.shares.create(actor, toVirtualPath(path).path, { expires: o.expires, unit: o.unit, password: o.password });
        print(o, share, () => table(['Hash', 'Path', 'User', 'Expires', 'Password'], [[share.hash, share.path, owner.username, expiry(share.expire), share.hasPassword]]));
      }).catch(fail);
    });
  shares.command('rm').argument('<hash>').description('delete a share').action(async (hash: string, _o, cmd: Command) => {
    const o = cmd.optsWithGlobals() as GlobalOpts;
    await withServices(o, async (s) => {
      await s.shares.remove(systemActor, hash);
      print(o, { deleted: hash }, () => `Share ${hash} deleted`);
    }).catch(fail);
  });
}
