import type { Command } from 'commander';
import { VERSION } from '../../server/core/version';
import { hashPassword } from '../../server/services/auth/password-policy';
import { fail } from '../context';

/** `filedeck hash <password>` and `filedeck version`. */
export function registerMisc(program: Command): void {
  program.command('hash').argument('<password>').description('print a bcrypt hash of a password').action(async (pw: string) => {
    if (!pw) fail(new Error('password must not be empty'));
    process.stdout.write((await hashPassword(pw, 10)) + '\n'); // always the production cost
  });
  program.command('version').description('print the version').action(() => {
    process.stdout.write(`Filedeck v${VERSION}\n`);
  });
}
