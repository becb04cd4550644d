import type { Command } from 'commander';
import { invalid } from '../../server/core/errors';
import { systemActor } from '../../server/services/actor';
import { fail, print, withServices, type GlobalOpts } from '../context';
import { isoSeconds, table } from '../table';

/** The permission names a token may carry, as typed on the command line (comma-separated). */
const permList = (v: string | undefined) => (v ? v.split(',').map((p) => p.trim()).filter(Boolean) : ['download']);

/**
 * `filedeck tokens ls | add | rm`: personal API tokens of any user, through the same service as the web app (the
 * owner's permissions and folder are checked the same way). `add` prints the secret once.
 */
export function registerTokens(program: Command): void {
  const tokens = program.command('tokens').description('list, make and revoke personal API tokens');
  tokens.command('ls').requiredOption('--user <id|username>', 'whose tokens').description('list a user\'s tokens (never their secrets)')
    .action(async (_o, cmd: Command) => {
      const o = cmd.optsWithGlobals() as GlobalOpts & { user: string };
      await withServices(o, async (s) => {
        const user = await s.users.find(o.user);
        const list = await s.tokens.list(systemActor, user.id);
        print(o, list, () => (list.length
          ? table(['Id', 'Name', 'Permissions', 'Folder', 'Read-only', 'Expires', 'Last used'], list.map((x) => [x.id, x.name, x.perm.join(','), x.path ?? '', x.readOnly ? 'yes' : 'no', x.expiresAt ? isoSeconds(x.expiresAt) : 'never', x.lastUsedAt ? isoSeconds(x.lastUsedAt) : '']))
          : `No tokens for ${user.username}`));
      }).catch(fail);
    });
  tokens.command('add').requiredOption('--user <id|username>', 'the owner').requiredOption('--name <name>', 'a name, unique among the owner\'s tokens')
    .option('--perm <list>', 'comma-separated permissions (a subset of the owner\'s; default: download)')
    .option('--path <folder>', 'only this folder of the owner\'s scope')
    .option('--read-only', 'reads only')
    .option('--days <n>', 'expires after this many days (default: never)')
    .description('make a token; its secret is printed once')
    .action(async (_o, cmd: Command) => {
      const o = cmd.optsWithGlobals() as GlobalOpts & { user: string; name: string; perm?: string; path?: string; readOnly?: boolean; days?: string };
      await withServices(o, async (s) => {
        if (o.days !== undefined && !/^\d{1,4}$/.test(o.days)) throw invalid('--days must be a whole number of days');
        const user = await s.users.find(o.user);
        const made = await s.tokens.create(systemActor, user, { name: o.name, perm: permList(o.perm), path: o.path ?? null, readOnly: !!o.readOnly, expiresInDays: o.days === undefined ? null : Number(o.days) });
        print(o, made, () => `${made.token}\n(token ${made.id} for ${user.username}; shown only now)`);
      }).catch(fail);
    });
  tokens.command('rm').argument('<id>', 'the token\'s id (see tokens ls)').description('revoke a token (at once)')
    .action(async (id: string, _o, cmd: Command) => {
      const o = cmd.optsWithGlobals() as GlobalOpts;
      await withServices(o, async (s) => {
        await s.tokens.revoke(systemActor, await s.tokens.ownerOf(id), id);
        print(o, { revoked: id }, () => `token ${id} revoked`);
      }).catch(fail);
    });
}
