import type { Command } from 'commander';
import type { RestoreConflict, TrashItem } from '../../server/contract/trash';
import { invalid } from '../../server/core/errors';
import { parseDuration } from '../../server/core/duration';
import { systemActor } from '../../server/services/actor';
import { fail, print, withServices, type GlobalOpts } from '../context';
import { table } from '../table';

const trashTable = (items: TrashItem[]) =>
  table(['ID', 'Owner', 'Original path', 'Deleted', 'Size', 'Folder'], items.map((i) => [i.id, i.owner ?? i.ownerId, i.originalPath, new Date(i.deletedAt).toISOString(), i.size, i.isDir]));

/** `filedeck trash ls | restore | rm | empty`: the same service and checks as the API (restores go through the owner's scope and rules). */
export function registerTrash(program: Command): void {
  const trash = program.command('trash').description('list, restore and empty users\' trash');
  trash.command('ls').option('--user <id|username>', 'only this user\'s trash').description('list trashed items, newest first').action(async (_o, cmd: Command) => {
    const o = cmd.optsWithGlobals() as GlobalOpts & { user?: string };
    await withServices(o, async (s) => {
      const items = await s.trash.list(systemActor, o.user ? await s.trash.userRef(o.user) : undefined);
      print(o, items, () => (items.length ? trashTable(items) : 'The trash is empty'));
    }).catch(fail);
  });
  trash.command('restore').argument('<id>').option('--conflict <how>', 'when the name is taken: replace (the other item goes to the trash) or rename (keep both)')
    .description('put an item back where it was deleted from (missing folders are made)')
    .action(async (id: string, _o, cmd: Command) => {
      const o = cmd.optsWithGlobals() as GlobalOpts & { conflict?: string };
      await withServices(o, async (s) => {
        if (o.conflict !== undefined && o.conflict !== 'replace' && o.conflict !== 'rename') throw invalid('--conflict must be replace or rename');
        const path = await s.trash.restore(systemActor, id, (o.conflict ?? 'fail') as RestoreConflict);
        print(o, { id, path }, () => `Restored to ${path}`);
      }).catch(fail);
    });
  trash.command('rm').argument('<id>').description('delete one trashed item for good').action(async (id: string, _o, cmd: Command) => {
    const o = cmd.optsWithGlobals() as GlobalOpts;
    await withServices(o, async (s) => {
      await s.trash.remove(systemActor, id);
      print(o, { deleted: id }, () => `Item ${id} deleted for good`);
    }).catch(fail);
  });
  trash.command('empty').option('--user <id|username>', 'only this user\'s trash (default: everyone\'s)')
    .option('--older-than <duration>', 'only items deleted longer ago than this (7d, 12h, 30m)')
    .description('delete trashed items for good')
    .action(async (_o, cmd: Command) => {
      const o = cmd.optsWithGlobals() as GlobalOpts & { user?: string; olderThan?: string };
      await withServices(o, async (s) => {
        const olderThanMs = o.olderThan === undefined ? undefined : parseDuration(o.olderThan);
        if (olderThanMs === null) throw invalid(`--older-than "${o.olderThan}" is not a duration: use e.g. 7d, 12h or 30m`);
        const deleted = await s.trash.empty(systemActor, { userId: o.user ? await s.trash.userRef(o.user) : undefined, olderThanMs });
        print(o, { deleted }, () => `${deleted} item(s) deleted for good`);
      }).catch(fail);
    });
  trash.command('purge')
    .description('what the server does hourly, now: items past retention or the size cap, and slots on disk no item claims (untouched for an hour)')
    .action(async (_o, cmd: Command) => {
      const o = cmd.optsWithGlobals() as GlobalOpts;
      await withServices(o, async (s) => {
        const deleted = await s.trash.purge.run(s.config.root);
        print(o, { deleted }, () => `${deleted} item(s) or unclaimed slot(s) deleted for good`);
      }).catch(fail);
    });
}
