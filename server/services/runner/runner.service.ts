import type { ExecSandbox } from '../../contract/settings';
import { AppError } from '../../core/errors';
import type { Logger } from '../../core/log';
import type { Actor } from '../actor';
import type { SettingsService } from '../settings/settings.service';
import type { AuditService } from '../audit/audit.service';
import { splitCommandLine } from './command-line';
import { ruleMasks, type RuleMask } from './rule-masks';
import { SAFE_PATH, sandboxArgv, type SandboxOptions } from './sandbox';

/** One text for every refusal, so a user cannot tell a missing binary from a forbidden one. */
export const NOT_ALLOWED = 'Command not allowed.';
/** Exec is on but no sandbox could be used and the admin did not accept running unconfined. */
export const NO_SANDBOX = 'Commands are off: the command sandbox (bubblewrap) is not available on this server.';
export const OUTPUT_CAP_BYTES = 8 * 1024 * 1024;

export interface RunnerDeps {
  enableExec: boolean;
  /** Decided once at start (see sandbox.ts detectExecMode). */
  mode: ExecSandbox;
  /** Set exactly when mode is 'bubblewrap'. */
  sandbox: SandboxOptions | null;
  timeoutMs: number;
  settings: SettingsService;
  log: Logger;
  /** Users' commands (the line and the exit code) and refusals are recorded here; hooks are not. */
  audit?: AuditService;
}

export interface Prepared {
  argv: string[];
  /** Real folder the command starts in; inside `scope`. */
  cwd: string;
  /** Real path of the user's scope: the only user files the sandbox shows. */
  scope: string;
  /** What the user's rules hide inside `scope` (rule-masks.ts); none for hooks, which are the admin's. */
  masks?: RuleMask[];
  /** Who asked and what they typed (for the audit log; absent for hooks). */
  by?: { actor: Actor; line: string; path: string };
}

export type LineSink = (stream: 'stdout' | 'stderr', line: string) => void;

/**
 * Runs allowed commands safely by design: off unless enableExec and a sandbox (or the admin's explicit unsafe
 * flag); inside bubblewrap each command sees only its user's scope and the system read-only; the first word must exactly equal one of the
 * user's commands; arguments go to the program as an argv array (no shell) unless an admin configured
 * settings.shell; a scrubbed environment without server secrets; a time limit and an output cap; the whole
 * process group is killed on timeout, on the cap, or when the caller aborts.
 */
export class Runner {
  constructor(private readonly d: RunnerDeps) {}

  /** True when commands and hooks may run at all. */
  get enabled(): boolean {
    return this.d.mode !== 'off';
  }

  get mode(): ExecSandbox {
    return this.d.mode;
  }

  /** What a refused socket is told when exec is not running: the reference's text, or why the sandbox is missing. */
  get refusal(): string {
    return this.d.enableExec && this.d.mode === 'off' ? NO_SANDBOX : NOT_ALLOWED;
  }

  /** Checks a command line for an actor in a folder; throws AppError(FORBIDDEN, NOT_ALLOWED) on any refusal (recorded). */
  async prepare(actor: Actor, path: string, line: string): Promise<Prepared> {
    try {
      return { ...(await this.check(actor, path, line)), by: { actor, line, path } };
    } catch (e) {
      await this.d.audit?.record(actor, 'command.run', line.slice(0, 1024), { path }, 'denied');
      throw e;
    }
  }

  private async check(actor: Actor, path: string, line: string): Promise<Prepared> {
    const refuse = () => new AppError('FORBIDDEN', NOT_ALLOWED);
    if (!this.enabled || !actor.user || !actor.can('execute') || !actor.user.commands.length) throw refuse();
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
    const scope = actor.fs.realRoot;
    // The sandbox shows what the API shows: rule-denied paths masked (or, when regex rules cannot be expanded
    // within the bound, a clear refusal). Unconfined mode (none-unsafe) has no sandbox to mask with.
    const masks = this.d.sandbox ? await ruleMasks(actor, scope) : [];
    return { argv: [bin, ...argv.slice(1)], cwd: real, scope, masks };
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
    if (!this.enabled) throw new AppError('FORBIDDEN', this.refusal);
    // The one place a command is spawned: wrapped in bubblewrap unless the admin chose unsafe mode.
    const argv = this.d.sandbox ? sandboxArgv(this.d.sandbox, p.scope, p.cwd, p.argv, p.masks) : p.argv;
    const proc = Bun.spawn(argv, { cwd: p.cwd, env: this.env(p.cwd, extraEnv), stdin: 'ignore', stdout: 'pipe', stderr: 'pipe', detached: true });
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
    const exit = reason === 'timeout' ? 124 : reason === 'cap' ? 125 : code;
    if (p.by) await this.d.audit?.record(p.by.actor, 'command.run', p.by.line.slice(0, 1024), { path: p.by.path, exit }, exit === 0 ? 'ok' : 'failed');
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
