import type { Command } from 'commander';
import { invalid } from '../../server/core/errors';
import { fail, print, withServices, type GlobalOpts } from '../context';
import { isoSeconds, table } from '../table';

/** `filedeck audit ls`: the audit log, newest first, through the same AuditService as GET /api/audit. */
export function registerAudit(program: Command): void {
  const audit = program.command('audit').description('read the audit log (who did what, from where)');
  audit.command('ls').description('list audit entries, newest first')
    .option('--user <name>', 'only entries by this user')
    .option('--action <action>', 'an action (share.create) or a family (share)')
    .option('--since <when>', 'a duration back from now (2d, 12h), a date (2024-05-01) or unix milliseconds')
    .option('--until <when>', 'as --since')
    .option('--text <text>', 'text in the user, address, target or detail')
    .option('--limit <n>', 'at most this many entries (1-500)', '50')
    .option('--cursor <cursor>', 'continue after a previous page (its "next")')
    .action(async (_o, cmd: Command) => {
      const o = cmd.optsWithGlobals() as GlobalOpts & { user?: string; action?: string; since?: string; until?: string; text?: string; limit: string; cursor?: string };
      await withServices(o, async (s) => {
        if (!/^\d{1,6}$/.test(o.limit)) throw invalid('--limit must be a whole number from 1 to 500');
        const page = await s.audit.list({ user: o.user, action: o.action, since: o.since, until: o.until, text: o.text, limit: Number(o.limit), cursor: o.cursor });
        print(o, page, () => {
          if (!page.entries.length) return 'No audit entries';
          const rows = page.entries.map((e) => [isoSeconds(e.time), e.userName || '-', e.address, e.action, e.target, e.outcome]);
          return table(['Time', 'User', 'Address', 'Action', 'Target', 'Outcome'], rows) + (page.next ? `\n(more: --cursor ${page.next})` : '');
        });
      }).catch(fail);
    });
}
