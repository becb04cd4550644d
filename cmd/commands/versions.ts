import type { Command } from 'commander';
import type { VersionInfo } from '../../server/contract/versions';
import { notFound } from '../../server/core/errors';
import { actorFor } from '../../server/services/actor';
import type { Services } from '../../server/services/services';
import { fail, print, withServices, type GlobalOpts } from '../context';
import { table } from '../table';

type UserOpts = GlobalOpts & { user: string };

const versionsTable = (vs: VersionInfo[]) =>
  table(['ID', 'Replaced', 'Modified', 'Size', 'By', 'Cause'], vs.map((v) => [v.id, new Date(v.replacedAt).toISOString(), new Date(v.modified).toISOString(), v.size, v.replacedBy, v.cause]));

/** The named user's actor: a path is read in their scope, under their rules and permissions, as in the API. */
async function userActor(s: Services, ref: string) {
  const u = await s.users.find(ref);
  if (!u) throw notFound(`no user "${ref}"`);
  return actorFor(u, { root: s.config.root, globalRules: s.settings.get().rules, followExternalSymlinks: s.config.followExternalSymlinks });
}

/** `filedeck versions ls | restore | rm | prune`: the same service and checks as the API, as the named user. */
export function registerVersions(program: Command): void {
  const versions = program.command('versions').description('list, restore and delete versions of overwritten files; prune them');
  versions.command('ls').argument('<path>', 'a file, in the user\'s scope').requiredOption('--user <id|username>', 'whose scope the path is in')
    .description('list a file\'s versions, newest first')
    .action(async (path: string, _o, cmd: Command) => {
      const o = cmd.optsWithGlobals() as UserOpts;
      await withServices(o, async (s) => {
        const vs = await s.versions.list(await userActor(s, o.user), path);
        print(o, vs, () => (vs.length ? versionsTable(vs) : `${path} has no versions`));
      }).catch(fail);
    });
  versions.command('restore').argument('<path>').argument('<id>').requiredOption('--user <id|username>', 'whose scope the path is in')
    .description('make a version current again (the current content becomes a version: restore that one to undo)')
    .action(async (path: string, id: string, _o, cmd: Command) => {
      const o = cmd.optsWithGlobals() as UserOpts;
      await withServices(o, async (s) => {
        const r = await s.versions.restore(await userActor(s, o.user), path, id);
        print(o, r, () => `Restored version ${r.restored} of ${path}; the replaced content is version ${r.kept}`);
      }).catch(fail);
    });
  versions.command('rm').argument('<path>').argument('<id>').requiredOption('--user <id|username>', 'whose scope the path is in')
    .description('delete one version for good')
    .action(async (path: string, id: string, _o, cmd: Command) => {
      const o = cmd.optsWithGlobals() as UserOpts;
      await withServices(o, async (s) => {
        await s.versions.remove(await userActor(s, o.user), path, id);
        print(o, { deleted: id }, () => `Version ${id} of ${path} deleted for good`);
      }).catch(fail);
    });
  versions.command('prune').option('--dry-run', 'only say what would go')
    .description('apply retention now (staggered thinning, age, count, per-user cap, free-space share)')
    .action(async (_o, cmd: Command) => {
      const o = cmd.optsWithGlobals() as GlobalOpts & { dryRun?: boolean };
      await withServices(o, async (s) => {
        await s.versionUpkeep.recover();
        const gone = await s.versionUpkeep.prune({ dryRun: !!o.dryRun });
        const out = gone.map((r) => ({ id: r.id, path: r.path, size: r.size, replacedAt: r.replacedAt }));
        print(o, { [o.dryRun ? 'wouldDelete' : 'deleted']: out }, () => `${gone.length} version(s) ${o.dryRun ? 'would be' : ''} deleted`.replace('  ', ' '));
      }).catch(fail);
    });
}
