import type { Command } from 'commander';
import { AppError } from '../../server/core/errors';
import type { DoctorCheck } from '../../server/services/doctor/doctor-check';
import { runDoctor } from '../../server/services/doctor/doctor';
import { configFrom, type GlobalOpts } from '../context';
import { terminalJson, terminalText } from '../table';

function human(checks: DoctorCheck[]): string {
  const width = Math.max(...checks.map((c) => c.name.length));
  return checks
    .map((c) => `${c.status.padEnd(4)}  ${c.name.padEnd(width)}  ${c.message}${c.fix ? `\n${' '.repeat(width + 8)}fix: ${c.fix}` : ''}`)
    .join('\n');
}

/** `filedeck doctor [--json]`: checks the installation, prints OK/WARN/FAIL lines with fixes; exit 1 on any FAIL. */
export function registerDoctor(program: Command): void {
  program
    .command('doctor')
    .description('check the installation (database, permissions, free space, inotify, sandbox, clock, proxy settings) and say what to fix')
    .action(async (_o, cmd: Command) => {
      const opts = cmd.optsWithGlobals() as GlobalOpts;
      let checks: DoctorCheck[];
      try {
        checks = await runDoctor(configFrom(opts));
      } catch (e) {
        // A configuration that does not load is itself the finding.
        const message = e instanceof AppError ? (e.detail ?? e.code) : (e as Error).message;
        checks = [{ name: 'config', status: 'FAIL', message, fix: 'fix the configuration file, FILEDECK_* variables or flags' }];
      }
      const failures = checks.filter((c) => c.status === 'FAIL').length;
      const warnings = checks.filter((c) => c.status === 'WARN').length;
      if (opts.json) process.stdout.write(terminalJson({ ok: failures === 0, failures, warnings, checks }) + '\n');
      else process.stdout.write(`${terminalText(human(checks))}\n${failures ? `${failures} problem(s) to fix` : 'no problems'}${warnings ? `, ${warnings} warning(s)` : ''}\n`);
      process.exitCode = failures ? 1 : 0;
    });
}
