import { AppError } from '../../core/errors';
import type { Logger } from '../../core/log';
import { splitCommandLine } from '../runner/command-line';
import type { Runner } from '../runner/runner.service';
import type { SettingsService } from '../settings/settings.service';
import type { HookContext, HookEvent, Hooks } from './hooks';

/**
 * Event hooks run through the runner's safe spawn (inside bubblewrap: only the acting user's scope is visible): the admin's command line is split into argv (or handed to
 * settings.shell, when an admin configured one), and the event's data travels ONLY as environment variables
 * (FILE, SCOPE, TRIGGER, USERNAME, DESTINATION), never spliced into the command, so a file named
 * `a; rm -rf x $(id).txt` is just a value. Same time limit as the runner. A failing before-hook refuses the
 * operation; after-hook failures are logged.
 */
export class ExecHooks implements Hooks {
  constructor(private readonly runner: Runner, private readonly settings: SettingsService, private readonly log: Logger) {}

  async before(event: HookEvent, ctx: HookContext): Promise<void> {
    const failed = await this.runAll(`before_${event}`, ctx);
    if (failed) throw new AppError('FORBIDDEN', `refused by the before_${event} hook`);
  }

  async after(event: HookEvent, ctx: HookContext): Promise<void> {
    await this.runAll(`after_${event}`, ctx);
  }

  /** Runs every command of a trigger in order; returns true when one failed (the rest are not run). */
  private async runAll(trigger: string, ctx: HookContext): Promise<boolean> {
    const s = this.settings.get();
    const lines = s.commands[trigger as keyof typeof s.commands] ?? [];
    if (!lines.length || !ctx.actor.user) return false;
    const scopeRoot = ctx.actor.fs.realRoot;
    const env = {
      FILE: await ctx.actor.fs.real(ctx.path),
      SCOPE: ctx.actor.user.scope,
      TRIGGER: trigger,
      USERNAME: ctx.actor.user.username,
      DESTINATION: ctx.destination ? await ctx.actor.fs.real(ctx.destination) : scopeRoot,
      // Set when a visitor acted through a public link (a file request's upload): the link's hash; '' otherwise.
      SHARE_HASH: ctx.actor.share ?? '',
    };
    for (const line of lines) {
      let argv: string[];
      try {
        argv = s.shell.length ? [...s.shell, line] : splitCommandLine(line);
      } catch {
        this.log.warn(`hook ${trigger}: cannot parse "${line}"`);
        return true;
      }
      const bin = argv[0] ? Bun.which(argv[0], { PATH: this.runner.env(scopeRoot).PATH }) : null;
      if (!bin) {
        this.log.warn(`hook ${trigger}: command not found: ${argv[0]}`);
        return true;
      }
      const out: string[] = [];
      // Same spawn as the runner: inside the sandbox, seeing only this user's scope.
      const code = await this.runner.run({ argv: [bin, ...argv.slice(1)], cwd: scopeRoot, scope: scopeRoot }, (_s, l) => void (out.length < 20 && out.push(l)), undefined, env);
      if (code !== 0) {
        this.log.warn(`hook ${trigger} "${line}" exited ${code}: ${out.join(' | ').slice(0, 500)}`);
        return true;
      }
    }
    return false;
  }
}
