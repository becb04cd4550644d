import type { Command } from 'commander';
import { invalid } from '../../server/core/errors';
import { systemActor } from '../../server/services/actor';
import { fail, print, withServices, type GlobalOpts } from '../context';
import { isoSeconds, table } from '../table';

/** `filedeck sessions ls | end`: login sessions are rows, so ending them here logs people out of every server at once. */
export function registerSessions(program: Command): void {
  const sessions = program.command('sessions').description('list and end login sessions');
  sessions.command('ls').option('--user <id|username>', 'only this user\'s sessions').description('list open sessions')
    .action(async (_o, cmd: Command) => {
      const o = cmd.optsWithGlobals() as GlobalOpts & { user?: string };
      await withServices(o, async (s) => {
        const userId = o.user ? (await s.users.find(o.user)).id : undefined;
        const names = new Map((await s.users.list()).map((u) => [u.id, u.username]));
        // Only a prefix of the id: enough to tell sessions apart, useless as a credential.
        const list = (await s.auth.sessions(userId)).map((x) => ({ id: x.id.slice(0, 8), userId: x.userId, username: names.get(x.userId) ?? '', createdAt: x.createdAt, expiresAt: x.expiresAt }));
        print(o, list, () => (list.length ? table(['Session', 'User', 'Started', 'Expires'], list.map((x) => [x.id, x.username, isoSeconds(x.createdAt), isoSeconds(x.expiresAt)])) : 'No open sessions'));
      }).catch(fail);
    });
  sessions.command('end').option('--user <id|username>', 'end every session of this user').option('--all', 'end every session of every user')
    .description('end sessions (the users must log in again)')
    .action(async (_o, cmd: Command) => {
      const o = cmd.optsWithGlobals() as GlobalOpts & { user?: string; all?: boolean };
      await withServices(o, async (s) => {
        if (!!o.user === !!o.all) throw invalid('give either --user <name> or --all');
        const user = o.user ? await s.users.find(o.user) : null;
        const ended = await s.auth.endSessions(systemActor, user?.id);
        print(o, { ended, user: user?.username ?? null }, () => `${ended} session${ended === 1 ? '' : 's'} ended${user ? ` for ${user.username}` : ''}`);
      }).catch(fail);
    });
}
