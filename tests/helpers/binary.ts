import { join, resolve } from 'node:path';
import type { Subprocess } from 'bun';

const ROOT = resolve(import.meta.dir, '../..');

/** The command that runs Filedeck: the compiled binary when FILEDECK_BIN is set (npm test), else the sources. */
export function filedeckCommand(): string[] {
  return process.env.FILEDECK_BIN ? [process.env.FILEDECK_BIN] : [process.execPath, join(ROOT, 'cmd/main.ts')];
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** How a CLI run is spawned (async or held): in `cwd`, this environment plus `env`, output captured, no input. */
const cliSpawnOptions = (opts: { cwd?: string; env?: Record<string, string> }) =>
  ({ cwd: opts.cwd, env: { ...process.env, ...opts.env }, stdout: 'pipe', stderr: 'pipe', stdin: 'ignore' }) as const;

/** Runs a CLI command to completion. */
export async function cli(args: string[], opts: { cwd?: string; env?: Record<string, string> } = {}): Promise<CliResult> {
  const p = Bun.spawn([...filedeckCommand(), ...args], cliSpawnOptions(opts));
  const [stdout, stderr, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  return { code, stdout, stderr };
}

/**
 * cli() run synchronously: this process's event loop, and whatever runs on it (a job of an in-process app), is held
 * until the command exits. Resolved at once, so an `await` on it lets no timer or I/O callback run.
 */
export function cliHeld(args: string[], opts: { cwd?: string; env?: Record<string, string> } = {}): Promise<CliResult> {
  const p = Bun.spawnSync([...filedeckCommand(), ...args], cliSpawnOptions(opts));
  return Promise.resolve({ code: p.exitCode ?? -1, stdout: p.stdout.toString(), stderr: p.stderr.toString() });
}

export interface RunningServer {
  url: string;
  proc: Subprocess;
  output: () => string;
  stop(): Promise<void>;
}

/** Starts `filedeck serve` on a free port and waits for its "listening on" line. */
export async function startServer(args: string[], opts: { cwd?: string; cmd?: string[]; env?: Record<string, string> } = {}): Promise<RunningServer> {
  const proc = Bun.spawn([...(opts.cmd ?? filedeckCommand()), 'serve', '--port', '0', ...args], { cwd: opts.cwd, env: { ...process.env, ...opts.env }, stdout: 'pipe', stderr: 'pipe', stdin: 'ignore' });
  let out = '';
  const dec = new TextDecoder();
  const url = await new Promise<string>((resolveUrl, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${out}`)), 15_000);
    const pump = async (s: ReadableStream<Uint8Array>) => {
      for await (const c of s) {
        out += dec.decode(c, { stream: true });
        const m = /listening on (\S+)/.exec(out);
        if (m) {
          clearTimeout(timer);
          resolveUrl(m[1]!.replace(/\/$/, ''));
        }
      }
    };
    void pump(proc.stdout as ReadableStream<Uint8Array>);
    void pump(proc.stderr as ReadableStream<Uint8Array>);
    void proc.exited.then((c) => reject(new Error(`server exited with ${c}:\n${out}`)));
  });
  return {
    url,
    proc,
    output: () => out,
    async stop() {
      proc.kill('SIGTERM');
      await proc.exited;
    },
  };
}
