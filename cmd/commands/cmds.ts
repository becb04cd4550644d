import type { Command } from 'commander';
import { HOOK_NAMES, type HookName } from '../../server/contract/settings';
import { invalid } from '../../server/core/errors';
import { fail, print, withServices, type GlobalOpts } from '../context';
import { table } from '../table';

function eventName(e: string): HookName {
  if (!(HOOK_NAMES as string[]).includes(e)) throw invalid(`unknown event "${e}"; one of ${HOOK_NAMES.join(', ')}`);
  return e as HookName;
}

const show = (cmds: Record<string, string[]>, filter?: string) =>
  table(['Event', '#', 'Command'], Object.entries(cmds).filter(([k]) => !filter || k.endsWith(`_${filter}`) || k === filter).flatMap(([k, list]) => list.map((c, i) => [k, i, c])));

/** `filedeck cmds ls | add | rm`: the before_/after_ event hooks. */
export function registerCmds(program: Command): void {
  const cmds = program.command('cmds').description('manage event hook commands');
  cmds.command('ls').option('-e, --event <event>', 'only this event (e.g. upload or before_upload)').description('list hook commands').action(async (_o, cmd: Command) => {
    const o = cmd.optsWithGlobals() as GlobalOpts & { event?: string };
    await withServices(o, async (s) => {
      const c = s.settings.get().commands;
      print(o, c, () => show(c, o.event));
    }).catch(fail);
  });
  cmds.command('add').argument('<event>', HOOK_NAMES.join(' | ')).argument('<command...>').description('append a command to an event').action(async (event: string, words: string[], _o, cmd: Command) => {
    const o = cmd.optsWithGlobals() as GlobalOpts;
    await withServices(o, async (s) => {
      const e = eventName(event);
      const c = s.settings.get().commands;
      const next = (await s.settings.update({ commands: { ...c, [e]: [...c[e], words.join(' ')] } })).commands;
      print(o, next, () => show(next));
    }).catch(fail);
  });
  cmds.command('rm').argument('<event>').argument('<index>').argument('[index_end]').description('remove commands of an event by index')
    .action(async (event: string, from: string, to: string | undefined, _o, cmd: Command) => {
      const o = cmd.optsWithGlobals() as GlobalOpts;
      await withServices(o, async (s) => {
        const e = eventName(event);
        const c = s.settings.get().commands;
        const n = c[e].length;
        const a = Number(from);
        const b = to === undefined ? a : Number(to);
        if (!/^\d+$/.test(from) || (to !== undefined && !/^\d+$/.test(to)) || a >= n || b >= n || b < a) throw invalid(`index out of range (event ${e} has ${n} commands)`);
        const next = (await s.settings.update({ commands: { ...c, [e]: c[e].filter((_, i) => i < a || i > b) } })).commands;
        print(o, next, () => show(next));
      }).catch(fail);
    });
}
