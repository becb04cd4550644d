import { AppError } from '../../core/errors';
import type { Logger } from '../../core/log';
import type { Actor } from '../actor';
import type { SettingsService } from '../settings/settings.service';
import { splitCommandLine } from './command-line';

/** One text for every refusal, so a user cannot tell a missing binary from a forbidden one. */
export const NOT_ALLOWED = 'Command not allowed.';
export const OUTPUT_CAP_BYTES = 8 * 1024 * 1024;
const SAFE_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

export interface RunnerDeps {
  enableExec: boolean;
  timeoutMs: number;
  settings: SettingsService;
  log: Logger;
}

export interface Prepared {
  argv: string[];
  cwd: string;
}

export type LineSink = (stream: 'stdout' | 'stderr', line: string) => void;

/**
 * Runs allowed commands safely by design: off unless enableExec; the first word must exactly equal one of the
 * user's commands; arguments go to the program as an argv array (no shell) unless an admin configured
 * settings.shell; a scrubbed environment without server secrets; a time limit and an output cap; the whole
 * process group is killed on timeout, on the cap, or when the caller aborts.
 */
export class Runner {
  constructor(private readonly d: RunnerDeps) {}

  get enabled(): boolean {
    return this.d.enableExec;
  }

  /** Checks a command line for an actor in a folder; throws AppError(FORBIDDEN, NOT_ALLOWED) on any refusal. */
  async prepare(actor: Actor, path: string, line: string): Promise<Prepared> {
    const refuse = () => new AppError('FORBIDDEN', NOT_ALLOWED);
    if (!this.d.enableExec || !actor.user || !actor.can('execute') || !actor.user.commands.length) throw refuse();
    let words: string[];
    try {
      words = splitCommandLine(line);
    } catch {
      throw refuse();
    }
    const name = words[0];
    if (!name || !actor.user.commands.includes(name)) throw refuse();
    if (!actor.allows(path)) throw refuse();
    const { real, stats } = await actor.fs.stat(path).catch(() => {
      throw refuse();
    });
    if (!stats.isDirectory()) throw refuse();
    const shell = this.d.settings.get().shell;
    const argv = shell.length ? [...shell, line] : words;
    const bin = Bun.which(argv[0]!, { PATH: SAFE_PATH });
    if (!bin) throw refuse();
    return { argv: [bin, ...argv.slice(1)], cwd: real };
  }

  /** The environment of every command: nothing inherited from the server (no secrets, no config). */
  env(cwd: string, extra: Record<string, string> = {}): Record<string, string> {
    return { PATH: SAFE_PATH, HOME: cwd, LANG: 'C.UTF-8', LC_ALL: 'C.UTF-8', TERM: 'dumb', ...extra };
  }

  /**
   * Runs a prepared command, streaming stdout and stderr line by line as they come. Resolves to the exit code
   * (124 on timeout, 125 when the output cap was hit, 137/143 when killed by the caller).
   */
  async run(p: Prepared, sink: LineSink, signal?: AbortSignal, extraEnv: Record<string, string> = {}): Promise<number> {
    const proc = Bun.spawn(p.argv, { cwd: p.cwd, env: this.env(p.cwd, extraEnv), stdin: 'ignore', stdout: 'pipe', stderr: 'pipe', detached: true });
    let reason: 'timeout' | 'cap' | null = null;
    const killGroup = () => {
      try {
        process.kill(-proc.pid, 'SIGKILL'); // the whole group: children of the command go too
      } catch {
        proc.kill('SIGKILL');
      }
    };
    const timer = setTimeout(() => {
      reason = 'timeout';
      killGroup();
    }, this.d.timeoutMs);
    const onAbort = () => killGroup();
    signal?.addEventListener('abort', onAbort);
    let total = 0;
    const pump = async (stream: ReadableStream<Uint8Array>, name: 'stdout' | 'stderr') => {
      const dec = new TextDecoder();
      let buf = '';
      for await (const chunk of stream) {
        total += chunk.length;
        if (total > OUTPUT_CAP_BYTES && !reason) {
          reason = 'cap';
          killGroup();
        }
        buf += dec.decode(chunk, { stream: true });
        let i: number;
        while ((i = buf.indexOf('\n')) >= 0) {
          sink(name, buf.slice(0, i).replace(/\r$/, ''));
          buf = buf.slice(i + 1);
        }
      }
      buf += dec.decode();
      if (buf) sink(name, buf);
    };
    await Promise.all([pump(proc.stdout, 'stdout'), pump(proc.stderr, 'stderr')]);
    const code = await proc.exited;
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
    if (reason === 'timeout') {
      sink('stderr', `Command stopped: time limit of ${Math.round(this.d.timeoutMs / 1000)} s reached.`);
      return 124;
    }
    if (reason === 'cap') {
      sink('stderr', 'Command stopped: too much output.');
      return 125;
    }
    return code;
  }
}
