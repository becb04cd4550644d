import type { Command } from 'commander';
import { VERSION } from '../../server/core/version';
import { hashPassword } from '../../server/services/auth/password-policy';
import { configFrom, fail, type GlobalOpts } from '../context';

/** `filedeck hash <password>`, `filedeck version` and `filedeck healthcheck`. */
export function registerMisc(program: Command): void {
  program.command('hash').argument('<password>').description('print a bcrypt hash of a password').action(async (pw: string) => {
    if (!pw) fail(new Error('password must not be empty'));
    process.stdout.write((await hashPassword(pw, 10)) + '\n'); // always the production cost
  });
  program.command('version').description('print the version').action(() => {
    process.stdout.write(`Filedeck v${VERSION}\n`);
  });
  program
    .command('healthcheck')
    .option('--url <url>', 'the server to ask (default: the configured address, port and baseURL)')
    .option('--timeout <ms>', 'how long to wait for the answer', '3000')
    .description('exit 0 when the server answers /health, 1 otherwise (container HEALTHCHECK, monitoring)')
    .action(async (o: { url?: string; timeout: string }, cmd: Command) => {
      const g = cmd.optsWithGlobals() as GlobalOpts;
      let url = o.url;
      if (!url) {
        const c = configFrom(g);
        const host = c.address === '0.0.0.0' || c.address === '' ? '127.0.0.1' : c.address === '::' ? '[::1]' : c.address.includes(':') ? `[${c.address}]` : c.address;
        url = `${c.cert ? 'https' : 'http'}://${host}:${c.port}${c.baseURL}/health`;
      }
      try {
        const r = await fetch(url, { signal: AbortSignal.timeout(Number(o.timeout) || 3000), tls: { rejectUnauthorized: false } } as RequestInit);
        if (r.status !== 200) throw new Error(`${url} answered ${r.status}`);
        process.stdout.write(`ok ${url}\n`);
      } catch (e) {
        fail(new Error(`unhealthy: ${(e as Error).message}`));
      }
    });
}
