#!/usr/bin/env bun
import { Command, CommanderError } from 'commander';
import { VERSION } from '../server/core/version';
import { registerAudit } from './commands/audit';
import { registerCmds } from './commands/cmds';
import { registerConfig } from './commands/config';
import { registerDb } from './commands/db';
import { registerDoctor } from './commands/doctor';
import { registerFactors } from './commands/factors';
import { registerIndex } from './commands/name-index';
import { registerJobs } from './commands/jobs';
import { registerMisc } from './commands/misc';
import { registerRules } from './commands/rules';
import { registerServe } from './commands/serve';
import { registerHealth } from './commands/health';
import { registerImport } from './commands/import';
import { registerSessions } from './commands/sessions';
import { registerTokens } from './commands/tokens';
import { registerShares } from './commands/shares';
import { registerTrash } from './commands/trash';
import { registerVersions } from './commands/versions';
import { registerUsers } from './commands/users';
import { terminalText } from './table';

const program = new Command('filedeck')
  .description('Filedeck: a self-hosted web file manager in one executable')
  .version(VERSION, '-v, --version')
  .option('-c, --config <file>', 'config file (default: ./filedeck.yaml, then /etc/filedeck/config.yaml)')
  .option('-d, --database <file>', 'SQLite database file (default: ./data/filedeck.db)')
  .option('-r, --root <folder>', 'folder holding every user scope (default: ./data/files)')
  .option('--json', 'machine-readable output')
  .showHelpAfterError()
  .exitOverride();

registerServe(program);
registerConfig(program);
registerUsers(program);
registerShares(program);
registerTrash(program);
registerVersions(program);
registerJobs(program);
registerRules(program);
registerCmds(program);
registerMisc(program);
registerDb(program);
registerDoctor(program);
registerAudit(program);
registerSessions(program);
registerTokens(program);
registerFactors(program);
registerHealth(program);
registerIndex(program);
registerImport(program);

// No top-level await: the binary is compiled to bytecode, which needs a CommonJS-shaped entry.
program.parseAsync(process.argv).catch((e: unknown) => {
  if (e instanceof CommanderError) process.exit(e.exitCode === 0 ? 0 : 1);
  process.stderr.write(`filedeck: ${terminalText((e as Error)?.message ?? String(e))}\n`);
  process.exit(1);
});
