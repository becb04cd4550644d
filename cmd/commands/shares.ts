import type { Command } from 'commander';
import { fail, print, withServices, type GlobalOpts } from '../context';
import { table } from '../table';

const expiry = (e: number) => (e === 0 ? 'permanent' : new Date(e * 1000).toISOString());

/** `filedeck shares ls | rm`: works offline on the database. */
export function registerShares(program: Command): void {
  const shares = program.command('shares').description('manage shared links');
  shares.command('ls').option('--user <id|username>', 'only this user\'s shares').description('list shares').action(async (_o, cmd: Command) => {
    const o = cmd.optsWithGlobals() as GlobalOpts & { user?: string };
    await withServices(o, (s) => {
      const list = s.shares.list(o.user ? s.users.find(o.user).id : undefined);
      print(o, list, () => table(['Hash', 'Path', 'User', 'Expires', 'Password'], list.map((x) => [x.hash, x.path, x.username ?? x.userID, expiry(x.expire), x.hasPassword])));
    }).catch(fail);
  });
  shares.command('rm').argument('<hash>').description('delete a share').action(async (hash: string, _o, cmd: Command) => {
    const o = cmd.optsWithGlobals() as GlobalOpts;
    await withServices(o, (s) => {
      s.shares.remove(hash);
      print(o, { deleted: hash }, () => `Share ${hash} deleted`);
    }).catch(fail);
  });
}
