import type { Command } from 'commander';
import { existsSync } from 'node:fs';
import { createHttpApp, createServices, drain, initialise, listenHttp } from '../../server/app';
import { CONFIG_KEYS, type Config } from '../../server/core/config';
import { redactUrl } from '../../server/db/database';
import { AppError } from '../../server/core/errors';
import { formatDuration } from '../../server/core/duration';
import { VERSION } from '../../server/core/version';
import { tuneAllocator } from '../allocator';
import { releaseSoon } from '../../server/core/release-memory';
import { configFrom, fail, type GlobalOpts } from '../context';
import { execWarning } from '../../server/services/runner/create-runner';
import { toolSandboxWarning } from '../../server/services/preview/tool-thumbs';
import { holdRoot } from '../../server/services/setup/root-identity';
import { RootIdentityStore } from '../../server/db/root-identity.store';

const SHORT: Partial<Record<keyof Config, string>> = { address: 'a', port: 'p', root: 'r', baseURL: 'b', log: 'l', cert: 't', key: 'k' };

/** Adds one flag per boot-time config key (--port, --baseURL, ...). */
export function addServeFlags(cmd: Command): Command {
  for (const [key, spec] of Object.entries(CONFIG_KEYS)) {
    if (key === 'database' || key === 'root') continue; // global options
    const short = SHORT[key as keyof Config];
    cmd.option(`${short ? `-${short}, ` : ''}--${key} <value>`, `${spec.help} (default: ${spec.default === '' ? '""' : spec.default})`);
  }
  return cmd
    .option('--accept-new-root', 'serve the files root as it is now even though it is not the one this database served (a deliberate move or new disk)')
    .option('--username <name>', 'first run only: name of the first admin (default: admin)')
    .option('--password <password>', 'first run only: password or bcrypt hash of the first admin (default: random, printed once)');
}

/** Starts the server: first-run setup, then HTTP(S) until SIGINT/SIGTERM. */
export async function serve(opts: GlobalOpts & Record<string, string | undefined>): Promise<void> {
  const flags: Partial<Record<keyof Config, unknown>> = {};
  for (const key of Object.keys(CONFIG_KEYS)) if (opts[key] !== undefined && key !== 'database' && key !== 'root') flags[key as keyof Config] = opts[key];
  const config = configFrom(opts, flags);
  if (config.cert && (!existsSync(config.cert) || !existsSync(config.key)))
    throw new AppError('INVALID', 'config keys "cert"/"key": file not found');
  const s = await createServices(config);
  // Only the files root this database served before, checked before anything touches it: a disk not mounted yet,
  // an empty mount point or another disk stops the start with the reason (services/setup/root-identity.ts).
  const rootNote = await holdRoot(new RootIdentityStore(s.db), config.root, { accept: !!opts.acceptNewRoot, hasLinks: () => s.stores.shares.any() }).catch(async (e) => {
    await s.close().catch(() => {});
    throw e;
  });
  if (rootNote) s.log.warn(rootNote);
  const first = await initialise(s, { username: opts.username, password: opts.password });
  if (first.admin?.generatedPassword) {
    // Printed once, to the console only: the log destination may be a shared file.
    process.stdout.write(`User '${first.admin.username}' initialised with randomly generated password: ${first.admin.generatedPassword}\n`);
  } else if (first.admin) s.log.info(`user '${first.admin.username}' initialised with the given password`);
  const exec = execWarning(config, s.runner);
  if (exec) s.log.warn(exec);
  const thumbs = toolSandboxWarning(config, s.previews.toolSandbox);
  if (thumbs) s.log.warn(thumbs);
  const s0 = s.settings.get();
  if (s0.signup && !s0.createUserDir && s0.defaults.scope === '.') s.log.warn('signup is on and new users get the whole root as scope; enable createUserDir');
  const app = await createHttpApp(s);
  // Sweeps, the name index, trash and audit purges, job recovery: one lifecycle (services/background/background.ts).
  await s.background.start();
  const tls = config.cert ? { cert: Bun.file(config.cert), key: Bun.file(config.key) } : undefined;
  // A stray error (a library's event without a listener, a rejected promise nobody awaited) is logged; it never
  // ends the process and the requests of everyone else with it.
  process.on('uncaughtException', (e) => s.log.error(`uncaught: ${e?.stack ?? String(e)}`));
  process.on('unhandledRejection', (e) => s.log.error(`unhandled rejection: ${(e as Error)?.stack ?? String(e)}`));
  const server = listenHttp(app, { hostname: config.address, port: config.port, tls, log: s.log, baseURL: config.baseURL });
  // What start-up left behind (module bodies, route compilation, migrations) is collected once it is over (issue 39).
  releaseSoon(2000);
  const port = server.port ?? config.port;
  const host = config.address.includes(':') ? `[${config.address}]` : config.address;
  const url = `${tls ? 'https' : 'http'}://${host}:${port}${config.baseURL}/`;
  process.stdout.write(`Filedeck ${VERSION} listening on ${url}\n`);
  s.log.info(`root ${config.root}, database ${redactUrl(config.database)}, token lifetime ${formatDuration(config.tokenExpirationTime)}`);
  // SIGTERM, SIGINT and SIGHUP (a closed terminal, a careless `kill -HUP`) all drain: no new requests, those in
  // flight get shutdownTimeout to finish, then the rest are cut and the database is closed. A second signal
  // during the drain cuts at once.
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) {
      server.stop(true);
      return;
    }
    stopping = true;
    s.log.info(`${signal}: shutting down`);
    await drain(server, config.shutdownTimeout, s.log).catch((e) => s.log.error(`shutdown: ${(e as Error).message}`));
    await s.close().catch(() => {});
    process.exit(0);
  };
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(sig, () => void stop(sig));
}

export function registerServe(program: Command): void {
  addServeFlags(program.command('serve', { isDefault: true }).description('run the web server (the default command)')).action(async (_o, cmd: Command) => {
    tuneAllocator(); // may execute the process again, with its allocator's setting, before anything is opened
    await serve(cmd.optsWithGlobals()).catch(fail);
  });
}
