import type { Command } from 'commander';
import type { Rule } from '../../server/contract/user';
import { invalid } from '../../server/core/errors';
import type { Services } from '../../server/app';
import { systemActor } from '../../server/services/actor';
import { fail, print, withServices, type GlobalOpts } from '../context';
import { table } from '../table';

type Opts = GlobalOpts & { user?: string; allow?: boolean; regex?: boolean };

async function current(s: Services, o: Opts): Promise<Rule[]> {
  return o.user ? (await s.users.find(o.user)).rules : s.settings.get().rules;
}

async function save(s: Services, o: Opts, rules: Rule[]): Promise<void> {
  if (o.user) await s.users.update(systemActor, (await s.users.find(o.user)).id, ['rules'], { rules });
  else await s.settings.update({ rules });
}

const show = (rules: Rule[]) =>
  rules.length ? table(['#', 'Type', 'Allow', 'Path or pattern'], rules.map((r, i) => [i, r.regex ? 'regex' : 'path', r.allow, r.regex ? r.regexp?.raw ?? '' : r.path])) : 'no rules';

function index(text: string, max: number): number {
  if (!/^\d+$/.test(text) || Number(text) >= max) throw invalid(`index ${text} is out of range (0..${max - 1})`);
  return Number(text);
}

/** `filedeck rules ls | add | rm`: global rules, or one user's with --user. */
export function registerRules(program: Command): void {
  const rules = program.command('rules').description('manage allow/deny rules (global, or a user\'s with --user)');
  const userOpt = (c: Command) => c.option('--user <id|username>', 'the user whose rules to manage');
  userOpt(rules.command('ls')).description('list rules').action(async (_o, cmd: Command) => {
    const o = cmd.optsWithGlobals() as Opts;
    await withServices(o, async (s) => {
      const list = (await current(s, o));
      print(o, list, () => show(list));
    }).catch(fail);
  });
  userOpt(rules.command('add')).argument('<path|regex>').option('--allow', 'an allow rule (default: deny)').option('--regex', 'the argument is a regular expression')
    .description('append a rule').action(async (target: string, _o, cmd: Command) => {
      const o = cmd.optsWithGlobals() as Opts;
      await withServices(o, async (s) => {
        const rule: Rule = o.regex ? { allow: !!o.allow, regex: true, path: '', regexp: { raw: target } } : { allow: !!o.allow, regex: false, path: target, regexp: null };
        await save(s, o, [...(await current(s, o)), rule]);
        const list = (await current(s, o));
        print(o, list, () => show(list));
      }).catch(fail);
    });
  userOpt(rules.command('rm')).argument('<index>').argument('[index_end]', 'remove an inclusive range').description('remove rules by index')
    .action(async (from: string, to: string | undefined, _o, cmd: Command) => {
      const o = cmd.optsWithGlobals() as Opts;
      await withServices(o, async (s) => {
        const list = (await current(s, o));
        const a = index(from, list.length);
        const b = to === undefined ? a : index(to, list.length);
        if (b < a) throw invalid('index_end must not be smaller than index');
        await save(s, o, list.filter((_, i) => i < a || i > b));
        const left = (await current(s, o));
        print(o, left, () => show(left));
      }).catch(fail);
    });
}
