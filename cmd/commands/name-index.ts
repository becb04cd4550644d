import type { Command } from 'commander';
import { fail, print, withServices, type GlobalOpts } from '../context';

const when = (ms: number | null) => (ms === null ? '-' : new Date(ms).toISOString());

/** `filedeck index status | rebuild`: the per-instance name index (search, folder sizes). */
export function registerIndex(program: Command): void {
  const index = program.command('index').description('the name index behind search and folder sizes');
  index
    .command('status')
    .description('state, size and last build/reconcile of the name index')
    .action(async (_o, cmd: Command) => {
      const opts = cmd.optsWithGlobals() as GlobalOpts;
      await withServices(opts, (s) => {
        const st = s.index.status();
        const { watching: _, ...data } = st; // watching is known only inside the running server
        print(opts, { ...data, file: s.index.opts.file }, () =>
          [
            `state          ${st.state}${st.state === 'building' ? ` (${st.percent}%)` : ''}`,
            `entries        ${st.entries} (${st.folders} folders)`,
            `built          ${when(st.builtAt)}`,
            `last reconcile ${when(st.lastReconcile)}`,
            `file           ${s.index.opts.file}`,
          ].join('\n'));
      }).catch(fail);
    });
  index
    .command('rebuild')
    .description('build the name index again from the disk (a running server searches by walking meanwhile)')
    .action(async (_o, cmd: Command) => {
      const opts = cmd.optsWithGlobals() as GlobalOpts;
      await withServices(opts, async (s) => {
        const t0 = performance.now();
        await s.index.rebuildHere();
        const st = s.index.status();
        const ms = Math.round(performance.now() - t0);
        print(opts, { state: st.state, entries: st.entries, folders: st.folders, ms }, () => `rebuilt: ${st.entries} entries (${st.folders} folders) in ${ms} ms`);
      }).catch(fail);
    });
}
